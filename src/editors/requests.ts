// Commands of request documents: New Work Item Update, Send, Preview, and inserting
// users and process categories at the cursor.
import * as vscode from 'vscode';
import type { JobPlan, JobResult, PlanProblem } from '../bulk';
import type { SendCalls } from '../bulk/sendCalls';
import { readSettings } from '../common/config';
import { ContextKeys, setContext } from '../common/contextKeys';
import { itemsText, requestsText, workItemsText } from '../common/wording';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import { NotConnectedError } from '../common/connection';
import { openNewRequestDocument } from '../common/requestDocuments';
import { activeRequestDocument } from '../common/activeRequestDocument';
import { expandIdRanges, extractIds, idRanges, idsPreview, looksLikeIdList } from './model/ids';
import { locatePath } from '../common/model/locate';
import { insertionFor, readCategoryArg, readUserArg } from './model/insert';
import { renderPreview, type PreviewStrings } from './model/preview';
import { irreversibleChanges } from './model/irreversible';
import type { PreviewDocuments } from './preview';
import type { TemplateId } from '../schema/templates';
import { analyzeText, documentName, isRequestDocument, isRequestDocumentUri } from '../common/requestDocument';
import { blockingProblems, issueText, lineList, locateIssueSpan } from './requestDocument';
import type { RequestDiagnostics } from './diagnostics';
import type { FieldCatalogueService } from './fieldCatalogue';
import type { RequestJobs } from './jobs';
import { refuseOtherService } from './jobs/running';
import { UserInputError } from '../common/commands';
import { core } from '../core/load';

export interface RequestCommandDeps {
  log: vscode.LogOutputChannel;
  connections: ConnectionManager;
  jobs: RequestJobs;
  previews: PreviewDocuments;
  diagnostics: RequestDiagnostics;
  /** The connected service's field catalogue (the checks before sending follow it). */
  fields?: FieldCatalogueService;
  /** Before/after values (src/changes): Preview reads the current values and shows current → expected. */
  values?: {
    previewValues(doc: vscode.TextDocument, plan: JobPlan, info: ConnectionInfo): Promise<unknown>;
    /** Asks before the same text is sent again after it was sent following its preview; true: send. */
    confirmRepeat?(doc: vscode.TextDocument, info: ConnectionInfo): Promise<boolean>;
  };
}

// ---------------------------------------------------------------------------
// New Work Item Update
// ---------------------------------------------------------------------------

// The English texts are those of TEMPLATES (src/schema/templates.ts), written out
// because l10n keys must be literals; a unit test keeps each case equal to the table.

/** The template's label in the display language. */
export function templateLabel(id: TemplateId): string {
  switch (id) {
    case 'shiftSchedule':
      return vscode.l10n.t('Shift the schedule');
    case 'clearSchedule':
      return vscode.l10n.t('Clear the schedule');
    case 'complete':
      return vscode.l10n.t('Mark complete');
    case 'reopen':
      return vscode.l10n.t('Reopen (mark incomplete)');
    case 'lockTimeEntry':
      return vscode.l10n.t('Lock time entry');
    case 'unlockTimeEntry':
      return vscode.l10n.t('Unlock time entry');
    case 'addAssignments':
      return vscode.l10n.t('Add assignments');
    case 'updateAssignments':
      return vscode.l10n.t('Update assignments');
    case 'removeAssignments':
      return vscode.l10n.t('Remove assignments');
    case 'removeAssignmentsById':
      return vscode.l10n.t('Remove assignments by ID');
    case 'moveUnderParent':
      return vscode.l10n.t('Move under a parent (at the end)');
    case 'moveUnderParentFirst':
      return vscode.l10n.t('Move under a parent (at the beginning)');
    case 'moveUnderParentAfter':
      return vscode.l10n.t('Move under a parent (after an item)');
    case 'changeItemType':
      return vscode.l10n.t('Change the item type');
    case 'setFields':
      return vscode.l10n.t('Set fields');
    case 'setProgress':
      return vscode.l10n.t('Set progress');
    case 'setPeriod':
      return vscode.l10n.t('Set the period');
    case 'setFieldCalcTypes':
      return vscode.l10n.t('Set field calculation types');
    case 'clearFieldCalcTypes':
      return vscode.l10n.t('Clear field calculation types');
    case 'clearAllFieldCalcTypes':
      return vscode.l10n.t('Clear all field calculation types');
    case 'propagateToChildren':
      return vscode.l10n.t('Propagate fields to children');
    case 'copyAssignments':
      return vscode.l10n.t('Copy assignments from an item');
    case 'restore':
      return vscode.l10n.t('Restore deleted items');
  }
}

