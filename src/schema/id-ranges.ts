// Numeric ranges written as one work item ID (`131-140`): what they stand for.
// The documents' check warns about them and offers to expand them; New Work Item
// Update asks before expanding them. No vscode import.

/** A numeric range written as one ID (`131-140`) and the IDs it stands for. */
export interface IdRange {
  text: string;
  ids: string[];
}

/** A range longer than this is left as written (it is more likely a typo than 10,000 items). */
export const MAX_RANGE_IDS = 10_000;

/**
 * The token as a numeric range (`131-140`, `0131-0140` keeps its width), or undefined
 * when it is not one: the start must be below the end and the range at most MAX_RANGE_IDS long.
 */
export function idRange(token: string): IdRange | undefined {
  const m = /^(\d{1,15})-(\d{1,15})$/.exec(token.trim());
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = Number(m[2]);
  if (!(from < to) || to - from + 1 > MAX_RANGE_IDS) return undefined;
  const width = m[1]!.startsWith('0') && m[1]!.length === m[2]!.length ? m[1]!.length : 0;
  const ids: string[] = [];
  for (let n = from; n <= to; n++) ids.push(String(n).padStart(width, '0'));
  return { text: token.trim(), ids };
}

