// Grouping of a long list into nested index ranges (like the debugger's `[0..99]`),
// so that no tree node has more than a few hundred children. Ranges are views over
// the one array (start/end indexes): the data is never copied. No vscode import.

/** A half-open index range [start, end) over a list. */
export interface IndexRange {
  readonly start: number;
  readonly end: number;
}

export type RangeChild = { kind: 'range'; start: number; end: number } | { kind: 'item'; index: number };

export interface RangeOptions {
  /** A span up to this size lists its items directly (default 200). */
  maxFlat?: number;
  /** Items in the smallest group; each level above multiplies by this (default 100). */
  chunk?: number;
}

/** Size of each child range of a span of `count` items (0 when the span lists its items). */
export function groupSize(count: number, options: RangeOptions = {}): number {
  const maxFlat = options.maxFlat ?? 200;
  const chunk = options.chunk ?? 100;
  if (count <= maxFlat) return 0;
  let size = chunk;
  while (Math.ceil(count / size) > chunk) size *= chunk;
  return size;
}

/** The children of the span [start, end): items when small, otherwise ranges. */
export function rangeChildren(start: number, end: number, options: RangeOptions = {}): RangeChild[] {
  const count = Math.max(0, end - start);
  const size = groupSize(count, options);
  const out: RangeChild[] = [];
  if (size === 0) {
    for (let i = start; i < end; i++) out.push({ kind: 'item', index: i });
    return out;
  }
  for (let s = start; s < end; s += size) out.push({ kind: 'range', start: s, end: Math.min(end, s + size) });
  return out;
}

/**
 * The chain of ranges from the top of a list of `total` items down to the range
 * that lists `index` directly (empty when the top lists it). Used by getParent.
 */
export function rangePath(total: number, index: number, options: RangeOptions = {}): IndexRange[] {
  const path: IndexRange[] = [];
  let start = 0;
  let end = total;
  for (;;) {
    const size = groupSize(end - start, options);
    if (size === 0) return path;
    const s = start + Math.floor((index - start) / size) * size;
    start = s;
    end = Math.min(end, s + size);
    path.push({ start, end });
  }
}

/** `[0..99]`: inclusive bounds, as the debugger shows them. */
export function rangeLabel(r: IndexRange): string {
  return `[${r.start}..${r.end - 1}]`;
}

/** What sorting users needs of them (operation 3's users fit). */
export interface NamedEntry {
  readonly name: string;
  readonly loginName?: string | null;
  readonly id: string;
}

/**
 * Sorts users in place by name (then login name, then ID) with the UI language's
 * collation, so that ranges read alphabetically (`Abe – Ito`, `Kato – Mori`).
 * In place: the tree keeps one array per organization, never a copy.
 *
 * Sort keys are computed first: the distinct names are collated once and numbered
 * (names the collation holds equal get the same number), then the users are ordered
 * by those numbers, so the collator is not called twice per comparison of a
 * 300,000-user sort. Only users whose names are equal are then ordered by login name
 * (collated) and ID, each such run on its own.
 */
export function sortByName<T extends NamedEntry>(entries: T[], locale?: string): T[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const n = entries.length;
  const nameRank = ranks(entries.map((e) => e.name), collator);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => nameRank[a]! - nameRank[b]!);
  const byLoginThenId = (a: number, b: number): number => {
    const x = entries[a]!;
    const y = entries[b]!;
    return collator.compare(x.loginName ?? '', y.loginName ?? '') || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  };
  for (let start = 0; start < n; ) {
    const rank = nameRank[order[start]!]!;
    let end = start + 1;
    while (end < n && nameRank[order[end]!] === rank) end++;
    if (end - start > 1) order.subarray(start, end).sort(byLoginThenId);
    start = end;
  }
  const sorted = Array.from(order, (i) => entries[i]!);
  for (let i = 0; i < n; i++) entries[i] = sorted[i]!;
  return entries;
}

/** The collation rank of each value (equal under the collation: equal rank). */
function ranks(values: readonly string[], collator: Intl.Collator): Int32Array {
  const distinct = [...new Set(values)].sort(collator.compare);
  const rankOf = new Map<string, number>();
  let rank = 0;
  distinct.forEach((v, i) => {
    if (i > 0 && collator.compare(distinct[i - 1]!, v) !== 0) rank++;
    rankOf.set(v, rank);
  });
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = rankOf.get(values[i]!)!;
  return out;
}