/** The template's description in the display language. */
export function templateDescription(id: TemplateId): string {
  switch (id) {
    case 'shiftSchedule':
      return vscode.l10n.t('Move start and end dates by a number of days (negative: earlier).');
    case 'clearSchedule':
      return vscode.l10n.t('Clear start and end dates and delete the links.');
    case 'complete':
      return vscode.l10n.t('The items and their children get progress 100%.');
    case 'reopen':
      return vscode.l10n.t('The items and their children get progress 0%.');
    case 'lockTimeEntry':
      return vscode.l10n.t('Lock entry of actuals for the items and their descendants.');
    case 'unlockTimeEntry':
      return vscode.l10n.t('Release the time-entry lock.');
    case 'addAssignments':
      return vscode.l10n.t('Assign a user (login name, e-mail address or name) with planned effort.');
    case 'updateAssignments':
      return vscode.l10n.t("Change an assigned user's planned effort.");
    case 'removeAssignments':
      return vscode.l10n.t('Remove users (login name, e-mail address or name) from the assignments.');
    case 'removeAssignmentsById':
      return vscode.l10n.t('Remove users or project groups by ID (several separated by commas).');
    case 'moveUnderParent':
      return vscode.l10n.t('Move the items under another parent item, after its last child.');
    case 'moveUnderParentFirst':
      return vscode.l10n.t('Move the items under another parent item, before its first child.');
    case 'moveUnderParentAfter':
      return vscode.l10n.t('Move the items under another parent item, directly after a given sibling.');
    case 'changeItemType':
      return vscode.l10n.t('Change the items to another item type.');
    case 'setFields':
      return vscode.l10n.t('Set field values (field names are case-sensitive).');
    case 'setProgress':
      return vscode.l10n.t('Set the progress percentage (0 to 100).');
    case 'setPeriod':
      return vscode.l10n.t('Set start and end dates (yyyy-MM-dd).');
    case 'setFieldCalcTypes':
      return vscode.l10n.t("Choose how each field's value is determined.");
    case 'clearFieldCalcTypes':
      return vscode.l10n.t('Clear the determination method of the named fields (separated by commas).');
    case 'clearAllFieldCalcTypes':
      return vscode.l10n.t('Clear the determination method of every field.');
    case 'propagateToChildren':
      return vscode.l10n.t('Copy field values down to the lowest-level sub-items (names separated by commas).');
    case 'copyAssignments':
      return vscode.l10n.t('Copy the assignments of another item.');
    case 'restore':
      return vscode.l10n.t('Restore deleted items into a folder (all other members are ignored).');
  }
}

/** Options for scripted use (tests, other commands): skip the prompts. */
export interface NewUpdateOptions {
  ids?: string[];
  template?: TemplateId;
}

/**
 * Where the IDs come from: the selection in the active editor, the clipboard (only when the user
 * says so: never silently), or an input box. Numeric ranges (`131-140`) are expanded when the user confirms.
 */
async function collectIds(log: vscode.LogOutputChannel): Promise<string[] | undefined> {
  const ids = await collectWrittenIds(log);
  return ids === undefined ? undefined : confirmRanges(ids);
}

