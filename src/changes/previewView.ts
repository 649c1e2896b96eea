// The Before/After view of a request document: Preview reads the current values of the fields
// an update touches and shows current → expected; the view is brought back after a window
// reload (with the values kept on disk), its buttons send or read again, and a document sent
// after its preview is marked so its view sends no more. The view's panel, page and buttons
// are PreviewPanel's (previewPanel.ts), which this class extends; the send side (values before
// and after a job, undo) extends it in index.ts.
import type { ProjectProfile } from '../schema/catalogue';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SharedPacing } from '../api/pacer';
import type { ReadValues, ReadValuesOptions } from '../bulk/readValues';
import type { JobPlan } from '../bulk';
import { readSettings } from '../common/config';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import { itemsText, requestsText } from '../common/wording';
import type { JobSourceInfo, JobsForValues, MarkdownPreviews } from './jobs/values';
import { isCancellation } from '../common/commands';
import { messageSection } from './model/page';
import { restoredDocument } from './model/protocol';
import { changeTableSection, PreviewTableBuilder, userIdsInTable, type ChangeTable, type ChangeTableStrings } from '../webview/changeTable';
import type { UserNames } from '../common/model/users';
import { changeTableStrings } from '../common/changeStrings';
import type { CatalogueNames } from '../schema/field-labels';

/** Where the names of custom fields come from: the service's field catalogue as read so far (never a read of its own). */
export interface FieldNameSource {
  peekCatalogue(): { readonly fields: CatalogueNames } | undefined;
  /** Starts a read of the catalogue when none was made (the names show from the next table on). */
  prefetch?(): void;
  /** The profile of a project and the project of an item (the names of item types and statuses). */
  profile?(projectId: string): Promise<ProjectProfile | undefined>;
  projectOfWorkItem?(id: string): Promise<string | undefined>;
}
import { analyzeText, documentName } from '../common/requestDocument';
import { PreviewStore, sha256, type SentMark } from './previewStore';
import { askRepeat } from './sent';
import { readWithProgress } from './readProgress';
import { PreviewBatches } from './previewBatches';
import { readRequestCount } from './reader';
import { PreviewPanel } from './previewPanel';
import { core } from '../core/load';

export { PREVIEW_VIEW_TYPE, type PreviewButtonOutcome } from './previewPanel';

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

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The Before/After view and the previews behind it (the state of one window). */
export class PreviewViews extends PreviewPanel {

  private readonly previews = new Map<string, PreviewTaken>();
  lastPreview: ChangeTable | undefined;
  /** The previews' values on disk, so that Send still sees drift after a window reload (made on first use: activation touches no storage). */
  private storeMade?: PreviewStore;
  protected get store(): PreviewStore {
    return (this.storeMade ??= new PreviewStore(path.join(path.dirname(this.jobs.jobsDir), 'previews')));
  }

