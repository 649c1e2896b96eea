// The Before/After view of a request document: Preview reads the current values of the fields
// an update touches and shows current → expected; the view is brought back after a window
// reload (with the values kept on disk), its buttons send or read again, and a document sent
// after its preview is marked so its view sends no more. The send side (values before and
// after a job, undo) extends this class in index.ts.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReadValues, ReadValuesOptions } from '../bulk/readValues';
import { SharedPacing } from '../api/pacer';
import { planJob, type JobPlan } from '../bulk';
import { readSettings } from '../common/config';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import { itemsText, requestsText } from '../common/wording';
import type { JobSourceInfo, JobsForValues, MarkdownPreviews } from '../common/jobHooks';
import { isCancellation } from '../common/commands';
import { renderChangesPage, messageSection } from './model/page';
import { changeTableSection, PreviewTableBuilder, userIdsInTable, type ChangeTable } from '../webview/changeTable';
import { isTableRequest, PostedTable, type TableRequest } from '../webview/changeTableData';
import type { UserNames } from '../common/model/users';
import { sideColumn } from '../webview/sideColumn';
import { changeTableStrings } from '../common/changeStrings';
import { analyzeText, documentName } from '../common/requestDocument';
import { PreviewStore, sha256, type SentMark } from './previewStore';
import { askRepeat, previewButtons, sentLine, staleSendMessage } from './sent';
import { readWithProgress } from './readProgress';
import { PreviewBatches } from './previewBatches';
import { readRequestCount } from './reader';
import { fieldsToRead } from '../bulk/effects';
import { mediaRoot, mediaUri } from '../common/webviewMedia';

/** The group beside the document (the one the user is in when it is not the first; else the second; else a new one). */
function sideGroupColumn(): vscode.ViewColumn {
  const column = sideColumn(
    vscode.window.tabGroups.all.map((g) => g.viewColumn),
    vscode.window.tabGroups.activeTabGroup.viewColumn,
  );
  return column === 'beside' ? vscode.ViewColumn.Beside : column;
}

export const PREVIEW_VIEW_TYPE = 'workItemStudio.valuesPreview';

export interface PreviewTaken {
  text: string;
  plan: JobPlan;
  values: ReadValues;
  info: ConnectionInfo;
  docUri: vscode.Uri;
}

/**
 * The document at `uri`: open already, opened from its file, or (an untitled one, which
 * the window brings back itself after a reload) once it is open, waiting a few seconds.
 */
async function openedDocument(uri: vscode.Uri, waitMs = 5_000): Promise<vscode.TextDocument | undefined> {
  const key = uri.toString();
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  if (open) return open;
  if (uri.scheme !== 'untitled') return vscode.workspace.openTextDocument(uri).then((d) => d, () => undefined);
  return new Promise((resolve) => {
    const sub = vscode.workspace.onDidOpenTextDocument((d) => {
      if (d.uri.toString() !== key) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(d);
    });
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(undefined);
    }, waitMs);
  });
}

/** What a press of a Before/After view's button did (the internal command returns it). */
export interface PreviewButtonOutcome {
  document?: string;
  /** Set when the view's document was sent after its values were read (ISO time). */
  sentAt?: string;
  jobId?: string;
  buttons: { command: string; label: string; disabled: boolean }[];
  /** What the press did: nothing (state only), sent the document, read the values again, or refused (already sent). */
  did: 'state' | 'send' | 'refresh' | 'refused-sent' | 'no-view';
  result?: unknown;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The Before/After view and the previews behind it (the state of one window). */
export class PreviewViews implements vscode.Disposable {