async function collectWrittenIds(log: vscode.LogOutputChannel): Promise<string[] | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const text = editor.selections
      .filter((s) => !s.isEmpty)
      .map((s) => editor.document.getText(s))
      .join('\n');
    if (text) {
      const r = extractIds(text);
      if (r.ids.length > 0) {
        log.info(`New update: ${r.ids.length} IDs from the selection${r.junk.length ? ` (${r.junk.length} other tokens ignored)` : ''}`);
        return r.ids;
      }
    }
  }
  const clip = await vscode.env.clipboard.readText();
  let initial: string | undefined;
  if (looksLikeIdList(clip)) {
    const ids = extractIds(clip).ids;
    const use = { label: vscode.l10n.t('Use These IDs'), detail: idsPreview(ids, 30), choice: 'use' as const };
    const other = { label: vscode.l10n.t('Type Other IDs…'), choice: 'type' as const };
    const picked = await vscode.window.showQuickPick([use, other], {
      title: vscode.l10n.t('New Work Item Update'),
      placeHolder:
        ids.length === 1
          ? vscode.l10n.t('Use 1 ID from the clipboard: {0}?', ids[0]!)
          : vscode.l10n.t('Use {0} IDs from the clipboard: {1}?', ids.length, idsPreview(ids)),
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    if (picked.choice === 'use') {
      log.info(`New update: ${ids.length} IDs from the clipboard (confirmed)`);
      return ids;
    }
    initial = ids.join(', ');
  }
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('New Work Item Update'),
    prompt: vscode.l10n.t('Work item IDs, separated by commas, spaces or new lines (leave empty to fill them in later)'),
    placeHolder: '120, 121, 122',
    value: initial,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const r = extractIds(value);
      if (r.junk.length === 0) return undefined;
      return {
        message: vscode.l10n.t('Not IDs, ignored: {0}', r.junk.slice(0, 5).join(' ')),
        severity: vscode.InputBoxValidationSeverity.Warning,
      };
    },
  });
  if (typed === undefined) return undefined;
  return extractIds(typed).ids;
}

