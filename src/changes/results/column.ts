// Where a new result view opens: in the editor group that already shows result
// views (so sending several documents does not add a group each time), unless that
// group holds the editor the user works in; otherwise beside it. No vscode import.

/** The column for a new result view, or 'beside' (the active editor's neighbour). */
export function resultViewColumn(openResultColumns: readonly (number | undefined)[], activeEditorColumn: number | undefined): number | 'beside' {
  const counts = new Map<number, number>();
  for (const c of openResultColumns) if (c !== undefined && c > 0) counts.set(c, (counts.get(c) ?? 0) + 1);
  let best: number | undefined;
  for (const [c, n] of counts) if (c !== activeEditorColumn && (best === undefined || n > counts.get(best)! || (n === counts.get(best)! && c < best))) best = c;
  return best ?? 'beside';
}

export { sideColumn } from '../../webview/sideColumn';