  private readonly previews = new Map<string, PreviewTaken>();
  private panel?: vscode.WebviewPanel;
  private panelDoc?: vscode.Uri;
  /** The panel's last content (re-rendered when its document is sent meanwhile). */
  private panelArgs?: { uri: vscode.Uri; name: string; info: ConnectionInfo; plan: JobPlan; section: string; extra: string[]; table?: ChangeTable };
  /** The table the panel's page shows, posted to it when it asks (the page is loaded again each time the view is shown). */
  private posted?: PostedTable;
  /** A view restored after a reload, before its kept values are shown: renders it again (with its send mark). */
  private renderRestored?: () => void;
  /** Documents sent after their preview, by URI: their Before/After view sends no more until Preview Again. */
  private readonly sentMarks = new Map<string, SentMark>();
  lastPreview: ChangeTable | undefined;
  /** The previews' values on disk, so that Send still sees drift after a window reload (made on first use: activation touches no storage). */
  private storeMade?: PreviewStore;
  protected get store(): PreviewStore {
    return (this.storeMade ??= new PreviewStore(path.join(path.dirname(this.jobs.jobsDir), 'previews')));
  }

  constructor(
    protected readonly log: vscode.LogOutputChannel,
    protected readonly connections: ConnectionManager,
    protected readonly jobs: JobsForValues,
    protected readonly documents: MarkdownPreviews,
    /** Names for the user IDs the tables show (assignments, leaders). */
    protected readonly people?: UserNames,
  ) {}

  /** The names the user directory knows for the table's user IDs; reads the others, then calls `learned`. */
  protected namesFor(table: ChangeTable, learned?: () => void): Record<string, string> {
    const names: Record<string, string> = {};
    if (!this.people) return names;
    const unknown: string[] = [];
    for (const id of userIdsInTable(table)) {
      const u = this.people.lookup(id);
      if (u) names[id] = u.name;
      else unknown.push(id);
    }
    if (unknown.length > 0 && learned) {
      void this.people.resolve(unknown).then(
        (some) => {
          if (some) learned();
        },
        () => undefined,
      );
    }
    return names;
  }

  dispose(): void {
    this.panel?.dispose();
    this.previews.clear();
  }

  protected enabled(): boolean {
    return readSettings().bulk.readValues;
  }

  /** Reads with a cancellable progress notification (none for a quick read): readWithProgress. */
  protected read(ids: readonly string[], plan: JobPlan, info: ConnectionInfo, title: (requests: string) => string, onItems?: ReadValuesOptions['onItems']): Promise<ReadValues> {
    return readWithProgress(this.connections, this.log, ids, plan, info, title, onItems);
  }

  // ---------------------------------------------------------------- preview

  async previewValues(doc: vscode.TextDocument, plan: JobPlan, info: ConnectionInfo): Promise<ChangeTable | undefined> {
    if (!this.enabled()) return undefined;
    const name = documentName(doc.uri);
    let values: ReadValues;
    // The table is built as the answers come (while the next read is on its way), and the view shows
    // it from the first batch on, its rows appended batch by batch; the counts and lines follow the last read.
    const builder = new PreviewTableBuilder(plan.ids, plan.update, changeTableStrings());
    const reads = readRequestCount(info.baseUrl, plan.ids, fieldsToRead(plan.update));
    const reading = vscode.l10n.t('Preview: reading the current values of {0} ({1})', itemsText(plan.ids.length), reads === undefined ? '?' : requestsText(reads));
    const batches = new PreviewBatches(builder, (from) => {
      const posted = this.posted;
      if (posted?.table === builder.table && this.panel && this.panelDoc?.toString() === doc.uri.toString()) {
        void this.panel.webview.postMessage(posted.more(from));
        return;
      }
      this.showPreviewPanel(doc.uri, name, info, plan, changeTableSection(builder.table, changeTableStrings(), 'posted', true), [], true, builder.table, {
        status: reading,
        total: plan.ids.length,
        from,
      });
    });
    try {
      // One pacing for every read of the preview (the work items, the levels of their parents, their sub-items).
      values = await new SharedPacing().run(() =>
        this.read(plan.ids, plan, info, (requests) => vscode.l10n.t('Preview: reading the current values of {0} ({1})', itemsText(plan.ids.length), requests), batches.onItems),
      );
    } catch (e) {
      batches.stop();
      if (isCancellation(e)) {
        this.showPreviewPanel(doc.uri, name, info, plan, messageSection(changeTableStrings().heading.preview, vscode.l10n.t('Reading the current values was cancelled.')), []);
        return undefined;
      }
      this.log.warn(`Preview of ${name}: the current values were not read: ${errorText(e)}`);
      this.showPreviewPanel(
        doc.uri,
        name,
        info,
        plan,
        messageSection(changeTableStrings().heading.preview, vscode.l10n.t('The current values could not be read: {0}', errorText(e))),
        [],
      );
      return undefined;
    }
    // Shown since an earlier batch: the rows of the batches left now, then the counts and lines. Not shown yet
    // (a read of one batch, say): the whole page at once, its counts in it.
    if (this.posted?.table === builder.table) batches.flush();
    else batches.stop();
    this.keepPreview({ text: doc.getText(), plan, values, info, docUri: doc.uri });
    return this.showPreview(doc.uri, name, info, plan, values, { builder });
  }