/** Asks before numeric ranges (`131-140`) become the IDs they stand for; kept as written otherwise. */
async function confirmRanges(ids: string[]): Promise<string[] | undefined> {
  const ranges = idRanges(ids);
  if (ranges.length === 0) return ids;
  const count = ranges.reduce((n, r) => n + r.ids.length, 0);
  const expand = { label: vscode.l10n.t('Expand the Ranges'), detail: idsPreview(expandIdRanges(ids), 30), expand: true };
  const keep = { label: vscode.l10n.t('Keep as Written'), detail: vscode.l10n.t('Each range is one work item ID, as written.'), expand: false };
  const picked = await vscode.window.showQuickPick([expand, keep], {
    title: vscode.l10n.t('New Work Item Update'),
    placeHolder:
      ranges.length === 1
        ? vscode.l10n.t('Expand {0} into the {1} IDs {2} to {3}?', ranges[0]!.text, count, ranges[0]!.ids[0]!, ranges[0]!.ids.at(-1)!)
        : vscode.l10n.t('Expand the ranges {0} into {1} IDs?', ranges.map((r) => r.text).join(', '), count),
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  return picked.expand ? expandIdRanges(ids) : ids;
}

async function pickTemplate(ids: number): Promise<TemplateId | undefined> {
  const picked = await vscode.window.showQuickPick(
    core().TEMPLATES.map((t) => ({ label: templateLabel(t.id), description: Object.keys(t.update).join(', '), detail: templateDescription(t.id), id: t.id })),
    {
      title: vscode.l10n.t('New Work Item Update'),
      placeHolder: ids > 1 ? vscode.l10n.t('What should change on the {0} work items?', ids) : ids === 1 ? vscode.l10n.t('What should change on the work item?') : vscode.l10n.t('What should change?'),
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  return picked?.id;
}

export async function newUpdate(log: vscode.LogOutputChannel, options: NewUpdateOptions = {}): Promise<vscode.TextEditor | undefined> {
  const ids = options.ids ?? (await collectIds(log));
  if (ids === undefined) return undefined;
  const id = options.template ?? (await pickTemplate(ids.length));
  if (!id) return undefined;
  const template = core().templateById(id);
  if (!template) throw new UserInputError(vscode.l10n.t('Unknown template "{0}".', String(id)));
  const editor = await openNewRequestDocument(core().documentTemplate(template.update, ids, templateLabel(id)), 'update');
  log.info(`New update ${editor.document.uri.path}: template ${id}, ${ids.length} IDs`);
  return editor;
}

// ---------------------------------------------------------------------------
// Insert a user / process category at the cursor
// ---------------------------------------------------------------------------

export async function insertAtCursor(arg: unknown, kind: 'user' | 'category'): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => isRequestDocument(e.document));
  if (!editor) throw new UserInputError(vscode.l10n.t('Open a request document (*.workitems.json) and place the cursor where the value goes.'));
  const item =
    kind === 'user'
      ? (() => {
          const user = readUserArg(arg);
          return user ? { user } : undefined;
        })()
      : (() => {
          const category = readCategoryArg(arg);
          return category ? { category } : undefined;
        })();
  if (!item) throw new UserInputError(kind === 'user' ? vscode.l10n.t('Pick a user in the Organizations view to insert.') : vscode.l10n.t('Pick a process category in its view to insert.'));
  const text = editor.document.getText();
  const inserted: string[] = [];
  await editor.edit((b) => {
    for (const sel of editor.selections) {
      const ins = insertionFor(text, editor.document.offsetAt(sel.active), item);
      inserted.push(ins.value);
      b.replace(sel, ins.text);
    }
  });
  await vscode.window.showTextDocument(editor.document, editor.viewColumn);
  return inserted[0];
}

// ---------------------------------------------------------------------------
// Send and Preview
// ---------------------------------------------------------------------------

interface Checked {
  doc: vscode.TextDocument;
  plan: JobPlan;
  info: ConnectionInfo;
  warnings: string[];
  description?: string;
}

/** Checks a document completely and plans it; throws a UserInputError pointing at the first problem. */
async function checkAndPlan(doc: vscode.TextDocument, deps: RequestCommandDeps): Promise<Checked> {
  const connections = deps.connections;
  const name = documentName(doc.uri);
  // The service's own field catalogue when it can be read (custom fields, their types and ranges).
  const catalogue = (await deps.fields?.get())?.kind === 'service' ? deps.fields?.peekCatalogue() : undefined;
  const analysis = analyzeText(doc.getText(), catalogue);
  const problems = blockingProblems(doc, analysis);
  if (problems.length > 0 || !analysis.validation?.document) {
    const first = problems[0];
    void selectFirstPlaceholder(doc, analysis);
    throw new UserInputError(
      problems.length === 1
        ? vscode.l10n.t('{0} has an error on line {1}: {2} Nothing was sent.', name, lineList(problems), first!.message)
        : vscode.l10n.t('{0} has {1} errors (lines {2}). Nothing was sent; fix them first.', name, problems.length, lineList(problems)),
      doc.uri,
      first?.range,
    );
  }
  const info = connections.current;
  if (!info) throw new NotConnectedError();
  refuseOtherService({ text: doc.getText(), name, uri: doc.uri }, info); // before any question: a document for another service is not sent
  const d = analysis.validation.document;
  let plan: JobPlan;
  try {
    plan = core().planChange({ requests: d.requests, baseUrl: info.baseUrl, maxUrlLength: readSettings().bulk.maxUrlLength });
  } catch (e) {
    if (e instanceof core().PlanError) {
      const max = readSettings().bulk.maxUrlLength;
      throw new UserInputError(vscode.l10n.t('{0} cannot be sent: {1}', name, e.problems.map((p) => planProblemText(p, max)).join('; ')), doc.uri);
    }
    throw e;
  }
  const warnings = analysis.validation.issues.filter((i) => i.severity === 'warning').map((i) => `${vscode.l10n.t('line {0}', lineOf(doc, analysis, i.path))}: ${issueText(i)}`);
  return { doc, plan, info, warnings, description: d.description };
}

/**
 * Takes the cursor to the first placeholder left in a document ("WORK-ITEM-ID", "PARENT-ID", ...),
 * its text selected so typing replaces it. Returns whether there was one.
 */
export async function selectFirstPlaceholder(doc: vscode.TextDocument, analysis = analyzeText(doc.getText())): Promise<boolean> {
  const issue = analysis.validation?.issues.find((i) => i.code === 'PLACEHOLDER_LEFT');
  if (!issue) return false;
  const span = locateIssueSpan(analysis, issue);
  const text = doc.getText().slice(span.offset, span.offset + span.length);
  const value = String(issue.params?.value ?? '');
  const at = value ? text.indexOf(value) : -1;
  const start = doc.positionAt(span.offset + Math.max(0, at));
  const end = doc.positionAt(at >= 0 ? span.offset + at + value.length : span.offset + span.length);
  const visible = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn, preserveFocus: false });
  editor.selection = new vscode.Selection(start, end);
  editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return true;
}

