// Benchmark: the work item table webview's first paint for 100,000 rows (goal
// ≤ 300 ms of webview time), in headless Chromium (playwright-core; Debian's Chromium as
// the E2E tier finds it: test/runners/code-server.ts ensureTools / launchChromium). No VS
// Code: a page loads the very files the table webview loads (media/table/table.css and
// its script, the bundle of src/table/web/ that `node esbuild.js` writes to dist/web/table.js) with a
// stub acquireVsCodeApi, and gets the messages the extension posts, as it posts them.
//
// The rows: a generated 100,000-item project (the sandbox's large project, in this
// process) read with loadSubtree over real HTTP, the view computed and formatted in
// chunks of ROW_CHUNK rows exactly as TablePanel.refresh does (src/table/model), users by
// name. The messages come from a worker of the page (a structured clone each, as a
// webview's messages come from outside its main thread; the worker fetches them from the
// bench's local HTTP server, which serves the pages too, before t0): `init` first (the page builds
// its bar and header, not timed), then at t0 `reset` and every `rows` chunk at once.
//
// Measured in the page (performance.now, webview time), per run on a fresh page:
//   render: t0 → the end of the animation frame callback that put the first rows in the
//           page (the page posts `painted` with count > 0 from it), with the style and
//           layout of that frame forced there (what the browser does right after it, before
//           the frame is painted and presented);
//   next:   t0 → the next animation frame callback (an upper bound of the paint: the messages
//           still queued run before it);
//   all:    t0 → the last `rows` message handled (every row in the page's memory).
// Baseline ("plain"): the same messages into a bare page that keeps the rows and, on the
// first `rows` message, writes the rows in sight (as many as the table painted) as a bare
// <table> in an animation frame, with what the table shows in them (texts, tree marks and
// indents, hovers, column widths, a scroll area as tall as every row): the floor of "a
// message came, rows are shown".
// The two sides run interleaved, BENCH_RUNS times each after one warm-up of each.
//
// Run: npx tsx bench/table-paint.ts   (BENCH_RUNS=n, default 7; BENCH_ITEMS=n, default 100000)
// Adds a section to the newest run in bench/results/table.md, above its earlier runs (BENCH_WRITE=0: print only).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ServiceClient } from '../src/api/client';
import { createSandbox, generateLargeProject, LARGE_PROJECT } from '../src/sandbox/index';
import {
  DEFAULT_COLUMN_KEYS,
  ROW_CHUNK,
  chunkRanges,
  columnLabel,
  computeView,
  defaultWidth,
  folderTest,
  folderTypeIds,
  loadSubtree,
  pickColumns,
  shownRow,
  tableColumns,
} from '../src/table/model';
import { ROW_HEIGHT, type TableStrings, type ToWebview } from '../src/table/protocol';
import { ensureTools, launchChromium } from '../test/runners/code-server';
import { appendToNewestRun } from './history';
import { TABLE_PAGE_BODY } from '../src/table/model/page';
import { PAGE_SCRIPTS } from '../src/webview/html';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const ROOT = path.join(__dirname, '..');
const MEDIA = path.join(ROOT, 'media', 'table');

/** The table page's bundle as the extension ships it (built now, so that it is the sources' as they are). */
function pageScript(): string {
  execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT, stdio: 'inherit' });
  return fs.readFileSync(path.join(ROOT, PAGE_SCRIPTS.table), 'utf8');
}

/** The English strings the extension sends (src/table/strings.ts, without vscode.l10n). */
const STRINGS: TableStrings = {
  filterPlaceholder: 'Filter, e.g. status:"In progress" leader:suzuki finish<2026-03-01 overdue',
  build: 'Add Condition…', named: 'Named Filters…', save: 'Save Filter…', columns: 'Columns…', lowestOnly: 'Lowest level only',
  useInRequest: 'Use in Request Document', loading: 'Reading work items…', matches: '{0} of {1} items match', matchesOne: '{0} of {1} item matches', rows: '{0} items', rowsOne: '{0} item',
  noRows: 'No work items to show.', sortHint: 'Click to sort; drag to move; drag the edge to resize', review: 'Review Changes',
  exportCsv: 'Export…', importCsv: 'Import…', undo: 'Undo', redo: 'Redo', edits: '{0} edited cells', editsOne: '{0} edited cell', editedBefore: 'Edited. Before: {0}', empty: '(empty)',
  moreActions: 'More Actions', pickDate: 'Pick a date', discard: 'Discard Edits', sentRow: 'Sent.',
  newRow: 'New item', newRowTitle: 'New item: added when the review is sent.', newRowState: 'New item', sentState: 'Sent', addRow: 'Add Row', addSubItem: 'Add Sub-item', duplicateRows: 'Duplicate Rows', pasteNewItems: 'Paste as New Items',
};