  protected showPreview(
    uri: vscode.Uri,
    name: string,
    info: ConnectionInfo,
    plan: JobPlan,
    values: ReadValues,
    o: { drifted?: number; keptAt?: Date; reveal?: boolean; builder?: PreviewTableBuilder } = {},
  ): ChangeTable {
    const drifted = o.drifted;
    const s = changeTableStrings();
    const lines: ChangeTable['lines'] = [];
    if (values.missing.length === plan.ids.length && plan.ids.length > 0) {
      lines.push({ text: vscode.l10n.t('None of the items came back: the service may not offer reading work items, or they do not exist.'), level: 'error' });
    } else if (values.missing.length > 0) {
      lines.push({ text: vscode.l10n.t('{0} not found on the service: {1}', itemsText(values.missing.length), values.missing.slice(0, 20).join(', ')), level: 'error' });
    }
    if (drifted) lines.push({ text: vscode.l10n.t('{0} changed since the previous preview; these are the values now.', itemsText(drifted)), level: 'warning' });
    const builder = o.builder ?? new PreviewTableBuilder(plan.ids, plan.update, s);
    const made = builder.made;
    const table = builder.finish(values.items, lines);
    this.lastPreview = table;
    table.people = this.namesFor(table, () => {
      // Names read after the first paint: sent to the page, which paints the rows in sight again (only while the table is shown).
      if (this.lastPreview !== table || this.panelDoc?.toString() !== uri.toString()) return;
      table.people = this.namesFor(table);
      const posted = this.posted;
      if (posted?.table === table) void this.panel?.webview.postMessage(posted.people());
    });
    const extra = [
      o.keptAt
        ? vscode.l10n.t('Read {0} at {1}, before the window was reloaded. Nothing has been sent.', itemsText(values.items.size), o.keptAt.toLocaleString(vscode.env.language))
        : vscode.l10n.t('Read {0} with {1} at {2}. Nothing has been sent.', itemsText(values.items.size), requestsText(values.requests), new Date().toLocaleTimeString(vscode.env.language)),
    ];
    const section = changeTableSection(table, s, 'posted');
    const posted = this.posted;
    if (posted?.table === table && posted.byBatch && this.panel && this.panelDoc?.toString() === uri.toString()) {
      // Shown since the first batch: the rows left (when the reader gave no batches), the counts and lines, the names known.
      this.panelArgs = { uri, name, info, plan, section, extra, table };
      const panel = this.panel;
      if (table.rows.length > made) void panel.webview.postMessage(posted.more(made));
      void panel.webview.postMessage(posted.summary({ counts: table.counts, lines: table.lines, status: extra[0]! }));
      if (Object.keys(table.people ?? {}).length > 0) void panel.webview.postMessage(posted.people());
      return table;
    }
    this.showPreviewPanel(uri, name, info, plan, section, extra, o.reveal ?? true, table);
    return table;
  }

