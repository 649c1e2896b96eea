// The virtual window of the work item table: which rows are painted for a scroll
// position. Fixed row height; only the rows in sight (plus a few above and below) are
// in the page, inside a spacer as tall as every row. Shared by the webview (a classic
// script: window.TableVirtual) and the unit tests (require).
// @ts-check
(function (root) {
  /**
   * Rows to paint for a scroll position.
   * @param {number} scrollTop pixels scrolled in the body
   * @param {number} viewportHeight pixels of the body in sight
   * @param {number} rowHeight pixels of a row (fixed)
   * @param {number} total rows in the table
   * @param {number} [overscan] rows painted above and below the ones in sight
   * @returns {{start: number, end: number, offset: number, height: number}} rows [start, end), the first row's top and the spacer's height
   */
  function visibleRange(scrollTop, viewportHeight, rowHeight, total, overscan) {
    const over = overscan === undefined ? 8 : Math.max(0, Math.floor(overscan));
    const h = rowHeight > 0 ? rowHeight : 1;
    const count = Math.max(0, Math.floor(total));
    const top = Math.max(0, Number.isFinite(scrollTop) ? scrollTop : 0);
    const first = Math.min(count, Math.floor(top / h));
    const inSight = Math.ceil(Math.max(0, viewportHeight) / h) + 1;
    const start = Math.max(0, first - over);
    const end = Math.min(count, first + inSight + over);
    return { start, end, offset: start * h, height: count * h };
  }

  /**
   * The scroll position that brings a row into sight (unchanged when it is in sight).
   * @param {number} row index of the row
   * @param {number} scrollTop
   * @param {number} viewportHeight
   * @param {number} rowHeight
   * @returns {number}
   */
  function scrollToRow(row, scrollTop, viewportHeight, rowHeight) {
    const top = row * rowHeight;
    if (top < scrollTop) return top;
    if (top + rowHeight > scrollTop + viewportHeight) return Math.max(0, top + rowHeight - viewportHeight);
    return scrollTop;
  }

  /**
   * The cells of a rectangle as TSV (the clipboard's form for spreadsheets): a cell with a
   * tab, a new line or a quote is quoted, quotes doubled.
   * @param {string[][]} rows
   * @returns {string}
   */
  function toTsv(rows) {
    const cell = (/** @type {string} */ s) => (/[\t\n\r"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    return rows.map((r) => r.map(cell).join('\t')).join('\r\n');
  }

  const api = { visibleRange, scrollToRow, toTsv };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.TableVirtual = api;
})(typeof self !== 'undefined' ? self : this);
