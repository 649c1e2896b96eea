// The panel of the Before/After view (one a window): its page (previewPage.ts), the table
// posted to the page when it asks, the page of a view brought back after a window reload,
// the send marks the pages show, and its buttons: Refresh and Send run their commands, and
// the Send of a document sent after its preview is refused. What the view shows (the values
// read, kept on disk, restored) is PreviewViews' (previewView.ts), which extends this class.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { JobPlan } from '../bulk';
import type { ConnectionInfo } from '../common/connection';
import { changeTableStrings } from '../common/changeStrings';
import { documentName } from '../common/requestDocument';
import { webviewRoots } from '../common/webviewMedia';
import { labelsOf, type ChangeTable } from '../webview/changeTable';
import { PostedTable } from '../webview/changeTableData';
import type { TableRequest } from '../webview/protocol';
import { readPreviewMessage, type PreviewButtonName, type PreviewToWebview } from './model/protocol';
import { messageSection } from './model/page';
import { previewTitle, renderPreviewPage, sideGroupColumn } from './previewPage';
import type { SentMark } from './previewStore';
import { previewButtons, staleSendMessage } from './sent';

export const PREVIEW_VIEW_TYPE = 'workItemStudio.valuesPreview';

/** What a press of a Before/After view's button did (the internal command returns it). */
export interface PreviewButtonOutcome {
  document?: string;
  /** Set when the view's document was sent after its values were read (ISO time). */
  sentAt?: string;
  jobId?: string;
  buttons: { command: PreviewButtonName; label: string; disabled: boolean }[];
  /** The columns of the table shown: each field's system name and the name its header shows. */
  fields?: { field: string; label: string }[];
  /** The first rows of the table shown: the ID column (an item to be added shows its mark) and the name. */
  rows?: { id: string; name: string }[];
  /** What the press did: nothing (state only), sent the document, read the values again, or refused (already sent). */
  did: 'state' | 'send' | 'refresh' | 'refused-sent' | 'no-view';
  result?: unknown;
}

/** A page of values read in this window (kept: rendered again when its document is sent meanwhile). */
export interface PreviewPanelArgs {
  uri: vscode.Uri;
  name: string;
  info: ConnectionInfo;
  plan: JobPlan;
  section: string;
  extra: string[];
  /** The table whose rows are posted when the page asks. */
  table?: ChangeTable;
}

/** The Before/After view's panel and the pages it shows. */
export abstract class PreviewPanel implements vscode.Disposable {
  protected panel?: vscode.WebviewPanel;
  /** The document the view shows. */
  protected panelDoc?: vscode.Uri;
  /** The panel's last content (re-rendered when its document is sent meanwhile). */
  private panelArgs?: PreviewPanelArgs;
  /** The table the panel's page shows, posted to it when it asks (the page is loaded again each time the view is shown). */
  private posted?: PostedTable;
  /** A view restored after a reload, before its kept values are shown: renders it again (with its send mark). */
  private renderRestored?: () => void;
  /** Documents sent after their preview, by URI: their Before/After view sends no more until Preview Again. */
  protected readonly sentMarks = new Map<string, SentMark>();

  constructor(protected readonly log: vscode.LogOutputChannel) {}

  dispose(): void {
    this.panel?.dispose();
  }