  /** Shows the view of `uri` with `section`; its rows (when `table` is given) are posted when the page asks. */
  private showPreviewPanel(
    uri: vscode.Uri,
    name: string,
    info: ConnectionInfo,
    plan: JobPlan,
    section: string,
    extra: string[],
    reveal = true,
    table?: ChangeTable,
    /** A table still being read: the line said meanwhile, how many rows it will have, its first batch's first row. */
    reading?: { status: string; total: number; from: number },
  ): void {
    this.panelArgs = { uri, name, info, plan, section, extra, table };
    const page = randomBytes(9).toString('base64url');
    this.posted = !table ? undefined : this.posted?.table === table ? this.posted.forPage(page) : new PostedTable(page, table, changeTableStrings(), {}, reading?.total);
    if (reading) this.posted!.more(reading.from);
    this.renderRestored = undefined;
    const sent = this.sentMarks.get(uri.toString());
    const title = vscode.l10n.t('Before/After: {0}', name);
    // In the group beside the document (where the plan's preview just opened), as a tab over it: never a third group.
    const column = sideGroupColumn();
    const panel =
      this.panel ??
      this.adoptPanel(
        vscode.window.createWebviewPanel(
          PREVIEW_VIEW_TYPE,
          title,
          { viewColumn: column, preserveFocus: true },
          { enableScripts: true, localResourceRoots: [mediaRoot()], enableFindWidget: true },
        ),
      );
    this.panelDoc = uri;
    panel.title = title;
    panel.webview.html = renderChangesPage({
      title,
      lines: [
        vscode.l10n.t('Service: {0}', info.label),
        vscode.l10n.t('Document: {0}', name),
        vscode.l10n.t('{0} in {1}', itemsText(plan.ids.length), requestsText(plan.requests.length)),
        ...(sent ? [sentLine(sent)] : extra),
      ],
      ...(reading && !sent ? { status: reading.status } : {}),
      section,
      buttons: previewButtons(sent),
      nonce: randomBytes(16).toString('base64'),
      cspSource: panel.webview.cspSource,
      media: mediaUri(panel.webview),
      documentUri: uri.toString(),
      sentAt: sent?.at.toISOString(),
      page,
    });
    if (reveal) panel.reveal(panel.viewColumn, true);
    // Every row's bytes made while the page loads (in the webview's own process), ready when it asks.
    const posted = this.posted;
    if (posted && !posted.byBatch) setTimeout(() => posted.prepare(), 0);
  }

  private adoptPanel(panel: vscode.WebviewPanel): vscode.WebviewPanel {
    this.panel = panel;
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    panel.webview.onDidReceiveMessage((m: unknown) => void this.onPreviewMessage(m));
    return panel;
  }

  /**
   * A Before/After view that VS Code brings back after a window reload: its values were
   * read before the reload, so it says so and offers Refresh (which reads them again) and
   * Send, for the document it showed. Nothing is read until asked.
   */
  restorePreview(panel: vscode.WebviewPanel, state: unknown): void {
    const doc = typeof state === 'object' && state !== null ? (state as { document?: unknown }).document : undefined;
    if (typeof doc !== 'string' || doc === '' || this.panel) {
      panel.dispose();
      return;
    }
    const uri = vscode.Uri.parse(doc);
    const name = documentName(uri);
    const title = vscode.l10n.t('Before/After: {0}', name);
    panel.webview.options = { enableScripts: true, localResourceRoots: [mediaRoot()] };
    this.adoptPanel(panel);
    this.panelDoc = uri;
    this.panelArgs = undefined;
    this.posted = undefined;
    panel.title = title;
    const render = (sent?: SentMark): void => {
      panel.webview.html = renderChangesPage({
        title,
        lines: [vscode.l10n.t('Document: {0}', name), ...(sent ? [sentLine(sent)] : [])],
        section: messageSection(changeTableStrings().heading.preview, vscode.l10n.t('The window was reloaded since these values were read. Refresh reads them again.')),
        buttons: previewButtons(sent),
        nonce: randomBytes(16).toString('base64'),
        cspSource: panel.webview.cspSource,
        media: mediaUri(panel.webview),
        documentUri: uri.toString(),
        sentAt: sent?.at.toISOString(),
      });
    };
    render(this.sentMarks.get(uri.toString()));
    this.renderRestored = () => render(this.sentMarks.get(uri.toString()));
    // A view whose document was sent before the reload stays sent (the mark is kept with the preview on disk).
    void this.store
      .sentOf(uri.toString())
      .then((sent) => {
        if (!sent || this.panel !== panel) return;
        if (!this.sentMarks.has(uri.toString())) this.sentMarks.set(uri.toString(), sent);
        if (!this.panelArgs) render(this.sentMarks.get(uri.toString()));
      })
      .catch(() => undefined);
    this.showKept(uri, panel).catch((e: unknown) => this.log.warn(`Before/After of ${name}: the values kept before the reload were not shown: ${errorText(e)}`));
  }

