// The virtual window of the work item table: which rows are painted for a scroll
// position. Fixed row height; only the rows in sight (plus a few above and below) are
// in the page, inside a spacer as tall as every row. Shared by the webview (a classic
// script: window.TableVirtual) and the unit tests (require). With it, the page's other pure
// rules: a count's plural form, which of the bar's buttons fit in one row, the choice a typed
// text picks, a date cell's text as a date picker's value.
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

  /**
   * The template of a count in the page's language: `one` where the language's plural rule says
   * "one" for `n` (English: 1), else `other`. Japanese has one form (its `one` is the same text).
   * @param {number} n
   * @param {{one?: string, other: string}} forms
   * @param {string} [lang] the page's language (BCP 47)
   * @returns {string}
   */
  function pluralOf(n, forms, lang) {
    if (forms.one === undefined) return forms.other;
    let rule = n === 1 ? 'one' : 'other';
    try {
      rule = new Intl.PluralRules(lang || 'en').select(n);
    } catch {
      // An unknown language tag: English's rule.
    }
    return rule === 'one' ? forms.one : forms.other;
  }

  /**
   * Which of the bar's optional items stay in the bar (the rest go to its "…" menu) so that the
   * bar is one row: the fixed items always stay, the filter box gets at least `filterWidth`, the
   * optional ones are kept in their order (most used first) while they fit; the first that does
   * not fit and all after it go to the menu, so the menu's order is always the same.
   * @param {number} available the bar's inner width in pixels
   * @param {number} fixedWidth the fixed items' widths plus their gaps (the "…" button included)
   * @param {number} filterWidth the width the filter box needs (its placeholder)
   * @param {number[]} optional the optional items' widths, most used first
   * @param {number} gap pixels between two items
   * @returns {number} how many of `optional` stay in the bar
   */
  function itemsInBar(available, fixedWidth, filterWidth, optional, gap) {
    let used = fixedWidth + filterWidth;
    let kept = 0;
    for (const w of optional) {
      if (used + gap + w > available) break;
      used += gap + w;
      kept++;
    }
    return kept;
  }

  /**
   * Folds a text for matching as the extension does for names (compatibility forms such as
   * full-width letters and half-width katakana, case).
   * @param {string} s
   */
  function fold(s) {
    return s.normalize('NFKC').toLowerCase().trim();
  }

  /**
   * The choice a text typed on a list or user cell picks: the first whose label is the text, else
   * the first whose label starts with it, else the first that contains it; undefined without one.
   * @param {{value: string, label: string}[]} choices
   * @param {string} typed
   * @returns {string | undefined} the choice's value
   */
  function choiceFor(choices, typed) {
    const q = fold(typed);
    if (q === '') return undefined;
    const labels = choices.map((c) => fold(c.label));
    let i = labels.indexOf(q);
    if (i < 0) i = labels.findIndex((l) => l.startsWith(q));
    if (i < 0) i = labels.findIndex((l) => l.includes(q));
    return i < 0 ? undefined : choices[i].value;
  }

  /**
   * The value for an `<input type="date">` from the text of a date cell, when it is a date in the
   * table's form (yyyy-MM-dd); '' otherwise (the picker then opens on today).
   * @param {string} text
   */
  function pickerValue(text) {
    const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
    return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : '';
  }

  const api = { visibleRange, scrollToRow, toTsv, pluralOf, itemsInBar, choiceFor, pickerValue };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.TableVirtual = api;
})(typeof self !== 'undefined' ? self : this);
