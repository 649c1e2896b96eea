// The body of the work item table's page: the elements the page's script (src/table/web/) fills in (the bar, the
// problem line, the status line with the count of items, of a typed filter's matches and of the edits, the grid with its header and its virtual rows). One copy for the
// webview's page (src/table/html.ts) and the paint benchmark (bench/table-paint.ts). No vscode import.
// The grid's role is on #aria-grid, which owns the header and the rows (aria-owns): the grid's text box and cell editors
// (in the scrolled area, with the rows) are then not children of the grid, which may hold rows only.
export const TABLE_PAGE_BODY = `<div id="bar" role="toolbar"></div>
<div id="problem" role="alert" hidden></div>
<div id="status-line"><div id="status" role="status" aria-live="polite"></div><div id="count" aria-live="polite"></div><div id="edits"></div></div>
<div id="grid" tabindex="-1">
  <div id="aria-grid" role="grid" aria-owns="header rows" aria-rowcount="0" aria-colcount="0" aria-multiselectable="true"></div>
  <div id="header" role="row"></div>
  <div id="body"><div id="spacer"><div id="rows"></div></div></div>
</div>`;