/** A plan problem in the user's language (invalid IDs keep the check's own wording: the editor has already flagged them). */
function planProblemText(p: PlanProblem, maxUrlLength: number): string {
  switch (p.code) {
    case 'no-ids':
      return vscode.l10n.t('the document names no work item');
    case 'id-too-long-for-url':
      return vscode.l10n.t('the work item ID "{0}" alone makes a request URL longer than {1} characters (setting workItemStudio.bulk.maxUrlLength)', p.id ?? '', maxUrlLength);
    case 'invalid-base-url':
      return vscode.l10n.t('the service URL is not valid: {0}', p.message);
    default:
      return p.message;
  }
}

function lineOf(doc: vscode.TextDocument, analysis: ReturnType<typeof analyzeText>, p: (string | number)[]): number {
  return doc.positionAt(locatePath(analysis.parsed.root, p).offset).line + 1;
}

/**
 * The documents a send/preview command is about: the explorer selection (in order), the given URI,
 * or the active tab's request document (read first when its editor does not have it yet).
 */
export async function targetDocuments(arg?: unknown, many?: unknown): Promise<vscode.TextDocument[]> {
  let uris: vscode.Uri[] = [];
  if (Array.isArray(many) && many.length > 0 && many.every((u) => u instanceof vscode.Uri)) uris = many as vscode.Uri[];
  else if (arg instanceof vscode.Uri) uris = [arg];
  else {
    const active = await activeRequestDocument();
    if (active) return [active];
  }
  const wanted = uris.filter(isRequestDocumentUri);
  if (wanted.length === 0) throw new UserInputError(vscode.l10n.t('Open or select a request document (*.workitems.json) to send.'));
  if (wanted.length < uris.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} selected files are not request documents (*.workitems.json) and are skipped.', uris.length - wanted.length));
  }
  const docs: vscode.TextDocument[] = [];
  for (const u of wanted) docs.push(await vscode.workspace.openTextDocument(u));
  return docs;
}

function previewStrings(): PreviewStrings {
  return {
    title: (n) => vscode.l10n.t('Preview of {0}', n),
    target: (l, b) => vscode.l10n.t('Service: {0} ({1})', l, b),
    summary: (items, requests) => vscode.l10n.t('{0} in {1}', itemsText(items), requestsText(requests)),
    nothingSent: vscode.l10n.t('Nothing has been sent. Send the document to run these requests.'),
    duplicates: (count, ids) => (count === 1 ? vscode.l10n.t('1 duplicate entry is sent once: {0}', ids) : vscode.l10n.t('{0} duplicate entries are sent once: {1}', count, ids)),
    warningsHeading: vscode.l10n.t('Warnings'),
    bodyHeading: vscode.l10n.t('Body (the same for every request)'),
    requestsHeading: vscode.l10n.t('Requests'),
    request: (i, total, items) => vscode.l10n.t('Request {0} of {1}: {2}', i, total, itemsText(items)),
    part: (i, total, items, description) =>
      description ? vscode.l10n.t('Request {0} of {1} in the document: {2} ({3})', i, total, itemsText(items), description) : vscode.l10n.t('Request {0} of {1} in the document: {2}', i, total, itemsText(items)),
    limits: (ids, url) => vscode.l10n.t('Split into requests of at most {0} IDs and at most {1} characters of URL.', ids, url),
    more: (n) => vscode.l10n.t('and {0} more', n),
  };
}