/** The page of the webview (src/table/html.ts without the CSP's nonce: the same elements, files and order). */
const TABLE_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<link rel="stylesheet" href="/table.css"><title>bench</title></head><body>
${TABLE_PAGE_BODY}
<script src="/stub.js"></script>
<script src="/table.js"></script>
</body></html>`;

/**
 * The baseline page: keeps the rows and, on the first rows message, writes the ones in sight
 * as a bare table showing what the table shows in them: the same texts (the tree's marks and
 * indents in the name column), the same hovers (users with their IDs, long texts), the
 * columns' widths, in a scroll area as tall as every row.
 */
const PLAIN_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<link rel="stylesheet" href="/table.css"><title>plain</title></head><body>
<div id="plain" style="overflow:auto;flex:1 1 auto;height:100vh"><div id="spacer" style="position:relative"></div></div>
<script src="/stub.js"></script>
<script>
(function () {
  const vscode = acquireVsCodeApi();
  let rows = [], columns = [], rowHeight = 24, tree = false, generation = -1, shown = false, total = 0;
  window.addEventListener('message', (event) => {
    const m = event.data;
    if (m.type === 'init') { columns = m.columns; rowHeight = m.rowHeight; return; }
    if (m.type === 'reset') { generation = m.generation; total = m.total; tree = m.tree; rows = new Array(m.total); shown = false; return; }
    if (m.type !== 'rows' || m.generation !== generation) return;
    for (let i = 0; i < m.rows.length; i++) rows[m.start + i] = m.rows[i];
    if (shown) return;
    shown = true;
    requestAnimationFrame(() => {
      const table = document.createElement('table');
      table.style.tableLayout = 'fixed';
      table.style.borderCollapse = 'collapse';
      const cols = document.createElement('colgroup');
      for (const c of columns) { const col = document.createElement('col'); col.style.width = c.width + 'px'; cols.append(col); }
      table.append(cols);
      const nameAt = columns.findIndex((c) => c.key === 'Name');
      const n = Math.min(window.BENCH_VISIBLE, total);
      for (let r = 0; r < n; r++) {
        const row = rows[r];
        const tr = document.createElement('tr');
        tr.style.height = rowHeight + 'px';
        for (let c = 0; c < columns.length; c++) {
          const td = document.createElement('td');
          let text = row.cells[c];
          if (tree && c === nameAt) { td.style.paddingLeft = 6 + Math.max(0, row.level - 1) * 14 + 'px'; text = (row.container ? '\u25be ' : '  ') + text; }
          td.textContent = text;
          const tip = row.titles ? row.titles[columns[c].key] : undefined;
          if (tip !== undefined) td.title = tip;
          else if (row.cells[c].length > 12) td.title = row.cells[c];
          tr.append(td);
        }
        table.append(tr);
      }
      const spacer = document.getElementById('spacer');
      spacer.style.height = total * rowHeight + 'px';
      spacer.replaceChildren(table);
      vscode.postMessage({ type: 'painted', generation, first: 0, count: n, total, received: m.rows.length, ms: 0 });
    });
  });
  vscode.postMessage({ type: 'ready' });
})();
</script></body></html>`;

/**
 * The stub of the webview host: acquireVsCodeApi posts into window.__posted; a worker holds
 * the extension's messages and sends them when told (the timing starts then).
 */
const STUB = `(function () {
  const posted = (window.__posted = []);
  let t0 = 0, firstRender = -1, allDone = -1, expectChunks = 0, chunks = 0, resolve;
  window.__result = new Promise((r) => (resolve = r));
  const maybeDone = () => { if (firstRender >= 0 && window.__nextFrame >= 0 && allDone >= 0) resolve({ render: firstRender - t0, next: window.__nextFrame - t0, all: allDone - t0, count: window.__count }); };
  window.__nextFrame = -1;
  window.acquireVsCodeApi = () => ({
    postMessage(m) {
      posted.push(m);
      if (m.type === 'painted' && m.count > 0 && firstRender < 0 && t0 > 0) {
        // Style and layout of the frame with the rows, now (the browser would do them right after this callback).
        document.body.getBoundingClientRect();
        firstRender = performance.now();
        window.__count = m.count;
        requestAnimationFrame(() => { window.__nextFrame = performance.now(); maybeDone(); });
      }
    },
    getState() { return undefined; },
    setState() {},
  });
  // Messages of the "extension": from a worker, each a structured clone.
  window.__load = (url) => new Promise((ready) => {
    const src = 'let held = []; onmessage = (e) => { if (e.data.fetch) { fetch(e.data.fetch).then((r) => r.json()).then((m) => { held = m; postMessage({ held: held.length }); }); } else if (e.data.send) { for (const m of held.slice(e.data.send[0], e.data.send[1])) postMessage(m); } };';
    const w = (window.__worker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' }))));
    w.onmessage = (e) => {
      if (e.data && e.data.held !== undefined) { ready(e.data.held); return; }
      window.dispatchEvent(new MessageEvent('message', { data: e.data }));
      if (e.data.type === 'rows' && ++chunks === expectChunks) { allDone = performance.now(); maybeDone(); }
    };
    w.postMessage({ fetch: new URL(url, location.href).href });
  });
  window.__send = (from, to, rowChunks) => {
    if (rowChunks) { expectChunks = rowChunks; chunks = 0; t0 = performance.now(); }
    window.__worker.postMessage({ send: [from, to] });
  };
})();`;

