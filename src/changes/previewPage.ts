// The page of a Before/After view, one path for every view: a preview read in this window
// (its service, items and requests, how it was read or the table still being read) and a
// view brought back after a window reload (its document only, until its kept values are
// shown); both with the document's send mark when it was sent since. Also where a new view
// opens (the group beside the document).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { core } from '../core/load';
import type { JobPlan } from '../bulk';
import type { ConnectionInfo } from '../common/connection';
import { itemsText, requestsText } from '../common/wording';
import { assetUri } from '../common/webviewMedia';
import { sideColumn } from '../webview/sideColumn';
import { renderChangesPage } from './model/page';
import type { SentMark } from './previewStore';
import { previewButtons, sentLine } from './sent';

/** What differs between the pages of the Before/After view. */
export interface PreviewPageContent {
  uri: vscode.Uri;
  name: string;
  /** Values read in this window: the service and the plan, said above and below the document's line (none: a view restored after a reload). */
  read?: { info: ConnectionInfo; plan: JobPlan };
  /** The table section, or a message in its place. */
  section: string;
  /** The lines after those while the document is not sent since (how and when the values were read). */
  extra?: readonly string[];
  /** The line said while the values are still being read (not once the document is sent). */
  status?: string;
  /** The document's send mark: the page says so and sends no more. */
  sent?: SentMark;
  /** The page's mark, for its table's messages (a page with a table). */
  page?: string;
}

/** The view's title for the document `name`. */
export function previewTitle(name: string): string {
  return vscode.l10n.t('Before/After: {0}', name);
}

/** The items a change names and the requests it makes, and the items it adds when it adds some. */
function planLine(plan: JobPlan): string {
  const line = vscode.l10n.t('{0} in {1}', itemsText(plan.ids.length), requestsText(plan.requests.length));
  const added = core().newItemRows(plan).length;
  if (added === 0) return line;
  const adds = added === 1 ? vscode.l10n.t('1 new item to add') : vscode.l10n.t('{0} new items to add', added);
  return plan.ids.length === 0 ? `${adds} (${requestsText(plan.requests.length)})` : `${line}; ${adds}`;
}

/** Renders the page of `panel` (and its title). */
export function renderPreviewPage(panel: vscode.WebviewPanel, c: PreviewPageContent): void {
  const title = previewTitle(c.name);
  const sent = c.sent;
  const read = c.read;
  panel.title = title;
  panel.webview.html = renderChangesPage({
    lang: vscode.env.language.startsWith('ja') ? 'ja' : 'en',
    title,
    lines: [
      ...(read ? [vscode.l10n.t('Service: {0}', read.info.label)] : []),
      vscode.l10n.t('Document: {0}', c.name),
      ...(read ? [planLine(read.plan)] : []),
      ...(sent ? [sentLine(sent)] : (c.extra ?? [])),
    ],
    ...(c.status !== undefined && !sent ? { status: c.status } : {}),
    section: c.section,
    buttons: previewButtons(sent),
    nonce: randomBytes(16).toString('base64'),
    cspSource: panel.webview.cspSource,
    assets: assetUri(panel.webview),
    documentUri: c.uri.toString(),
    sentAt: sent?.at.toISOString(),
    page: c.page,
  });
}

/** The group beside the document (the one the user is in when it is not the first; else the second; else a new one). */
export function sideGroupColumn(): vscode.ViewColumn {
  const column = sideColumn(
    vscode.window.tabGroups.all.map((g) => g.viewColumn),
    vscode.window.tabGroups.activeTabGroup.viewColumn,
  );
  return column === 'beside' ? vscode.ViewColumn.Beside : column;
}
