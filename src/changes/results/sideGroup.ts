// The one editor group beside the document where previews, Before/After views,
// results and undo summaries open (see sideColumn in ./column.ts).
import * as vscode from 'vscode';
import { sideColumn } from './column';

/** The view column for a view shown beside the document, reusing the side group when there is one. */
export function sideViewColumn(): vscode.ViewColumn {
  const active = vscode.window.tabGroups.activeTabGroup.viewColumn;
  const column = sideColumn(
    vscode.window.tabGroups.all.map((g) => g.viewColumn),
    active,
  );
  return column === 'beside' ? vscode.ViewColumn.Beside : column;
}