interface Run {
  render: number;
  next: number;
  all: number;
  count: number;
}

async function prepareMessages(): Promise<{ messages: ToWebview[]; rows: number }> {
  const sandbox = await createSandbox({ port: 0, data: generateLargeProject({ items: ITEMS }) });
  try {
    const bare = new ServiceClient({ baseUrl: sandbox.url });
    const token = await bare.signIn('admin', 'password');
    await bare.close();
    const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'bearer', token }) });
    const profile = await client.getProjectProfile(LARGE_PROJECT.id);
    const columns = pickColumns(tableColumns([], profile), DEFAULT_COLUMN_KEYS);
    const rows = await loadSubtree(client, LARGE_PROJECT.rootFolderId, 0, { onRows: () => undefined });
    const users = new Map<string, string>();
    for (const r of rows) for (const k of ['LeaderId']) if (typeof r.fields[k] === 'string') users.set(r.fields[k] as string, `利用者 ${String(r.fields[k])}`);
    await client.close();
    const format = { userName: (id: string) => users.get(id) ?? `利用者 ${id}` };
    const view = computeView(rows, { lowestOnly: false, isFolder: folderTest(folderTypeIds(profile)), format });
    const messages: ToWebview[] = [
      {
        type: 'init',
        title: 'Table: bench',
        strings: STRINGS,
        sort: undefined,
        lowestOnly: false,
        filterText: '',
        rowHeight: ROW_HEIGHT,
        columns: columns.map((c) => ({ key: c.key, label: columnLabel(c, 'en'), type: c.type, width: defaultWidth(c) })),
      },
      { type: 'reset', generation: 1, total: view.length, loaded: rows.length, tree: true },
    ];
    for (const [start, end] of chunkRanges(view.length, ROW_CHUNK)) {
      const chunk = new Array(end - start);
      for (let i = start; i < end; i++) chunk[i - start] = shownRow(view[i]!, columns, format);
      messages.push({ type: 'rows', generation: 1, start, rows: chunk });
    }
    messages.push({ type: 'progress', loaded: rows.length, total: rows.length, done: true });
    return { messages, rows: view.length };
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const { messages, rows } = await prepareMessages();
  const chunks = messages.filter((m) => m.type === 'rows').length;
  const messagesJson = Buffer.from(JSON.stringify(messages));
  const bytes = messagesJson.length;
  const tools = ensureTools();
  const browser = await launchChromium(tools);
  const version = browser.version();
  const files: Record<string, { body: string | Buffer; type: string }> = {
    '/messages.json': { body: messagesJson, type: 'application/json' },
    '/table.html': { body: TABLE_PAGE, type: 'text/html' },
    '/plain.html': { body: PLAIN_PAGE, type: 'text/html' },
    '/stub.js': { body: STUB, type: 'text/javascript' },
    '/table.css': { body: fs.readFileSync(path.join(MEDIA, 'table.css'), 'utf8'), type: 'text/css' },
    '/table.js': { body: pageScript(), type: 'text/javascript' },
  };
  let visible = 40;
  const once = async (page: Page, kind: 'table' | 'plain'): Promise<Run> => {
    await page.goto(`${origin}/${kind}.html`);
    await page.evaluate((n) => ((globalThis as unknown as { BENCH_VISIBLE: number }).BENCH_VISIBLE = n), visible);
    // The page's worker fetches the messages itself (passing 45 MB through the browser's protocol took minutes per run).
    await page.evaluate(() => (globalThis as unknown as { __load(url: string): Promise<number> }).__load('/messages.json'));
    // `init` first (as the extension sends it before any row), two frames, then reset + every chunk.
    await page.evaluate(() => (globalThis as unknown as { __send(a: number, b: number): void }).__send(0, 1));
    await page.evaluate(() => {
      const raf = (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame;
      return new Promise<void>((r) => raf(() => raf(r)));
    });
    return page.evaluate(
      ({ n, c }) => {
        const w = globalThis as unknown as { __send(a: number, b: number, c: number): void; __result: Promise<Run> };
        w.__send(1, n, c);
        return w.__result;
      },
      { n: messages.length, c: chunks },
    );
  };
  // The page's files from a local HTTP server (the browser reads them itself).
  const server = http.createServer((req, res) => {
    const f = files[new URL(req.url ?? '/', 'http://localhost').pathname];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'cache-control': 'no-store' }).end(f.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const table: Run[] = [];
  const plain: Run[] = [];
  let same = false;
  let cellCount = 0;
  try {
    const warm = await once(page, 'table');
    visible = warm.count;
    // The page shows users by name with the ID on hover (the rows' titles): a check that the very script ran.
    const tip = await page.locator('#rows .cell.user[title]').first().getAttribute('title');
    if (!tip || !/\(\d+\)/.test(tip)) throw new Error(`a user cell of the table has no hover with the user's ID (${String(tip)})`);
    const shownTexts = (selector: string) =>
      page.locator(selector).evaluateAll((els) => els.map((e) => `${e.textContent ?? ''}|${(e as unknown as { title: string }).title}`));
    const tableTexts = await shownTexts('#rows .row .cell');
    await once(page, 'plain');
    const plainTexts = await shownTexts('#plain td');
    cellCount = tableTexts.length;
    same = tableTexts.length > 0 && tableTexts.join('\n') === plainTexts.join('\n');
    if (!same) process.stderr.write(`the plain page shows other texts than the table: ${tableTexts.length} and ${plainTexts.length} cells\n`);
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        table.push(await once(page, 'table'));
        plain.push(await once(page, 'plain'));
      } else {
        plain.push(await once(page, 'plain'));
        table.push(await once(page, 'table'));
      }
      process.stdout.write(`run ${i + 1}: table ${JSON.stringify(table.at(-1))} plain ${JSON.stringify(plain.at(-1))}\n`);
    }
  } finally {
    await browser.close();
    server.close();
  }
  const loadAfter = os.loadavg();
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const st = (xs: number[]) => {
    const s = sorted(xs);
    return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
  };
  const f = (xs: number[]) => {
    const s = st(xs);
    return `${s.min.toFixed(0)} / ${s.median.toFixed(0)} / ${s.max.toFixed(0)}`;
  };
  const ratio = (a: Run[], b: Run[], k: keyof Run) => {
    const r = st(a.map((x, i) => x[k] / b[i]![k]));
    return `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
  };
  const cores = os.cpus();
  const md = `
## Webview first paint for ${rows.toLocaleString('en')} rows (goal ≤ 300 ms of webview time)

Command: \`npx tsx bench/table-paint.ts\` (\`BENCH_RUNS\`=${RUNS}, \`BENCH_ITEMS\`=${ITEMS}). ${new Date().toISOString()}; ${cores.length} × ${cores[0]?.model.trim()}, Node ${process.version}, headless Chromium ${version};
load average before ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' / ')} (shared machine).
The page loads media/table/table.css and its script (the bundle of src/table/web/, ${PAGE_SCRIPTS.table}; a stub acquireVsCodeApi); the messages are those TablePanel posts for the generated ${ITEMS.toLocaleString('en')}-item project (read over HTTP from the sandbox, formatted by src/table/model): \`init\`, then at t0 \`reset\` and ${chunks} \`rows\` chunks of ${ROW_CHUNK.toLocaleString('en')} rows (${(bytes / 1e6).toFixed(1)} MB as JSON), each from a worker of the page (a structured clone, as a webview's messages come). Viewport 1280 × 800; the table painted ${visible} rows (in sight + overscan); the plain page as many, with the same texts and hovers in its cells (${same ? 'checked: the same' : '**checked: NOT the same**'} ${cellCount} cells' texts and hovers after the warm-up). Webview time (the page's performance.now), ms from t0, min / median / max of ${RUNS} runs each on a fresh page, interleaved (each first every other round) after one warm-up of each; ratio = median of per-run ratios (min–max in brackets).

| what | table (its page, src/table/web) | plain: the rows in sight as a bare table with the same texts and hovers | ratio |
|---|---|---|---:|
| first rows put in the page and laid out (the frame that shows them) | ${f(table.map((x) => x.render))} | ${f(plain.map((x) => x.render))} | ${ratio(table, plain, 'render')} |
| the next frame (upper bound: the chunks still queued are handled before it) | ${f(table.map((x) => x.next))} | ${f(plain.map((x) => x.next))} | ${ratio(table, plain, 'next')} |
| every chunk received and handled | ${f(table.map((x) => x.all))} | ${f(plain.map((x) => x.all))} | ${ratio(table, plain, 'all')} |
`;
  process.stdout.write(md);
  // A section of the newest run of bench/table.ts (above its earlier runs).
  if (process.env.BENCH_WRITE !== '0') appendToNewestRun(path.join(__dirname, 'results', 'table.md'), md);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