export async function previewUpdate(deps: RequestCommandDeps, arg?: unknown, many?: unknown): Promise<string | undefined> {
  const docs = await targetDocuments(arg, many);
  let last: string | undefined;
  for (const doc of docs) {
    const c = await checkAndPlan(doc, deps);
    last = renderPreview({ documentName: documentName(doc.uri), serviceLabel: c.info.label, plan: c.plan, documentWarnings: c.warnings }, previewStrings());
    await deps.previews.show(doc.uri, last);
    void setContext(ContextKeys.previewed, true);
    const table = (await deps.values?.previewValues(doc, c.plan, c.info)) as { lines?: { text: string; level: string }[] } | undefined;
    // What the read of the current values found wrong (work items that do not exist, ...) goes into the plan too,
    // so it is seen before anything is sent.
    const problems = (table?.lines ?? []).filter((l) => l.level === 'error');
    if (problems.length > 0) {
      last = `${last.trimEnd()}\n\n## ${vscode.l10n.t('Checked on the service')}\n\n${problems.map((p) => `- ${p.text}`).join('\n')}\n`;
      await deps.previews.show(doc.uri, last);
    }
  }
  return last;
}

/** Sends one or more documents in order; stops at the first that cannot be sent or that the user declines. */
export interface SendOutcome {
  document: string;
  baseUrl: string;
  jobId?: string;
  result: JobResult;
}

/** The confirmation asked before a large send: what is sent where, whether it can be undone, and how many calls it makes in how long. */
export function sendConfirmation(
  name: string,
  plan: Pick<JobPlan, 'ids' | 'requests'>,
  info: Pick<ConnectionInfo, 'label' | 'baseUrl'>,
  readValues: boolean,
  calls?: SendCalls,
  requestsPerMinute?: number,
): { message: string; detail: string } {
  const what = readValues
    ? vscode.l10n.t(
        '{0} sends {1} to {2} ({3}). The values before the update are read first and kept with the job, so that Create Undo Document can put them back.',
        name,
        requestsText(plan.requests.length),
        info.label,
        info.baseUrl,
      )
    : vscode.l10n.t(
        '{0} sends {1} to {2} ({3}). Reading values is off (workItemStudio.bulk.readValues), so the change cannot be undone from here.',
        name,
        requestsText(plan.requests.length),
        info.label,
        info.baseUrl,
      );
  return {
    message: vscode.l10n.t('Update {0} on {1}?', workItemsText(plan.ids.length), info.label),
    detail: calls && requestsPerMinute !== undefined ? `${what}\n\n${callsText(calls, requestsPerMinute)}` : what,
  };
}