  /**
   * In a restored Before/After view: the values its document's preview read before the
   * reload (kept on disk), when the document's text and the service are still the same.
   * No request is made.
   */
  private async showKept(uri: vscode.Uri, panel: vscode.WebviewPanel): Promise<void> {
    const info = this.connections.current;
    if (!info) return;
    const doc = await openedDocument(uri);
    if (!doc || this.panel !== panel) return;
    const text = doc.getText();
    const kept = await this.store.load(uri.toString(), text, info.baseUrl);
    const d = kept ? analyzeText(text).validation?.document : undefined;
    if (!kept || !d || this.panel !== panel) return;
    if (kept.sent && !this.sentMarks.has(uri.toString())) this.sentMarks.set(uri.toString(), kept.sent);
    const plan = planJob({ workItemIds: d.workItemIds, update: d.update, baseUrl: info.baseUrl, maxUrlLength: readSettings().bulk.maxUrlLength });
    const values: ReadValues = { fields: kept.fields, items: kept.items, missing: kept.missing, requests: 0 };
    this.previews.set(uri.toString(), { text, plan, values, info, docUri: uri });
    this.showPreview(uri, documentName(uri), info, plan, values, { keptAt: kept.takenAt, reveal: false });
  }

  private async onPreviewMessage(message: unknown): Promise<PreviewButtonOutcome> {
    const command = typeof message === 'object' && message !== null ? (message as { command?: unknown }).command : undefined;
    const uri = this.panelDoc;
    if (!uri || !this.panel) return { did: 'no-view', buttons: [] };
    if (isTableRequest(message)) {
      await this.postTable(message);
      return { document: uri.toString(), buttons: [], did: 'state' };
    }
    const key = uri.toString();
    const sent = this.sentMarks.get(key);
    const state = (did: PreviewButtonOutcome['did'], result?: unknown): PreviewButtonOutcome => {
      const now = this.panelDoc ? this.sentMarks.get(this.panelDoc.toString()) : undefined;
      return {
        document: this.panelDoc?.toString(),
        ...(now ? { sentAt: now.at.toISOString(), ...(now.jobId ? { jobId: now.jobId } : {}) } : {}),
        buttons: previewButtons(now).map((b) => ({ command: b.command, label: b.label, disabled: b.disabled === true })),
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
    void panel.webview.postMessage(posted.head());
    // The first rows leave before every row is serialized.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (this.posted !== posted || this.panel !== panel) return;
    for (const message of posted.rest()) void panel.webview.postMessage(message);
    // Names known by now (read while the rows were on their way).
    if (posted.byBatch && Object.keys(posted.table.people ?? {}).length > 0) void panel.webview.postMessage(posted.people());
  }

  /** Presses a button of the open Before/After view as a click does ('send', 'refresh'), or only reports its state. */
  pressButton(command: unknown): Promise<PreviewButtonOutcome> {
    return this.onPreviewMessage({ command });
  }

  /** The send mark of a previewed document (in memory, else kept on disk). */
  protected async sentOf(uri: vscode.Uri): Promise<SentMark | undefined> {
    return this.sentMarks.get(uri.toString()) ?? (await this.store.sentOf(uri.toString()));
  }

  /**
   * Before a Send of a document: when this same text was sent after its preview (the preview
   * and its view hold the values before that send), asks first, Preview Again being the
   * default button. True: send. A document sent without a preview is not asked about.
   */
  async confirmRepeat(doc: vscode.TextDocument, info: ConnectionInfo): Promise<boolean> {
    if (!this.enabled()) return true;
    const sent = await this.sentOf(doc.uri);
    if (!sent || sent.textHash !== sha256(doc.getText())) return true;
    const name = documentName(doc.uri);
    this.log.warn(`Send of ${name}: this text was sent after its preview at ${sent.at.toISOString()}${sent.jobId ? ` (job ${sent.jobId})` : ''}; asking before sending it again.`);
    const answer = await askRepeat(name, info.label, sent);
    if (answer === 'preview') void vscode.commands.executeCommand('workItemStudio.previewUpdate', doc.uri);
    return answer === 'send';
  }

  /**
   * Marks a previewed document as sent: its Before/After view shows "Sent at …", sends no more
   * and offers Preview Again (also after a reload). A document without a preview is not marked.
   */
  protected markSent(source: JobSourceInfo, jobId?: string): void {
    const key = source.uri.toString();
    const mark: SentMark = { at: new Date(), textHash: sha256(source.text), ...(jobId ? { jobId } : {}) };
    const previewed = this.previews.has(key) || this.panelDoc?.toString() === key;
    if (previewed) this.sentMarks.set(key, mark);
    this.store
      .markSent(key, mark)
      .then((kept) => {
        if (kept && !previewed) this.sentMarks.set(key, mark);
      })
      .catch((e: unknown) => this.log.warn(`Before/After of ${source.name}: the send was not noted on disk: ${errorText(e)}`));
    const a = this.panelArgs;
    if (this.panel && this.panelDoc?.toString() === key) {
      if (a && a.uri.toString() === key) this.showPreviewPanel(a.uri, a.name, a.info, a.plan, a.section, a.extra, false, a.table);
      else this.renderRestored?.();
    }
  }

  /** Keeps a preview's values in memory and on disk (for Send's drift check, also after a window reload). */
  protected keepPreview(p: PreviewTaken): void {
    // A new preview: its view may send again.
    this.sentMarks.delete(p.docUri.toString());
    this.previews.set(p.docUri.toString(), p);
    const { fields, items, missing } = p.values;
    this.store
      .save({ uri: p.docUri.toString(), text: p.text, baseUrl: p.info.baseUrl, takenAt: new Date(), fields, items, missing })
      .catch((e: unknown) => this.log.warn(`Preview of ${documentName(p.docUri)}: its values were not kept on disk (Send compares with them only until the window reloads): ${errorText(e)}`));
  }

  /** The preview of this document's text on this service: from memory, else as kept on disk. */
  protected async previewOf(source: JobSourceInfo, plan: JobPlan, info: ConnectionInfo): Promise<PreviewTaken | undefined> {
    const inMemory = this.previews.get(source.uri.toString());
    if (inMemory) return inMemory.text === source.text && inMemory.info.baseUrl === info.baseUrl ? inMemory : undefined;
    const kept = await this.store.load(source.uri.toString(), source.text, info.baseUrl);
    if (!kept) return undefined;
    this.log.info(`Send of ${source.name}: comparing with its preview of ${kept.takenAt.toISOString()} (kept on disk).`);
    return { text: source.text, plan, values: { fields: kept.fields, items: kept.items, missing: kept.missing, requests: 0 }, info, docUri: source.uri };
  }
}
