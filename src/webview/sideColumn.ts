// Where views beside the document open, so that the window keeps at most two editor
// groups (the document's and one beside it). No vscode import.

/**
 * The group beside the document for previews, Before/After views, results and undo
 * summaries: the one the user is in when it is not the first (it is the side group
 * already), else the first group after the first, else 'beside' (a second group is
 * made). So the window holds at most two groups however many views open.
 */
export function sideColumn(groupColumns: readonly number[], activeColumn: number | undefined): number | 'beside' {
  if (activeColumn !== undefined && activeColumn > 1) return activeColumn;
  const others = groupColumns.filter((c) => c > 1).sort((a, b) => a - b);
  return others[0] ?? 'beside';
}
