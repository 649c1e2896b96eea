// Before/after: the preview reads the current values of the fields an update
// touches and shows current → expected per item; Send reads them again (warning
// when items changed since the preview) and keeps them beside the job's journal
// before the first request leaves; after a run the values are read once more and
// the result view shows before → after; "Create Undo Document" writes the request
// documents that put the previous values back. Registered from one function.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fieldsToRead, touchedFields, type ItemValues } from '../bulk/effects';
import { changeRows, planUndoForJob, responsesOf } from '../bulk/jobValues';
import { findDrift, readValues, type ReadValues } from '../bulk/readValues';
import { readSnapshot, snapshotItems, writeSnapshot, pruneSnapshots } from '../bulk/snapshot';
import { planJob, type JobJournal, type JobPlan } from '../bulk';
import { readSettings } from '../common/config';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import { itemsText, requestsText } from '../common/wording';
import type { JobSourceInfo, JobsForValues, MarkdownPreviews } from '../common/jobHooks';
import { isCancellation, registerCommand } from '../common/commands';
import { renderChangesPage, messageSection } from './model/page';
import { previewTable, renderChangeTable, resultTable, userIdsInTable, type ChangeTable } from '../webview/changeTable';
import type { UserNames } from '../common/model/users';
import { sideColumn } from '../webview/sideColumn';
import { readRequestCount, subItemReader, workItemReader } from './reader';
import { changeTableStrings } from '../common/changeStrings';
import { analyzeText, documentName } from '../common/requestDocument';
import { PreviewStore, sha256, type SentMark } from './previewStore';
import { askDrift, askRepeat, previewButtons, sentLine, staleSendMessage } from './sent';
import { createUndoDocuments, modalUndoPrompts, type UndoOutcome, type UndoPrompts } from './undoCommand';
import { sendAllInOrder, type SendAllOutcome } from './sendAll';

/** The group beside the document (the one the user is in when it is not the first; else the second; else a new one). */
function sideGroupColumn(): vscode.ViewColumn {
  const column = sideColumn(
    vscode.window.tabGroups.all.map((g) => g.viewColumn),
    vscode.window.tabGroups.activeTabGroup.viewColumn,
  );
  return column === 'beside' ? vscode.ViewColumn.Beside : column;
}

export const PREVIEW_VIEW_TYPE = 'workItemStudio.valuesPreview';
/** Reads that end sooner show no progress notification. */
const QUIET_READ_MS = 700;

interface PreviewTaken {
  text: string;
  plan: JobPlan;
  values: ReadValues;
  info: ConnectionInfo;
  docUri: vscode.Uri;
}

export interface ChangesApi {
  /** Reads the current values for a planned document and shows current → expected (Preview). */
  previewValues(doc: vscode.TextDocument, plan: JobPlan, info: ConnectionInfo): Promise<ChangeTable | undefined>;
  /** The table the preview panel shows now (tests). */
  readonly lastPreview: ChangeTable | undefined;
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

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

class ValuesFeature implements ChangesApi, vscode.Disposable {
  /** The question of Create Undo Document (a modal dialog unless replaced: `setPrompts`). */
  private undoPrompts: UndoPrompts = modalUndoPrompts;

  private readonly previews = new Map<string, PreviewTaken>();
  private panel?: vscode.WebviewPanel;
  private panelDoc?: vscode.Uri;
  /** The panel's last content (re-rendered when its document is sent meanwhile). */
  private panelArgs?: { uri: vscode.Uri; name: string; info: ConnectionInfo; plan: JobPlan; section: string; extra: string[] };
  /** A view restored after a reload, before its kept values are shown: renders it again (with its send mark). */
  private renderRestored?: () => void;
  /** Documents sent after their preview, by URI: their Before/After view sends no more until Preview Again. */
  private readonly sentMarks = new Map<string, SentMark>();
  lastPreview: ChangeTable | undefined;
  private pruned = false;
  /** The previews' values on disk, so that Send still sees drift after a window reload (made on first use: activation touches no storage). */
  private storeMade?: PreviewStore;
  private get store(): PreviewStore {
    return (this.storeMade ??= new PreviewStore(path.join(path.dirname(this.jobs.jobsDir), 'previews')));
  }

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly connections: ConnectionManager,
    private readonly jobs: JobsForValues,
    private readonly documents: MarkdownPreviews,
    /** Names for the user IDs the tables show (assignments, leaders). */
    private readonly people?: UserNames,
  ) {}

