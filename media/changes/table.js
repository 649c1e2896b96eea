// The before/after table's grid (the Before/After view and the result view; after cells.js):
// `wisTable(d)` paints the table of settings `d` (src/webview/changeTable.ts ChangeTableHead:
// columns, words, names, the first rows and how many there are) in #wis-grid, only the rows in
// sight, filters, and records the first paint time in `document.body.dataset.firstPaintMs`
// (the benchmark reads it). Its `all(rows)` takes every row (kept until after the first paint),
// `append(from, rows)` the rows of a batch of a table still being read,
// `people(names)` paints the rows in sight again with names learned later.
// Where the data comes from: a section with data-rows="embedded" holds it as #wis-head /
// #wis-data JSON (the result view: painted here at once); data-rows="posted" gets it as
// messages (the Before/After view: media/changes/page.js asks and calls wisTable).
// @ts-check
/* global wisCells */

/** @typedef {any[]} Row a row of the table (src/webview/changeTable.ts Row) */
/**
 * @typedef {{fields: string[], labels?: string[], h: number, empty: string, computed: string, kind: string, people?: Record<string, string>,
 *   hours?: string, minutes?: string, rows: Row[], total: number,
 *   col: {id: string, name: string, remarks: string}}} TableHead
 */

/**
 * @param {TableHead} d
 * @returns {{all(rows: Row[]): void, append(from: number, rows: Row[]): void, people(names: Record<string, string>): void}}
 */
