// The before/after table's grid (the Before/After view and the result view; after cells.js):
// renders only the rows in sight, filters, and records the first paint time in
// `document.body.dataset.firstPaintMs` (the benchmark reads it). The section's HTML and its
// #wis-head / #wis-data JSON come from src/webview/changeTable.ts renderChangeTable.
// @ts-check
/* global wisCells */
(function(){
  var t0 = performance.now();
  var el = /** @type {HTMLElement} */ (document.getElementById('wis-data')), hd = /** @type {HTMLElement} */ (document.getElementById('wis-head')); if (!el || !hd) return;
  // First paint from the first rows only; every row is parsed right after it.
  var d = JSON.parse(hd.textContent), grid = /** @type {HTMLElement} */ (document.getElementById('wis-grid'));
  var H = d.h, fields = d.fields, all = d.rows, rows = all, total = d.total;
  var cols = 'minmax(5em,8em) minmax(7em,14em) ' + fields.map(function(){return 'minmax(15em,1fr)';}).join(' ') + ' minmax(10em,2fr)';
  var head = document.createElement('div'); head.className = 'wis-head'; head.style.gridTemplateColumns = cols;
  // The item's name is its own column unless the table shows the Name field (before → after): never two "Name" columns.
  var nameCol = fields.indexOf('Name') < 0;
  if (!nameCol) cols = 'minmax(5em,8em) ' + fields.map(function(){return 'minmax(15em,1fr)';}).join(' ') + ' minmax(10em,2fr)';
  head.style.gridTemplateColumns = cols;
  [d.col.id].concat(nameCol ? [d.col.name] : [], fields, [d.col.remarks]).forEach(function(t){ var c = document.createElement('div'); c.textContent = t; c.title = t; head.appendChild(c); });
  var body = document.createElement('div'); body.style.position = 'relative';
  grid.appendChild(head); grid.appendChild(body);
  var pool = /** @type {HTMLDivElement[]} */ ([]), shown = document.getElementById('wis-shown');
  var cells = wisCells(d, fields), cell = cells.cell, tip = cells.tip;
  /** @typedef {any[]} Row a row of the #wis-data JSON */
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
      return !q || r[0].toLowerCase().indexOf(q) >= 0 || r[1].toLowerCase().indexOf(q) >= 0;
    });
    grid.scrollTop = 0; render();
  }
  grid.addEventListener('scroll', function(){ requestAnimationFrame(render); });
  /** @type {HTMLElement} */ (document.getElementById('wis-filter')).addEventListener('change', apply);
  /** @type {HTMLElement} */ (document.getElementById('wis-search')).addEventListener('input', apply);
  window.addEventListener('resize', render);
  render();
  requestAnimationFrame(function(){
    document.body.dataset.firstPaintMs = String(Math.round(performance.now())); document.body.dataset.scriptMs = String(Math.round(performance.now() - t0)); document.body.dataset.rows = String(total);
    // Every row, after the first paint.
    setTimeout(function(){ all = JSON.parse(el.textContent).rows; rows = all; apply(); document.body.dataset.rowsReady = '1'; }, 0);
  });
})();