  constructor(
    log: vscode.LogOutputChannel,
    protected readonly connections: ConnectionManager,
    protected readonly jobs: JobsForValues,
    protected readonly documents: MarkdownPreviews,
    /** Names for the user IDs the tables show (assignments, leaders). */
    protected readonly people?: UserNames,
    /** The service's field catalogue as read so far: the names of custom fields. */
    protected readonly fieldNames?: FieldNameSource,
  ) {
    super(log);
    // The view belongs to the request document in front: switching to another document previewed in
    // this window shows that document's values (its title and its Send are then that document's).
    this.follow = vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e) this.followDocument(e.document);
    });
  }

  private readonly follow: vscode.Disposable;

  /** Shows the kept preview of `doc` when the view is open on another document and `doc`'s text and service are the ones previewed. */
  followDocument(doc: vscode.TextDocument): boolean {
    if (!this.panel || this.panelDoc?.toString() === doc.uri.toString()) return false;
    const kept = this.previews.get(doc.uri.toString());
    const info = this.connections.current;
    if (!kept || !info || kept.text !== doc.getText() || kept.info.baseUrl !== info.baseUrl) return false;
    this.showPreview(doc.uri, documentName(doc.uri), info, kept.plan, kept.values, { reveal: false });
    return true;
  }

  /** The tables' words, fields by their names in the UI's language (custom fields by the catalogue's names). */
  protected tableStrings(): ChangeTableStrings {
    this.fieldNames?.prefetch?.();
    return changeTableStrings(this.fieldNames?.peekCatalogue()?.fields);
  }

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

  override dispose(): void {
    this.follow.dispose();
    super.dispose();
    this.previews.clear();
  }

  protected enabled(): boolean {
    return readSettings().bulk.readValues;
  }

  /** Reads with a cancellable progress notification (none for a quick read): readWithProgress. */
  protected read(ids: readonly string[], plan: JobPlan, info: ConnectionInfo, pacing: SharedPacing, title: (requests: string) => string, onItems?: ReadValuesOptions['onItems']): Promise<ReadValues> {
    return readWithProgress(this.connections, this.log, ids, plan, info, pacing, title, onItems);
  }

  // ---------------------------------------------------------------- preview

  async previewValues(doc: vscode.TextDocument, plan: JobPlan, info: ConnectionInfo): Promise<ChangeTable | undefined> {
    if (!this.enabled()) return undefined;
    const name = documentName(doc.uri);
    let values: ReadValues;
    // The table is built as the answers come (while the next read is on its way), and the view shows
    // it from the first batch on, its rows appended batch by batch; the counts and lines follow the last read.
    const builder = new PreviewTableBuilder(plan.ids, core().bodyOrBodies(plan), this.tableStrings(), {}, core().newItemRows(plan), core().deletedIds(plan));
    const choices = await this.choicesFor(plan);
    if (choices) builder.table.choices = choices;
    const reads = readRequestCount(info.baseUrl, plan.ids, core().fieldsToReadForAll(core().planBodies(plan)));
    const reading = vscode.l10n.t('Preview: reading the current values of {0} ({1})', itemsText(plan.ids.length), reads === undefined ? '?' : requestsText(reads));
    const batches = new PreviewBatches(builder, (from) => {
      if (this.postRows(builder.table, doc.uri, from)) return;
      const section = changeTableSection(builder.table, changeTableStrings(), 'posted', true);
      this.showPreviewPanel({ uri: doc.uri, name, info, plan, section, extra: [], table: builder.table }, true, { status: reading, total: plan.ids.length, from });
    });
    try {
      // One pacing for every read of the preview (the work items, the levels of their parents, their sub-items).
      // A change that only adds names no existing item: nothing to read.
      values =
        plan.ids.length === 0
          ? { fields: [], items: new Map(), missing: [], requests: 0 }
          : await this.read(plan.ids, plan, info, new (core().SharedPacing)(), (requests) => vscode.l10n.t('Preview: reading the current values of {0} ({1})', itemsText(plan.ids.length), requests), batches.onItems);
    } catch (e) {
      batches.stop();
      const cancelled = isCancellation(e);
      if (!cancelled) this.log.warn(`Preview of ${name}: the current values were not read: ${errorText(e)}`);
      const text = cancelled ? vscode.l10n.t('Reading the current values was cancelled.') : vscode.l10n.t('The current values could not be read: {0}', errorText(e));
      this.showPreviewPanel({ uri: doc.uri, name, info, plan, section: messageSection(changeTableStrings().heading.preview, text), extra: [] });
      return undefined;
    }
    // Shown since an earlier batch: the rows of the batches left now, then the counts and lines. Not shown yet
    // (a read of one batch, say): the whole page at once, its counts in it.
    if (this.posts(builder.table)) batches.flush();
    else batches.stop();
    this.keepPreview({ text: doc.getText(), plan, values, info, docUri: doc.uri });
    return this.showPreview(doc.uri, name, info, plan, values, { builder });
  }

  /**
   * The names of the item types and statuses of the change's project (its profile), for the
   * cells that show them; undefined when the project or its profile is not known.
   */
  private async choicesFor(plan: JobPlan): Promise<Record<string, Record<string, string>> | undefined> {
    const source = this.fieldNames;
    const first = plan.parts.find((p) => p.kind === 'add')?.add?.parentId ?? plan.ids[0];
    if (!source?.profile || !source.projectOfWorkItem || first === undefined) return undefined;
    try {
      const project = await source.projectOfWorkItem(first);
      const profile = project ? await source.profile(project) : undefined;
      if (!profile) return undefined;
      const names = (list: readonly { name: string }[] | null | undefined): Record<string, string> => {
        const out: Record<string, string> = {};
        for (const e of list ?? []) {
          const id = core().profileEntryId(e as Parameters<ReturnType<typeof core>['profileEntryId']>[0]);
          if (id !== undefined) out[id] = e.name;
        }
        return out;
      };
      return { ItemTypeId: names(profile.itemTypes), StatusTypeId: names(profile.statusTypes) };
    } catch (e) {
      this.log.debug(`Preview: the names of item types and statuses were not read (${errorText(e)}); their IDs are shown`);
      return undefined;
    }
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
    const s = this.tableStrings();
    const lines: ChangeTable['lines'] = [];
    if (values.missing.length === plan.ids.length && plan.ids.length > 0) {
      lines.push({ text: vscode.l10n.t('None of the items came back: the service may not offer reading work items, or they do not exist.'), level: 'error' });
    } else if (values.missing.length > 0) {
      lines.push({ text: vscode.l10n.t('{0} not found on the service: {1}', itemsText(values.missing.length), values.missing.slice(0, 20).join(', ')), level: 'error' });
    }
    if (drifted) lines.push({ text: vscode.l10n.t('{0} changed since the previous preview; these are the values now.', itemsText(drifted)), level: 'warning' });
    if (values.refused) {
      lines.push({ text: vscode.l10n.t('The service refused to read {0}: the values were read without them, so what depends on them may turn out otherwise.', values.refused.left.map((f) => s.field?.(f) ?? f).join(', ')), level: 'warning' });
    }
    const builder = o.builder ?? new PreviewTableBuilder(plan.ids, core().bodyOrBodies(plan), s, {}, core().newItemRows(plan), core().deletedIds(plan));
    lines.push(...changeSetLines(plan, s));
    const made = builder.made;
    const table = builder.finish(values.items, lines);
    this.lastPreview = table;
    table.people = this.namesFor(table, () => {
      // Names read after the first paint: sent to the page, which paints the rows in sight again (only while the table is shown).
      if (this.lastPreview !== table || this.panelDoc?.toString() !== uri.toString()) return;
      table.people = this.namesFor(table);
      this.postPeople(table);
    });
    const extra = [
      plan.ids.length === 0
        ? vscode.l10n.t('The change only adds items: nothing to read first. Nothing has been sent.')
        : o.keptAt
        ? vscode.l10n.t('Read {0} at {1}, before the window was reloaded. Nothing has been sent.', itemsText(values.items.size), o.keptAt.toLocaleString(vscode.env.language))
        : vscode.l10n.t('Read {0} with {1} at {2}. Nothing has been sent.', itemsText(values.items.size), requestsText(values.requests), new Date().toLocaleTimeString(vscode.env.language)),
    ];
    const section = changeTableSection(table, s, 'posted');
    this.showTable({ uri, name, info, plan, section, extra, table }, made, o.reveal ?? true);
    return table;
  }

  /**
   * A Before/After view that VS Code brings back after a window reload: its values were
   * read before the reload, so it says so and offers Refresh (which reads them again) and
   * Send, for the document it showed. Nothing is read until asked.
   */
  restorePreview(panel: vscode.WebviewPanel, state: unknown): void {
    const doc = restoredDocument(state);
    if (doc === undefined || this.panel) {
      panel.dispose();
      return;
    }
    const uri = vscode.Uri.parse(doc);
    this.adoptRestored(panel, uri);
    // A view whose document was sent before the reload stays sent (the mark is kept with the preview on disk).
    void this.store
      .sentOf(uri.toString())
      .then((sent) => {
        if (sent) this.restoredSent(panel, uri, sent);
      })
      .catch(() => undefined);
    this.showKept(uri, panel).catch((e: unknown) => this.log.warn(`Before/After of ${documentName(uri)}: the values kept before the reload were not shown: ${errorText(e)}`));
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
    const plan = core().planChange({ requests: d.requests, baseUrl: info.baseUrl, maxUrlLength: readSettings().bulk.maxUrlLength });
    const values: ReadValues = { fields: kept.fields, items: kept.items, missing: kept.missing, requests: 0 };
    this.previews.set(uri.toString(), { text, plan, values, info, docUri: uri });
    this.showPreview(uri, documentName(uri), info, plan, values, { keptAt: kept.takenAt, reveal: false });
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
    this.renderAgain(key);
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

/**
 * For a change set: one line per request of the document, in the order they are sent,
 * with its items and the fields it changes (the table below shows every item).
 */
export function changeSetLines(plan: Pick<JobPlan, 'parts'>, s: Pick<ChangeTableStrings, 'field'>): ChangeTable['lines'] {
  if (plan.parts.length < 2) return [];
  return plan.parts.map((p, k) => {
    const described = p.description ? ` (${p.description})` : '';
    if (p.kind === 'add' && p.add) {
      const n = core().newItemRows({ parts: [p] }).length;
      return { text: `${vscode.l10n.t('Request {0} of {1} in the document: adds {2} below {3}', k + 1, plan.parts.length, itemsText(n), p.add.parentId)}${described}`, level: 'info' as const };
    }
    if (p.kind === 'delete') {
      const ids = p.ids.slice(0, 10).join(', ') + (p.ids.length > 10 ? ' …' : '');
      return { text: `${vscode.l10n.t('Request {0} of {1} in the document: deletes {2}', k + 1, plan.parts.length, itemsText(p.ids.length))}${described}: ${ids}`, level: 'warning' as const };
    }
    const fields = core().touchedFields(p.update).map((f) => s.field?.(f) ?? f).join(', ');
    const ids = p.ids.slice(0, 10).join(', ') + (p.ids.length > 10 ? ' …' : '');
    const head = vscode.l10n.t('Request {0} of {1} in the document: {2}', k + 1, plan.parts.length, itemsText(p.ids.length));
    return { text: `${head}${p.description ? ` (${p.description})` : ''}: ${fields || '—'} · ${ids}`, level: 'info' as const };
  });
}