  /** The names the user directory knows for the table's user IDs; reads the others, then calls `learned`. */
  private namesFor(table: ChangeTable, learned?: () => void): Record<string, string> {
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

  private enabled(): boolean {
    return readSettings().bulk.readValues;
  }

  /**
   * Reads with a cancellable progress notification that says how many read requests it
   * takes. A read that ends within {@link QUIET_READ_MS} shows no notification (small jobs
   * read in one request, in milliseconds).
   */
  private async read(ids: readonly string[], plan: JobPlan, info: ConnectionInfo, title: (requests: string) => string): Promise<ReadValues> {
    const fields = fieldsToRead(plan.update);
    const count = readRequestCount(info.baseUrl, ids, fields);
    const abort = new AbortController();
    let report: ((done: number, total: number) => void) | undefined;
    let latest: [number, number] | undefined;
    const reading = readValues(workItemReader(this.connections), ids, plan.update, {
      signal: abort.signal,
      subItems: subItemReader(this.connections),
      onProgress: (done, total) => {
        latest = [done, total];
        report?.(done, total);
      },
    });
    const settled = reading.then(
      () => true,
      () => true,
    );
    const quick = await Promise.race([settled, new Promise<false>((resolve) => setTimeout(() => resolve(false), QUIET_READ_MS))]);
    if (!quick) {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: title(count === undefined ? '?' : requestsText(count)), cancellable: true },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => abort.abort());
          let last = 0;
          report = (done, total) => {
            const percent = total > 0 ? (done / total) * 100 : 100;
            progress.report({ message: vscode.l10n.t('{0} of {1} items read', done, total), increment: Math.max(0, percent - last) });
            last = Math.max(last, percent);
          };
          if (latest) report(...latest);
          try {
            await settled;
          } finally {
            sub.dispose();
          }
        },
      );
    }
    const values = await reading;
    if (abort.signal.aborted) throw new vscode.CancellationError();
    this.log.info(`Read ${fields.join(',')} of ${ids.length} items in ${values.requests} requests (${values.missing.length} missing).`);
    return values;
  }

  // ---------------------------------------------------------------- preview

  async previewValues(doc: vscode.TextDocument, plan: JobPlan, info: ConnectionInfo): Promise<ChangeTable | undefined> {
    if (!this.enabled()) return undefined;
    const name = documentName(doc.uri);
    let values: ReadValues;
    try {
      values = await this.read(plan.ids, plan, info, (requests) => vscode.l10n.t('Preview: reading the current values of {0} ({1})', itemsText(plan.ids.length), requests));
    } catch (e) {
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
    this.keepPreview({ text: doc.getText(), plan, values, info, docUri: doc.uri });
    return this.showPreview(doc.uri, name, info, plan, values);
  }

  private showPreview(uri: vscode.Uri, name: string, info: ConnectionInfo, plan: JobPlan, values: ReadValues, o: { drifted?: number; keptAt?: Date; reveal?: boolean } = {}): ChangeTable {
    const drifted = o.drifted;
    const s = changeTableStrings();
    const lines: ChangeTable['lines'] = [];
    if (values.missing.length === plan.ids.length && plan.ids.length > 0) {
      lines.push({ text: vscode.l10n.t('None of the items came back: the service may not offer reading work items, or they do not exist.'), level: 'error' });
    } else if (values.missing.length > 0) {
      lines.push({ text: vscode.l10n.t('{0} not found on the service: {1}', itemsText(values.missing.length), values.missing.slice(0, 20).join(', ')), level: 'error' });
    }
    if (drifted) lines.push({ text: vscode.l10n.t('{0} changed since the previous preview; these are the values now.', itemsText(drifted)), level: 'warning' });
    const table = previewTable(plan.ids, plan.update, values.items, s, lines);
    this.lastPreview = table;
    table.people = this.namesFor(table, () => {
      // Names read after the first paint: the same table, painted again with them (only while it is still shown).
      if (this.lastPreview !== table || this.panelDoc?.toString() !== uri.toString()) return;
      table.people = this.namesFor(table);
      this.showPreviewPanel(uri, name, info, plan, renderChangeTable(table, s), this.panelArgs?.extra ?? extra, false);
    });
    const extra = [
      o.keptAt
        ? vscode.l10n.t('Read {0} at {1}, before the window was reloaded. Nothing has been sent.', itemsText(values.items.size), o.keptAt.toLocaleString(vscode.env.language))
        : vscode.l10n.t('Read {0} with {1} at {2}. Nothing has been sent.', itemsText(values.items.size), requestsText(values.requests), new Date().toLocaleTimeString(vscode.env.language)),
    ];
    this.showPreviewPanel(uri, name, info, plan, renderChangeTable(table, s), extra, o.reveal ?? true);
    return table;
  }

  private showPreviewPanel(uri: vscode.Uri, name: string, info: ConnectionInfo, plan: JobPlan, section: string, extra: string[], reveal = true): void {
    this.panelArgs = { uri, name, info, plan, section, extra };
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
          { enableScripts: true, localResourceRoots: [], enableFindWidget: true },
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
      section,
      buttons: previewButtons(sent),
      nonce: randomBytes(16).toString('base64'),
      cspSource: panel.webview.cspSource,
      documentUri: uri.toString(),
      sentAt: sent?.at.toISOString(),
    });
    if (reveal) panel.reveal(panel.viewColumn, true);
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
    panel.webview.options = { enableScripts: true, localResourceRoots: [] };
    this.adoptPanel(panel);
    this.panelDoc = uri;
    this.panelArgs = undefined;
    panel.title = title;
    const render = (sent?: SentMark): void => {
      panel.webview.html = renderChangesPage({
        title,
        lines: [vscode.l10n.t('Document: {0}', name), ...(sent ? [sentLine(sent)] : [])],
        section: messageSection(changeTableStrings().heading.preview, vscode.l10n.t('The window was reloaded since these values were read. Refresh reads them again.')),
        buttons: previewButtons(sent),
        nonce: randomBytes(16).toString('base64'),
        cspSource: panel.webview.cspSource,
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

  /** Presses a button of the open Before/After view as a click does ('send', 'refresh'), or only reports its state. */
  pressButton(command: unknown): Promise<PreviewButtonOutcome> {
    return this.onPreviewMessage({ command });
  }

  /** The send mark of a previewed document (in memory, else kept on disk). */
  private async sentOf(uri: vscode.Uri): Promise<SentMark | undefined> {
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
  private markSent(source: JobSourceInfo, jobId?: string): void {
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
      if (a && a.uri.toString() === key) this.showPreviewPanel(a.uri, a.name, a.info, a.plan, a.section, a.extra, false);
      else this.renderRestored?.();
    }
  }

  /** Keeps a preview's values in memory and on disk (for Send's drift check, also after a window reload). */
  private keepPreview(p: PreviewTaken): void {
    // A new preview: its view may send again.
    this.sentMarks.delete(p.docUri.toString());
    this.previews.set(p.docUri.toString(), p);
    const { fields, items, missing } = p.values;
    this.store
      .save({ uri: p.docUri.toString(), text: p.text, baseUrl: p.info.baseUrl, takenAt: new Date(), fields, items, missing })
      .catch((e: unknown) => this.log.warn(`Preview of ${documentName(p.docUri)}: its values were not kept on disk (Send compares with them only until the window reloads): ${errorText(e)}`));
  }

  /** The preview of this document's text on this service: from memory, else as kept on disk. */
  private async previewOf(source: JobSourceInfo, plan: JobPlan, info: ConnectionInfo): Promise<PreviewTaken | undefined> {
    const inMemory = this.previews.get(source.uri.toString());
    if (inMemory) return inMemory.text === source.text && inMemory.info.baseUrl === info.baseUrl ? inMemory : undefined;
    const kept = await this.store.load(source.uri.toString(), source.text, info.baseUrl);
    if (!kept) return undefined;
    this.log.info(`Send of ${source.name}: comparing with its preview of ${kept.takenAt.toISOString()} (kept on disk).`);
    return { text: source.text, plan, values: { fields: kept.fields, items: kept.items, missing: kept.missing, requests: 0 }, info, docUri: source.uri };
  }

  // ---------------------------------------------------------------- send

  async prepare(source: JobSourceInfo, plan: JobPlan, info: ConnectionInfo): Promise<{ write(journal: JobJournal): Promise<void> } | undefined> {
    if (!this.enabled()) return undefined;
    // A preview of this text that was sent since holds the values before that send: no reference for drift any more.
    const sent = await this.sentOf(source.uri);
    const previewSent = sent !== undefined && sent.textHash === sha256(source.text);
    let values: ReadValues | undefined;
    let failure: string | undefined;
    try {
      values = await this.read(plan.ids, plan, info, (requests) => vscode.l10n.t('Reading the values before sending ({0})', requests));
      if (values.items.size === 0 && plan.ids.length > 0) failure = vscode.l10n.t('none of the items came back');
    } catch (e) {
      if (isCancellation(e)) throw new vscode.CancellationError();
      failure = errorText(e);
    }
    if (failure !== undefined || !values) {
      this.log.warn(`Send of ${source.name}: the values before the update were not read: ${failure}`);
      const send = vscode.l10n.t('Send Without Undo');
      const openSetting = vscode.l10n.t('Open Setting');
      const text = unreadValuesQuestion(failure ?? '');
      const pick = await vscode.window.showWarningMessage(text.message, { modal: true, detail: text.detail }, send, openSetting);
      if (pick === openSetting) void vscode.commands.executeCommand('workbench.action.openSettings', 'workItemStudio.bulk.readValues');
      if (pick !== send) throw new vscode.CancellationError();
      this.markSent(source);
      return undefined;
    }
    // IDs the service does not know (found by this read, as by the preview): Send says so, with the list, and goes on with the others.
    if (values.missing.length > 0) {
      const shown = values.missing.slice(0, 20).join(', ') + (values.missing.length > 20 ? ' …' : '');
      this.log.warn(`Send of ${source.name}: ${values.missing.length} IDs not found on the service: ${shown}`);
      void vscode.window.showWarningMessage(
        values.missing.length === 1
          ? vscode.l10n.t('Sending {0}: 1 work item was not found on the service and will fail: {1}', source.name, shown)
          : vscode.l10n.t('Sending {0}: {1} work items were not found on the service and will fail: {2}', source.name, values.missing.length, shown),
      );
    }
    // Drift: items changed since the preview of this same document text on this service (best effort: no ETag on the service).
    // (After a send of this very text, the items differ from the preview by that send: no drift question; Send asked about the repeat.)
    const previous = previewSent ? undefined : await this.previewOf(source, plan, info);
    if (previous) {
      const drift = findDrift(plan.update, previous.values.items, values.items);
      if (drift.length > 0) {
        this.log.warn(`Send of ${source.name}: ${drift.length} items changed since the preview: ${drift.slice(0, 20).map((d) => `${d.id} (${d.gone ? 'gone' : d.fields.map((f) => f.field).join(',')})`).join('; ')}`);
        const shown = drift
          .slice(0, 10)
          .map((d) => (d.gone ? vscode.l10n.t('{0}: not found any more', d.id) : `${d.id}: ${d.fields.map((f) => f.field).join(', ')}`))
          .join('\n');
        const more = drift.length > 10 ? `\n${vscode.l10n.t('and {0} more', drift.length - 10)}` : '';
        const pick = await askDrift(itemsText(drift.length), shown, more);
        if (pick === 'refresh') {
          this.keepPreview({ ...previous, values, plan });
          this.showPreview(source.uri, source.name, info, plan, values, { drifted: drift.length });
          throw new vscode.CancellationError();
        }
        if (pick !== 'send') throw new vscode.CancellationError();
      }
    }
    const taken = values;
    return {
      write: async (journal) => {
        this.markSent(source, journal.id);
        await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: taken.fields, items: taken.items, missing: taken.missing, siblings: taken.siblings });
        this.log.info(`bulk job ${journal.id}: the values of ${taken.items.size} items before the update are kept beside the journal.`);
      },
    };
  }

  async afterRun(journal: JobJournal): Promise<void> {
    if (!this.pruned) {
      this.pruned = true;
      void pruneSnapshots(this.jobs.jobsDir).catch(() => undefined);
    }
    const before = await readSnapshot(journal.file, 'before');
    if (!before) return;
    const applied = journal.requests.filter((r) => r.state === 'succeeded').flatMap((r) => r.ids);
    if (applied.length === 0) return;
    const info = this.connections.current;
    if (!info) return;
    const values = await this.read(applied, journal.plan, info, (requests) => vscode.l10n.t('Reading the values after the update ({0})', requests));
    const earlier = snapshotItems(await readSnapshot(journal.file, 'after'));
    for (const [id, v] of values.items) earlier.set(id, v);
    await writeSnapshot(journal.file, { kind: 'after', jobId: journal.id, fields: values.fields, items: earlier, missing: values.missing });
  }

  async changes(journal: JobJournal): Promise<{ table?: ChangeTable; undo: boolean } | undefined> {
    const { plan: undo, values } = await planUndoForJob(journal);
    if (!values.before) return undefined;
    const s = changeTableStrings();
    const rows = changeRows(journal, values);
    const { items, affected } = responsesOf(journal.requests);
    const remarks = new Map<string, string[]>();
    for (const [id, item] of items) {
      if (item.itemWarnings && item.itemWarnings.length > 0) {
        remarks.set(id, [vscode.l10n.t('warnings from the service: {0}', item.itemWarnings.map((w) => (typeof w === 'string' ? w : JSON.stringify(w))).join('; '))]);
      }
    }
    const before = snapshotItems(values.before);
    for (const id of values.applied) if (!before.has(id)) remarks.set(id, [...(remarks.get(id) ?? []), vscode.l10n.t('not read before sending')]);
    const lines: ChangeTable['lines'] = [];
    if (!values.afterRead) lines.push({ text: vscode.l10n.t('The values after come from the service’s answer (they were not read again).'), level: 'info' });
    if (affected.size > 0) {
      const ids = [...affected.keys()];
      lines.push({ text: vscode.l10n.t('{0} not in the document changed too (roll-up by the service): {1}', itemsText(ids.length), ids.slice(0, 20).join(', ') + (ids.length > 20 ? ' …' : '')), level: 'warning' });
    }
    if (values.uncertain.length > 0) {
      const n = values.uncertain.length;
      lines.push({ text: n === 1 ? vscode.l10n.t('1 item of unknown outcome is not shown.') : vscode.l10n.t('{0} items of unknown outcome are not shown.', n), level: 'warning' });
    }
    if (undo.nonInvertible.length > 0) {
      const itemsLost = new Set(undo.nonInvertible.map((n) => n.id)).size;
      lines.push({ text: vscode.l10n.t('An undo cannot put back every change of {0} (Create Undo Document lists them).', itemsText(itemsLost)), level: 'warning' });
    }
    const table = resultTable(rows, touchedFields(journal.plan.update), remarks, s, lines);
    table.people = this.namesFor(table);
    return { table, undo: undo.documents.length > 0 || undo.nonInvertible.length > 0 };
  }

  /** Answers the undo question with `answers` where given (tests, automation); undefined: the modal dialog again. */
  setPrompts(answers: Partial<UndoPrompts> | undefined): void {
    this.undoPrompts = { ...modalUndoPrompts, ...answers };
  }

  async createUndo(jobId?: string): Promise<UndoOutcome | undefined> {
    const outcome = await createUndoDocuments(this.jobs, this.log, this.documents, jobId, this.undoPrompts);
    if (outcome && outcome.documents.length > 0) {
      this.undoDocuments.delete(outcome.jobId);
      this.undoDocuments.set(outcome.jobId, outcome.documents);
    }
    return outcome;
  }

  /** The undo documents made in this window, by job (the latest last). */
  private readonly undoDocuments = new Map<string, vscode.Uri[]>();

  /** Sends the undo documents of `jobId` (else of the latest Create Undo Document) one after the other, each previewed first. */
  async sendAllUndo(jobId?: string): Promise<SendAllOutcome | undefined> {
    const id = jobId ?? [...this.undoDocuments.keys()].pop();
    const uris = id ? this.undoDocuments.get(id) : undefined;
    if (!uris || uris.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No undo documents to send: use Create Undo Document in the result view of a job first.'));
      return undefined;
    }
    // The question before each document is one of the undo prompts (setPrompts replaces it in tests).
    return sendAllInOrder(uris, { next: (q) => this.undoPrompts.sendNext(q) }, this.log);
  }
}