// eslint-disable-next-line no-unused-vars -- used by page.js and the tests (a global of the page)
function wisTable(d) {
  var t0 = performance.now();
  var grid = /** @type {HTMLElement} */ (document.getElementById('wis-grid'));
  if (!grid) return { all: function(){}, append: function(){}, people: function(){} };
  grid.textContent = '';
  var H = d.h, fields = d.fields, all = d.rows, rows = all, total = d.total, painted = false, /** @type {Row[] | undefined} */ later;
  // The item's name is its own column unless the table shows the Name field (before → after): never two "Name" columns.
  var nameCol = fields.indexOf('Name') < 0;
  var cols = 'minmax(5em,8em) ' + (nameCol ? 'minmax(7em,14em) ' : '') + fields.map(function(){return 'minmax(15em,1fr)';}).join(' ') + ' minmax(10em,2fr)';
  var head = document.createElement('div'); head.className = 'wis-head'; head.style.gridTemplateColumns = cols;
  // A field's header is its name as people read it (進捗率), its system name (ActualProgress) on hover.
  var labels = d.labels || fields;
  /** @param {string} t @param {string} tip */
  function headCell(t, tip){ var c = document.createElement('div'); c.textContent = t; c.title = tip; head.appendChild(c); }
  headCell(d.col.id, d.col.id); if (nameCol) headCell(d.col.name, 'Name');
  fields.forEach(function(f, i){ headCell(labels[i] || f, labels[i] && labels[i] !== f ? labels[i] + ' (' + f + ')' : f); });
  headCell(d.col.remarks, d.col.remarks);
  var body = document.createElement('div'); body.style.position = 'relative';
  grid.appendChild(head); grid.appendChild(body);
  var pool = /** @type {HTMLDivElement[]} */ ([]), shown = document.getElementById('wis-shown');
  var cells = wisCells(d, fields), cell = cells.cell, tip = cells.tip;
  /** @param {HTMLDivElement} div @param {Row} r */
  function fill(div, r){
    div.className = 'wis-row' + (r[3] ? ' flag' : '');
    var k = /** @type {HTMLCollectionOf<HTMLElement>} */ (div.children);
    var o = nameCol ? 2 : 1;
    k[0].textContent = r[0]; k[0].title = r[0]; if (nameCol) { k[1].textContent = r[1]; k[1].title = r[1]; }
    for (var i = 0; i < fields.length; i++) {
      var c = cell(r, i), x = k[o + i], tb = tip(fields[i], r[5 + 3 * i]), ta = tip(fields[i], r[6 + 3 * i]);
      x.className = 'c' + c[2];
      if (c[2] === 0) { x.textContent = c[0]; x.title = tb ? c[0] + ' (' + tb + ')' : c[0]; }
      else { x.textContent = ''; var b = document.createElement('span'); b.textContent = c[0]; var a = document.createElement('span'); a.className = 'arrow'; a.textContent = '→'; var n = document.createElement('span'); n.className = 'a'; n.textContent = c[1]; x.appendChild(b); x.appendChild(a); x.appendChild(n); x.title = c[0] + (tb ? ' (' + tb + ')' : '') + ' → ' + c[1] + (ta && c[2] !== 2 ? ' (' + ta + ')' : ''); }
    }
    k[o + fields.length].textContent = r[2]; k[o + fields.length].title = r[2];
  }
  function make(){ var div = document.createElement('div'); div.setAttribute('role','row'); div.style.gridTemplateColumns = cols; for (var i = 0; i < fields.length + (nameCol ? 3 : 2); i++) div.appendChild(document.createElement('div')); body.appendChild(div); return div; }
  function render(){
    body.style.height = (rows.length * H) + 'px';
    var first = Math.max(0, Math.floor(grid.scrollTop / H) - 5), count = Math.ceil(grid.clientHeight / H) + 10;
    for (var i = 0; i < count; i++) {
      var div = pool[i] || (pool[i] = make()), r = rows[first + i];
      if (!r) { div.style.display = 'none'; continue; }
      div.style.display = ''; div.style.top = ((first + i) * H) + 'px'; fill(div, r);
    }
    if (shown) shown.textContent = /** @type {string} */ (shown.dataset.template).replace('-1', String(rows === all && all.length < total ? total : rows.length)).replace('-2', String(Math.max(all.length, total)));
  }
  function apply(){
    var f = /** @type {HTMLSelectElement} */ (document.getElementById('wis-filter')).value, q = /** @type {HTMLInputElement} */ (document.getElementById('wis-search')).value.toLowerCase();
    rows = all.filter(/** @param {Row} r */ function(r){
      if (f === 'flag' && !r[3]) return false;
      if (f === 'changed') { var any = false; for (var i = 0; i < fields.length; i++) if (cell(r, i)[2] !== 0) any = true; if (!any) return false; }
      return !q || String(r[0]).toLowerCase().indexOf(q) >= 0 || String(r[1]).toLowerCase().indexOf(q) >= 0;
    });
    grid.scrollTop = 0; render();
  }
  /** Every row: taken now, or right after the first paint when it has not happened yet. @param {Row[]} every */
  function takeAll(every){
    if (!painted) { later = every; return; }
    all = every; rows = all; apply(); document.body.dataset.rowsReady = '1';
  }
  /** Rows from index `from` (a batch of a table still being read; the first replaces the first rows): the rows in sight painted again, the filter kept. @param {number} from @param {Row[]} more */
  function append(from, more){
    if (!painted) { pending.push([from, more]); return; }
    var filtered = rows !== all;
    all.length = Math.min(all.length, from);
    for (var i = 0; i < more.length; i++) all.push(more[i]);
    if (filtered) { var top = grid.scrollTop; apply(); grid.scrollTop = top; render(); } else { rows = all; render(); }
    document.body.dataset.rowsShown = String(all.length);
    if (all.length >= total) document.body.dataset.rowsReady = '1';
  }
  var pending = /** @type {[number, Row[]][]} */ ([]);
  grid.addEventListener('scroll', function(){ requestAnimationFrame(render); });
  /** @type {HTMLElement} */ (document.getElementById('wis-filter')).addEventListener('change', apply);
  /** @type {HTMLElement} */ (document.getElementById('wis-search')).addEventListener('input', apply);
  window.addEventListener('resize', render);
  render();
  requestAnimationFrame(function(){
    document.body.dataset.firstPaintMs = String(Math.round(performance.now())); document.body.dataset.scriptMs = String(Math.round(performance.now() - t0)); document.body.dataset.rows = String(total);
    // Every row, after the first paint.
    setTimeout(function(){ painted = true; if (later) { var every = later; later = undefined; takeAll(every); } var p = pending.splice(0); for (var i = 0; i < p.length; i++) append(p[i][0], p[i][1]); }, 0);
  });
  return {
    all: takeAll,
    append: append,
    people: function(names){ d.people = names; render(); },
  };
}

// A section with its data in the page (the result view): painted now, every row after the first paint.
(function(){
  var el = document.getElementById('wis-data'), hd = document.getElementById('wis-head'); if (!el || !hd) return;
  var data = el, t = wisTable(JSON.parse(/** @type {string} */ (hd.textContent)));
  // Parsed after the first paint (the first rows are in #wis-head).
  requestAnimationFrame(function(){ setTimeout(function(){ t.all(JSON.parse(/** @type {string} */ (data.textContent)).rows); }, 0); });
})();