/** "It makes 60 calls (20 reads before, 20 updates, 20 reads after): about 5.9 s at 600 calls a minute; the results show after about 3.9 s." */
export function callsText(c: SendCalls, requestsPerMinute: number): string {
  const seconds = (ms: number): string => (ms / 1000).toFixed(1);
  if (c.readsBefore === 0) {
    return c.total === 1
      ? vscode.l10n.t('It makes 1 call to the service: about {0} s at {1} calls a minute.', seconds(c.pacedMs), requestsPerMinute)
      : vscode.l10n.t('It makes {0} calls to the service: about {1} s at {2} calls a minute.', c.total, seconds(c.pacedMs), requestsPerMinute);
  }
  return c.exact
    ? vscode.l10n.t(
        'It makes {0} calls to the service (reads before: {1}, updates: {2}, reads after: {3}): about {4} s at {5} calls a minute; the results show after about {6} s, the values after fill in as they are read.',
        c.total,
        c.readsBefore,
        c.updates,
        c.readsAfter,
        seconds(c.pacedMs),
        requestsPerMinute,
        seconds(c.toResultMs),
      )
    : vscode.l10n.t(
        'It makes at least {0} calls to the service (reads before: {1}, updates: {2}, reads after: {3}, and reads of the parents and sub-items involved): at least {4} s at {5} calls a minute.',
        c.total,
        c.readsBefore,
        c.updates,
        c.readsAfter,
        seconds(c.pacedMs),
        requestsPerMinute,
      );
}

/**
 * The question asked before a send that cannot be undone (clearSchedule deletes schedule
 * links): what is lost and on how many items. Buttons: Don't Send (first: the default),
 * then the send; Cancel closes.
 */
export function irreversibleQuestion(name: string, plan: Pick<JobPlan, 'ids'>, info: Pick<ConnectionInfo, 'label'>): { message: string; detail: string; keep: string; send: string } {
  return {
    message: vscode.l10n.t('Delete the schedule links of {0} on {1}? This cannot be undone.', workItemsText(plan.ids.length), info.label),
    detail: vscode.l10n.t(
      '{0} clears the start and end dates of {1} and deletes their schedule links. Create Undo Document can put the dates back, but not the links: an update cannot create links again.',
      name,
      workItemsText(plan.ids.length),
    ),
    keep: vscode.l10n.t("Don't Send"),
    send: vscode.l10n.t('Clear and Delete Links'),
  };
}

export async function sendUpdate(deps: RequestCommandDeps, arg?: unknown, many?: unknown): Promise<SendOutcome[]> {
  const docs = await targetDocuments(arg, many);
  void deps.jobs.offerResumption();
  const results: SendOutcome[] = [];
  for (const doc of docs) {
    const c = await checkAndPlan(doc, deps);
    const settings = readSettings();
    if (!c.info.isSandbox && c.plan.ids.length > settings.bulk.confirmAboveItems) {
      const send = vscode.l10n.t('Send');
      const calls = core().sendCalls(c.plan, { readValues: settings.bulk.readValues, requestsPerMinute: settings.bulk.requestsPerMinute });
      const text = sendConfirmation(documentName(doc.uri), c.plan, c.info, settings.bulk.readValues, calls, settings.bulk.requestsPerMinute);
      const pick = await vscode.window.showWarningMessage(text.message, { modal: true, detail: text.detail }, send);
      if (pick !== send) {
        deps.log.info(`Send of ${documentName(doc.uri)} declined at the confirmation.`);
        break;
      }
    }
    if (deps.values?.confirmRepeat && !(await deps.values.confirmRepeat(doc, c.info))) {
      deps.log.info(`Send of ${documentName(doc.uri)} declined: the same text was already sent after its preview.`);
      break;
    }
    const irreversible = c.plan.parts.filter((p) => irreversibleChanges(p.update).length > 0);
    if (irreversible.length > 0) {
      const q = irreversibleQuestion(documentName(doc.uri), { ids: irreversible.flatMap((p) => p.ids) }, c.info);
      // The safe choice is the first button (the default of a modal message); the sending one is second.
      const pick = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, q.keep, q.send);
      if (pick !== q.send) {
        deps.log.info(`Send of ${documentName(doc.uri)} declined: it would delete schedule links, which cannot be undone.`);
        break;
      }
    }
    const result = await deps.jobs.runNew({ uri: doc.uri, text: doc.getText(), description: c.description, name: documentName(doc.uri) }, c.plan, c.info);
    results.push({ document: doc.uri.toString(), baseUrl: c.info.baseUrl, jobId: result.jobId, result });
    if (result.outcome === 'cancelled') break;
  }
  return results;
}