export function registerChanges(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  connections: ConnectionManager,
  jobs: JobsForValues,
  documents: MarkdownPreviews,
  people?: UserNames,
): ChangesApi & {
  createUndo(jobId?: string): Promise<UndoOutcome | undefined>;
  setPrompts(answers: Partial<UndoPrompts> | undefined): void;
} {
  const feature = new ValuesFeature(log, connections, jobs, documents, people);
  context.subscriptions.push(feature);
  jobs.valueHooks = {
    prepare: (source, plan, info) => feature.prepare(source, plan, info),
    afterRun: (journal) => feature.afterRun(journal),
    changes: (journal) => feature.changes(journal),
  };
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(PREVIEW_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => feature.restorePreview(panel, state),
    }),
  );
  // Not in the manifest: presses a button of the open Before/After view as a click does, or reports its state (tests, automation).
  registerCommand(context, log, 'workItemStudio.pressBeforeAfterButton', (command?: unknown) => feature.pressButton(command ?? 'state'));
  registerCommand(context, log, 'workItemStudio.createUndoDocument', (a?: unknown) => feature.createUndo(typeof a === 'string' ? a : undefined));
  registerCommand(context, log, 'workItemStudio.sendAllUndoDocuments', (a?: unknown) => feature.sendAllUndo(typeof a === 'string' ? a : undefined));
  return feature;
}

export type { ItemValues };
export type { UndoPrompts } from './undoCommand';
export type { SendAllPrompts, SendAllOutcome } from './sendAll';

/** What Send asks when the values before the update could not be read (`failure` says why). */
export function unreadValuesQuestion(failure: string): { message: string; detail: string } {
  return {
    message: vscode.l10n.t('The values before the update could not be read: {0}', failure),
    detail: vscode.l10n.t(
      'Without them the update cannot be undone from the result view. On a service that does not offer reading work items, turn off the setting workItemStudio.bulk.readValues and Send no longer reads or asks.',
    ),
  };
}