  /** Shows the view of `a.uri` with `a.section`; its rows (when `a.table` is given) are posted when the page asks. */
  protected showPreviewPanel(
    a: PreviewPanelArgs,
    reveal = true,
    /** A table still being read: the line said meanwhile, how many rows it will have, its first batch's first row. */
    reading?: { status: string; total: number; from: number },
  ): void {
    this.panelArgs = a;
    const table = a.table;
    const page = randomBytes(9).toString('base64url');
    this.posted = !table ? undefined : this.posted?.table === table ? this.posted.forPage(page) : new PostedTable(page, table, changeTableStrings(), {}, reading?.total);
    if (reading) this.posted!.more(reading.from);
    this.renderRestored = undefined;
    // In the group beside the document (where the plan's preview just opened), as a tab over it: never a third group.
    const panel =
      this.panel ??
      this.adoptPanel(
        vscode.window.createWebviewPanel(
          PREVIEW_VIEW_TYPE,
          previewTitle(a.name),
          { viewColumn: sideGroupColumn(), preserveFocus: true },
          { enableScripts: true, localResourceRoots: webviewRoots(), enableFindWidget: true },
        ),
      );
    this.panelDoc = a.uri;
    renderPreviewPage(panel, {
      uri: a.uri,
      name: a.name,
      read: { info: a.info, plan: a.plan },
      section: a.section,
      extra: a.extra,
      status: reading?.status,
      sent: this.sentMarks.get(a.uri.toString()),
      page,
    });
    if (reveal) panel.reveal(panel.viewColumn, true);
    // Every row's bytes made while the page loads (in the webview's own process), ready when it asks.
    const posted = this.posted;
    if (posted && !posted.byBatch) setTimeout(() => posted.prepare(), 0);
  }

  /** The table posted to the page shown for `uri`, when it is `table`. */
  private postedShown(table: ChangeTable, uri: vscode.Uri): PostedTable | undefined {
    const posted = this.posted;
    return posted?.table === table && this.panel && this.panelDoc?.toString() === uri.toString() ? posted : undefined;
  }

  /** Whether the page shown now gets the rows of `table`. */
  protected posts(table: ChangeTable): boolean {
    return this.posted?.table === table;
  }

  /** The rows of a table being read, from `from`, posted to the page that shows it for `uri`; false when no page does. */
  protected postRows(table: ChangeTable, uri: vscode.Uri, from: number): boolean {
    const posted = this.postedShown(table, uri);
    if (!posted) return false;
    this.postToPage(this.panel!, posted.more(from));
    return true;
  }

  /** The names of `table`'s people posted to its page (read after the first paint: the page paints the rows in sight again). */
  protected postPeople(table: ChangeTable): void {
    const posted = this.posted;
    if (posted?.table === table && this.panel) this.postToPage(this.panel, posted.people());
  }

  /**
   * A preview's finished table: to a page that shows it since its first batch, the rows left
   * (after the `made` first, when the reader gave no batches), the counts and lines, the names
   * known; else the whole page at once.
   */
  protected showTable(a: PreviewPanelArgs & { table: ChangeTable }, made: number, reveal: boolean): void {
    const posted = this.postedShown(a.table, a.uri);
    if (posted?.byBatch) {
      const table = a.table;
      this.panelArgs = a;
      const panel = this.panel!;
      if (table.rows.length > made) this.postToPage(panel, posted.more(made));
      this.postToPage(panel, posted.summary({ counts: table.counts, lines: table.lines, status: a.extra[0]! }));
      if (Object.keys(table.people ?? {}).length > 0) this.postToPage(panel, posted.people());
      return;
    }
    this.showPreviewPanel(a, reveal);
  }

  private adoptPanel(panel: vscode.WebviewPanel): vscode.WebviewPanel {
    this.panel = panel;
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    panel.webview.onDidReceiveMessage((m: unknown) => void this.onPreviewMessage(m));
    return panel;
  }

  /** Takes a view brought back after a window reload for `uri`: its page says its values were read before the reload. */
  protected adoptRestored(panel: vscode.WebviewPanel, uri: vscode.Uri): void {
    const name = documentName(uri);
    panel.webview.options = { enableScripts: true, localResourceRoots: webviewRoots() };
    this.adoptPanel(panel);
    this.panelDoc = uri;
    this.panelArgs = undefined;
    this.posted = undefined;
    const render = (): void =>
      renderPreviewPage(panel, {
        uri,
        name,
        section: messageSection(changeTableStrings().heading.preview, vscode.l10n.t('The window was reloaded since these values were read. Refresh reads them again.')),
        sent: this.sentMarks.get(uri.toString()),
      });
    render();
    this.renderRestored = render;
  }

