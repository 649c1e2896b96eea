// Send and Preview of request documents: each document checked completely and planned
// once (the plan carries the checked bodies down to the client), the confirmation with
// the calls it makes, the values before (src/changes/index.ts), then one job per document
// (./jobs) and its result view; Preview shows the plan, and the Before/After view of the
// values when they are read.
import * as vscode from 'vscode';
import type { JobPlan, JobResult, PlanProblem } from '../bulk';
import type { SendCalls } from '../bulk/sendCalls';
import { readSettings } from '../common/config';
import { ContextKeys, setContext } from '../common/contextKeys';
import { itemsText, requestsText, workItemsText } from '../common/wording';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import { NotConnectedError } from '../common/connection';
import { activeRequestDocument } from '../common/activeRequestDocument';
import { locatePath } from '../common/model/locate';
import { renderPreview, type PreviewStrings } from './model/markdownPreview';
import { irreversibleChanges } from './model/irreversible';
import type { PreviewDocuments } from './markdownPreviews';
import { analyzeText, documentName, isRequestDocumentUri } from '../common/requestDocument';
import { blockingProblems, issueText, lineList, locateIssueSpan } from '../common/documentCheck';
import type { RequestJobs } from './jobs';
import { refuseOtherService } from './jobs/running';
import { UserInputError } from '../common/commands';
import type { CatalogueState } from '../api/catalogue';
import type { ServiceFieldCatalogue } from '../schema/service-fields';
import { core } from '../core/load';

/** What Send and Preview use: the connection, the jobs, the previews, the service's field catalogue, the values before and after. */
export interface SendDeps {
  log: vscode.LogOutputChannel;
  connections: ConnectionManager;
  jobs: RequestJobs;
  previews: PreviewDocuments;
  /** The connected service's field catalogue (the checks before sending follow it). */
  fields?: { get(): Promise<CatalogueState | undefined>; peekCatalogue(): ServiceFieldCatalogue | undefined };
  /** Before/after values: Preview reads the current values and shows current → expected. */
  values?: {
    previewValues(doc: vscode.TextDocument, plan: JobPlan, info: ConnectionInfo): Promise<unknown>;
    /** Asks before the same text is sent again after it was sent following its preview; true: send. */
    confirmRepeat?(doc: vscode.TextDocument, info: ConnectionInfo): Promise<boolean>;
  };
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
async function checkAndPlan(doc: vscode.TextDocument, deps: SendDeps): Promise<Checked> {
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
  refuseOtherService({ text: doc.getText(), name, uri: doc.uri }, info, connections.profiles.list); // before any question: a document for another service is not sent
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
    case 'too-many-items-to-add':
      return vscode.l10n.t('one request adds {0} items with its sub-items; the service adds at most {1} in one request: split it into several "add" requests', p.count ?? 0, p.max ?? 0);
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

export async function previewUpdate(deps: SendDeps, arg?: unknown, many?: unknown): Promise<string | undefined> {
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

/** How many items a plan updates, adds and deletes. */
export function changeCounts(plan: Pick<JobPlan, 'parts'>): { updated: number; added: number; deleted: number } {
  const updated = new Set<string>();
  const deleted = new Set<string>();
  for (const p of plan.parts) for (const id of p.ids) (p.kind === 'delete' ? deleted : updated).add(id);
  return { updated: updated.size, added: core().newItemRows(plan).length, deleted: deleted.size };
}

/** The question of a confirmation: "Update 20 work items on X?", or what a change updates, adds and deletes. */
function confirmationQuestion(plan: Pick<JobPlan, 'ids' | 'parts'>, label: string): string {
  const c = changeCounts(plan);
  if (c.added === 0 && c.deleted === 0) return vscode.l10n.t('Update {0} on {1}?', workItemsText(plan.ids.length), label);
  const what: string[] = [];
  if (c.updated > 0) what.push(vscode.l10n.t('updates {0}', workItemsText(c.updated)));
  if (c.added > 0) what.push(vscode.l10n.t('adds {0}', workItemsText(c.added)));
  if (c.deleted > 0) what.push(vscode.l10n.t('deletes {0}', workItemsText(c.deleted)));
  return vscode.l10n.t('Send this change to {0}? It {1}.', label, what.join(vscode.l10n.t(', ')));
}

/** The confirmation asked before a large send: what is sent where, whether it can be undone, and how many calls it makes in how long. */
export function sendConfirmation(
  name: string,
  plan: Pick<JobPlan, 'ids' | 'requests'> & Partial<Pick<JobPlan, 'parts'>>,
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
  const deletes = (plan.parts ?? []).some((p) => p.kind === 'delete');
  const more = deletes
    ? `${what}\n\n${vscode.l10n.t('Deleted items stay on the service, marked deleted: Create Undo Document of this send restores them ("restore": true).')}`
    : what;
  return {
    message: plan.parts ? confirmationQuestion({ ids: plan.ids, parts: plan.parts }, info.label) : vscode.l10n.t('Update {0} on {1}?', workItemsText(plan.ids.length), info.label),
    detail: calls && requestsPerMinute !== undefined ? `${more}\n\n${callsText(calls, requestsPerMinute)}` : more,
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

export async function sendUpdate(deps: SendDeps, arg?: unknown, many?: unknown): Promise<SendOutcome[]> {
  const docs = await targetDocuments(arg, many);
  void deps.jobs.offerResumption();
  const results: SendOutcome[] = [];
  for (const doc of docs) {
    const c = await checkAndPlan(doc, deps);
    const settings = readSettings();
    // A change that adds counts its new items; one that deletes is always confirmed (outside the sandbox).
    const counts = changeCounts(c.plan);
    if (!c.info.isSandbox && (c.plan.ids.length + counts.added > settings.bulk.confirmAboveItems || counts.deleted > 0)) {
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
