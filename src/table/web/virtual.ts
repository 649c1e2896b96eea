// The virtual window of the work item table: which rows are painted for a scroll position.
// Fixed row height; only the rows in sight (plus a few above and below) are in the page, inside
// a spacer as tall as every row. With it, the page's other pure rules: a count's plural form,
// which of the bar's buttons fit in one row, the choice a typed text picks, a date cell's text
// as a date picker's value. No DOM: unit tests run these as the page does.

/** Rows [start, end) to paint for a scroll position, the first row's top and the spacer's height. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  total: number,
  overscan = 8,
): { start: number; end: number; offset: number; height: number } {
  const over = Math.max(0, Math.floor(overscan));
  const h = rowHeight > 0 ? rowHeight : 1;
  const count = Math.max(0, Math.floor(total));
  const top = Math.max(0, Number.isFinite(scrollTop) ? scrollTop : 0);
  const first = Math.min(count, Math.floor(top / h));
  const inSight = Math.ceil(Math.max(0, viewportHeight) / h) + 1;
  const start = Math.max(0, first - over);
  const end = Math.min(count, first + inSight + over);
  return { start, end, offset: start * h, height: count * h };
}

/** The scroll position that brings a row into sight (unchanged when it is in sight). */
export function scrollToRow(row: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const top = row * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return Math.max(0, top + rowHeight - viewportHeight);
  return scrollTop;
}

/** The cells of a rectangle as TSV (the clipboard's form for spreadsheets): a cell with a tab, a new line or a quote is quoted, quotes doubled. */
export function toTsv(rows: readonly (readonly string[])[]): string {
  const cell = (s: string): string => (/[\t\n\r"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return rows.map((r) => r.map(cell).join('\t')).join('\r\n');
}

/**
 * The template of a count in the page's language: `one` where the language's plural rule says
 * "one" for `n` (English: 1), else `other`. Japanese has one form (its `one` is the same text).
 */
export function pluralOf(n: number, forms: { one?: string; other: string }, lang?: string): string {
  if (forms.one === undefined) return forms.other;
  let rule: string = n === 1 ? 'one' : 'other';
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
 * not fit and all after it go to the menu, so the menu's order is always the same. Answers how
 * many of `optional` stay in the bar.
 */
export function itemsInBar(available: number, fixedWidth: number, filterWidth: number, optional: readonly number[], gap: number): number {
  let used = fixedWidth + filterWidth;
  let kept = 0;
  for (const w of optional) {
    if (used + gap + w > available) break;
    used += gap + w;
    kept++;
  }
  return kept;
}

/** Folds a text for matching as the extension does for names (compatibility forms such as full-width letters and half-width katakana, case). */
function fold(s: string): string {
  return s.normalize('NFKC').toLowerCase().trim();
}

/**
 * The choice a text typed on a list or user cell picks: the first whose label is the text, else
 * the first whose label starts with it, else the first that contains it; undefined without one.
 */
export function choiceFor(choices: readonly { value: string; label: string }[], typed: string): string | undefined {
  const q = fold(typed);
  if (q === '') return undefined;
  const labels = choices.map((c) => fold(c.label));
  let i = labels.indexOf(q);
  if (i < 0) i = labels.findIndex((l) => l.startsWith(q));
  if (i < 0) i = labels.findIndex((l) => l.includes(q));
  return i < 0 ? undefined : choices[i]!.value;
}

/** The value for an `<input type="date">` from the text of a date cell, when it is a date in the table's form (yyyy-MM-dd); '' otherwise (the picker then opens on today). */
export function pickerValue(text: string): string {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  return m ? `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}` : '';
}

/** `{0}`, `{1}`… of a template replaced by the arguments. */
export function fmt(s: string, ...args: unknown[]): string {
  return s.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
}