  /** The send mark kept on disk for the restored view `panel`: its page shows it (unless a preview replaced that page). */
  protected restoredSent(panel: vscode.WebviewPanel, uri: vscode.Uri, sent: SentMark): void {
    if (this.panel !== panel) return;
    if (!this.sentMarks.has(uri.toString())) this.sentMarks.set(uri.toString(), sent);
    if (!this.panelArgs) this.renderRestored?.();
  }

  /** The view, when it shows the document `key`, rendered again (its send mark changed). */
  protected renderAgain(key: string): void {
    const a = this.panelArgs;
    if (this.panel && this.panelDoc?.toString() === key) {
      if (a && a.uri.toString() === key) this.showPreviewPanel(a, false);
      else this.renderRestored?.();
    }
  }

  private async onPreviewMessage(raw: unknown): Promise<PreviewButtonOutcome> {
    const message = readPreviewMessage(raw);
    const uri = this.panelDoc;
    if (!uri || !this.panel) return { did: 'no-view', buttons: [] };
    if (message?.type === 'ready') {
      await this.postTable(message);
      return { document: uri.toString(), buttons: [], did: 'state' };
    }
    const command = message?.name;
    const key = uri.toString();
    const sent = this.sentMarks.get(key);
    const state = (did: PreviewButtonOutcome['did'], result?: unknown): PreviewButtonOutcome => {
      const now = this.panelDoc ? this.sentMarks.get(this.panelDoc.toString()) : undefined;
      const shown = this.posted?.table;
      return {
        document: this.panelDoc?.toString(),
        ...(now ? { sentAt: now.at.toISOString(), ...(now.jobId ? { jobId: now.jobId } : {}) } : {}),
        buttons: previewButtons(now).map((b) => ({ command: b.command, label: b.label, disabled: b.disabled === true })),
        ...(shown ? { fields: labelsOf(shown, {}).map((label, i) => ({ field: shown.fields[i]!, label })), rows: shown.rows.slice(0, 100).map((r) => ({ id: r.id, name: r.name })) } : {}),
        did,
        ...(result !== undefined ? { result } : {}),
      };
    };
    if (command === 'refresh') return state('refresh', await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri));
    if (command === 'send') {
      if (sent) {
        // A view of values read before a send of its document: it sends nothing more (its Send is disabled; a click that still arrives lands here).
        this.log.info(`Before/After of ${documentName(uri)}: Send refused, the document was sent at ${sent.at.toISOString()}${sent.jobId ? ` (job ${sent.jobId})` : ''}.`);
        const again = vscode.l10n.t('Preview Again');
        void vscode.window.showInformationMessage(staleSendMessage(documentName(uri), sent), again).then((pick) => {
          if (pick === again) void vscode.commands.executeCommand('workItemStudio.previewUpdate', uri);
        });
        return state('refused-sent');
      }
      return state('send', await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri));
    }
    return state('state');
  }

  /**
   * A page asking for its table: the settings and the rows in sight first (painted at once), then
   * every row (their bytes made once per table). Nothing for a page that is not the one shown now.
   */
  private async postTable(m: TableRequest): Promise<void> {
    const posted = this.posted;
    const panel = this.panel;
    if (!posted || !panel || m.page !== posted.page) return;
    this.postToPage(panel, posted.head());
    // The first rows leave before every row is serialized.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (this.posted !== posted || this.panel !== panel) return;
    for (const message of posted.rest()) this.postToPage(panel, message);
    // Names known by now (read while the rows were on their way).
    if (posted.byBatch && Object.keys(posted.table.people ?? {}).length > 0) this.postToPage(panel, posted.people());
  }

  /** Presses a button of the open Before/After view as a click does ('send', 'refresh'), or only reports its state. */
  pressButton(name: unknown): Promise<PreviewButtonOutcome> {
    return this.onPreviewMessage({ type: 'command', name });
  }

  /** A message to the page shown (typed: what the page reads). */
  private postToPage(panel: vscode.WebviewPanel, message: PreviewToWebview): void {
    void panel.webview.postMessage(message);
  }
}
