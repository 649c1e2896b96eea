// The result view of a bulk job as HTML (a webview with a strict CSP: no remote
// resources, no inline script or style; its styles are files of media/results/, the table's
// of media/changes/, its script the page's bundle, src/changes/results/web/). No vscode import;
// every sentence comes from `ResultStrings` (the UI passes localized ones).
import type { JobResult, RequestError, RequestResult, RequestState } from '../../bulk/types';
import { userIdsInValue } from '../../common/model/users';
import type { WorkItemResult } from '../../schema/api';
import { CHANGE_TABLE_STYLES } from '../../webview/changeTable';
import { escapeHtml, PAGE_SCRIPTS, RELATIVE_ASSETS, scriptTag, webviewHead, type AssetUri } from '../../webview/html';
import type { ResultButtonName } from './resultProtocol';
import { core } from '../../core/load';

export interface ResultStrings {
  title: string;
  outcome: Record<JobResult['outcome'], string>;
  state: Record<RequestState, string>;
  /** The status of a request of unknown outcome that the user marked as applied. */
  markedApplied: string;
  /** The status of an add of unknown outcome whose items were found below its parent by their key. */
  foundByKey: string;
  /** An add of unknown outcome that a look could not settle: the parent, and the items that may be what it created ("123 (Release)"). */
  candidates(parentId: string, items: string): string;
  /** The look below an add's parent failed (the add was not sent again): why. */
  lookFailed(parentId: string, why: string): string;
  service(label: string): string;
  document(name: string): string;
  totals: string;
  requests: string;
  items: string;
  changedItems: string;
  affectedItems: string;
  addedTimeEntries: string;
  addedScheduleDependencies: string;
  retries: string;
  duration: string;
  errors: string;
  column: { index: string; status: string; http: string; duration: string; attempts: string; ids: string; id: string; fields: string };
  none: string;
  more(count: number): string;
  /** A localized sentence for the error (without the service's messages). */
  errorSummary(error: RequestError): string;
  serviceSaid: string;
  /** The service's messages, translated where they name a known code (see RequestError.entries). */
  serviceMessages(error: RequestError): string[];
  actions: {
    saveJson: string;
    retryFailed(count: number): string;
    resendUnknown(count: number): string;
    resume(count: number): string;
    /** "Remove Missing IDs and Send the Rest (N)": N is how many IDs the new job sends. */
    sendWithoutMissing(count: number): string;
    /** The same for refused requests that named no missing work item by a code (any status): the missing ones are found by reading them first. */
    findMissing: string;
    /** "Look for Added Items (N)": the adds of unknown outcome, looked for below their parents (a resumption). */
    lookForAdds(count: number): string;
    showLog: string;
    createUndo?: string;
  };
  /** The IDs the service said do not exist, and why the requests that named them sent nothing. */
  missing(count: number, ids: string): string;
  unknownExplained: string;
  truncated(shown: number, total: number): string;
  /** The name people read for a member of an item's answer (`actualProgress`: 進捗率); the member itself when not given. */
  fieldLabel?(member: string): string;
}

export const ENGLISH_RESULTS: ResultStrings = {
  title: 'Work item update results',
  outcome: { succeeded: 'Every request succeeded', partial: 'Some requests did not succeed', cancelled: 'Cancelled' },
  state: { pending: 'not sent', sent: 'sent', succeeded: 'succeeded', failed: 'failed', unknown: 'outcome unknown', cancelled: 'cancelled (outcome unknown)' },
  markedApplied: 'marked as applied by you',
  foundByKey: 'succeeded (its items were found by their key)',
  candidates: (parent, items) =>
    `Below ${parent}, items named like this add and new since it was sent may be what it created: ${items}. Resend Unknown… lets you mark one as what it created, or send the add again.`,
  lookFailed: (parent, why) => `The items below ${parent} could not be read to look for this add's items (it was not sent again): ${why}`,
  service: (l) => `Service: ${l}`,
  document: (n) => `Document: ${n}`,
  totals: 'Totals',
  requests: 'Requests',
  items: 'Items',
  changedItems: 'Changed items',
  affectedItems: 'Affected items',
  addedTimeEntries: 'Added time entries',
  addedScheduleDependencies: 'Added schedule dependencies',
  retries: 'Automatic retries',
  duration: 'Duration',
  errors: 'Errors',
  column: { index: '#', status: 'Status', http: 'HTTP', duration: 'Duration', attempts: 'Attempts', ids: 'Work item IDs', id: 'ID', fields: 'Fields' },
  none: 'None',
  more: (n) => `and ${n} more`,
  errorSummary: (e) => e.message,
  serviceSaid: 'The service said:',
  serviceMessages: (err) => err.messages,
  actions: {
    saveJson: 'Save as JSON',
    retryFailed: (n) => `Retry Failed (${n})`,
    resendUnknown: (n) => `Resend Unknown… (${n})`,
    resume: (n) => `Send Remaining (${n})`,
    sendWithoutMissing: (n) => `Remove Missing IDs and Send the Rest (${n})`,
    findMissing: 'Find Missing IDs and Send the Rest…',
    lookForAdds: (n) => `Look for Added Items (${n})`,
    showLog: 'Show Log',
  },
  missing: (n, ids) =>
    `${n === 1 ? '1 work item does' : `${n} work items do`} not exist: ${ids}. The service refused every request that named one, with all its other items.`,
  unknownExplained: 'The service may already have applied requests whose outcome is unknown; they are re-sent only when you confirm.',
  truncated: (shown, total) => `Showing ${shown} of ${total}; save as JSON for all of them.`,
};

function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function formatValue(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** Item fields other than `id`, as `name: value` lines; user IDs with the user's name when known. */
function fieldsOf(item: WorkItemResult, s: ResultStrings, userLabel?: (id: string) => string | undefined): string {
  return Object.entries(item)
    .filter(([k]) => k !== 'id')
    .map(([k, v]) => {
      const ids = [...userIdsInValue({ [k]: v })];
      const names = userLabel ? ids.flatMap((id) => { const l = userLabel(id); return l ? [`${id}: ${l}`] : []; }) : [];
      const who = names.length ? ` <span class="muted">(${escapeHtml(names.join(', '))})</span>` : '';
      const label = s.fieldLabel?.(k) ?? k;
      return `<div><span class="k" title="${escapeHtml(k)}">${escapeHtml(label)}</span>: ${escapeHtml(formatValue(v))}${who}</div>`;
    })
    .join('');
}

const MAX_ROWS = 500;

function idsCell(ids: readonly string[], s: ResultStrings): string {
  const head = ids.slice(0, 10).map(escapeHtml).join(', ');
  if (ids.length <= 10) return head;
  return `<details><summary>${head} ${escapeHtml(s.more(ids.length - 10))}</summary>${ids.slice(10).map(escapeHtml).join(', ')}</details>`;
}

function itemsTable(items: readonly WorkItemResult[], s: ResultStrings, userLabel?: (id: string) => string | undefined): string {
  if (items.length === 0) return `<p class="muted">${escapeHtml(s.none)}</p>`;
  const rows = items
    .slice(0, MAX_ROWS)
    .map((i) => `<tr><td class="mono">${escapeHtml(String(i.id))}</td><td>${fieldsOf(i, s, userLabel)}</td></tr>`)
    .join('');
  const note = items.length > MAX_ROWS ? `<p class="muted">${escapeHtml(s.truncated(MAX_ROWS, items.length))}</p>` : '';
  return `<table><thead><tr><th>${escapeHtml(s.column.id)}</th><th>${escapeHtml(s.column.fields)}</th></tr></thead><tbody>${rows}</tbody></table>${note}`;
}

function idList(values: readonly unknown[], s: ResultStrings): string {
  if (values.length === 0) return `<p class="muted">${escapeHtml(s.none)}</p>`;
  return `<p class="mono">${values.map((v) => escapeHtml(formatValue(v))).join(', ')}</p>`;
}

/** What the last look below an add's parent said, for an add of unknown outcome: the candidates, or why it failed. */
function lookHtml(r: RequestResult, s: ResultStrings): string {
  const parent = r.ids[0] ?? '';
  const out: string[] = [];
  if (r.candidates && r.candidates.length > 0) {
    out.push(`<p class="candidates">${escapeHtml(s.candidates(parent, r.candidates.map((c) => `${c.id} (${c.name})`).join(', ')))}</p>`);
  }
  if (r.checkError) out.push(`<p>${escapeHtml(s.lookFailed(parent, s.errorSummary(r.checkError)))}</p>`);
  return out.join('');
}

export interface ResultViewInput {
  /** The job shown: the view remembers it (webview state), so it comes back after a window reload. */
  jobId?: string;
  result: JobResult;
  serviceLabel: string;
  documentName: string;
  /** The name (and login name) of a user ID, when known: shown beside updatedBy, partyId and the like. */
  userLabel?: (id: string) => string | undefined;
  nonce: string;
  cspSource: string;
  /** The language of the page's text (the UI's: `lang` of the page, for screen readers). */
  lang?: string;
  /** The panel's address of a file of the extension (asWebviewUri); relative addresses when not given (tests). */
  assets?: AssetUri;
  /** The before → after section (src/webview/changeTable.ts `renderChangeTable`), when the job has a snapshot. */
  changes?: string;
  /** Offer "Create Undo Document" (the job has values from before sending and changed something). */
  undo?: boolean;
  /** Adds of unknown outcome a resumption looks for below their parent (src/bulk unknownAddIndexes). */
  addsToLook?: number;
}

/** Counts that decide which buttons the view offers. */
export function actionCounts(result: JobResult): { failed: number; unknown: number; pending: number } {
  const by = (st: RequestState): number => result.requests.filter((r) => r.state === st).length;
  return { failed: by('failed'), unknown: by('unknown') + by('cancelled'), pending: by('pending') };
}

/** A button of the page: a click posts its name (src/changes/results/web/). */
export function resultButton(name: ResultButtonName, label: string, secondary = false): string {
  return `<button data-command="${name}"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button>`;
}

export function renderResultHtml(input: ResultViewInput, s: ResultStrings = ENGLISH_RESULTS): string {
  const { result } = input;
  const t = result.totals;
  const e = escapeHtml;
  const counts = actionCounts(result);
  const missing = core().missingIdsOf(result);
  const changed = result.requests.flatMap((r) => r.response?.items ?? []);
  const affected = result.requests.flatMap((r) => r.response?.affectedItems ?? []);
  const timeEntries = result.requests.flatMap((r) => r.response?.addedTimeEntryIds ?? []);
  const dependencies = result.requests.flatMap((r) => r.response?.addedScheduleDependencyIds ?? []);
  const stateCells = (Object.keys(t.requestsByState) as RequestState[])
    .filter((st) => t.requestsByState[st] > 0)
    .map((st) => `<tr><th>${e(s.state[st])}</th><td>${t.requestsByState[st]}</td><td>${t.itemsByState[st]}</td></tr>`)
    .join('');
  const button = (name: ResultButtonName, label: string, secondary = false): string => resultButton(name, label, secondary);
  const buttons = [
    button('saveJson', s.actions.saveJson),
    // A refusal whose codes name no missing work item (any status; a plain `[{"message"}]` body): the missing IDs
    // (and so the count to send) are known only after reading them. Codes are a hint, never needed.
    core().unnamedNotFound(result).length > 0
      ? button('sendWithoutMissing', s.actions.findMissing)
      : missing.remaining.length > 0
        ? button('sendWithoutMissing', s.actions.sendWithoutMissing(missing.remaining.length))
        : '',
    counts.failed > 0 ? button('retryFailed', s.actions.retryFailed(counts.failed), missing.missing.length > 0) : '',
    counts.unknown > 0 ? button('resendUnknown', s.actions.resendUnknown(counts.unknown), true) : '',
    counts.pending > 0
      ? button('resume', s.actions.resume(counts.pending))
      : (input.addsToLook ?? 0) > 0
        ? button('resume', s.actions.lookForAdds(input.addsToLook!))
        : '',
    input.undo && s.actions.createUndo ? button('createUndo', s.actions.createUndo, true) : '',
    button('showLog', s.actions.showLog, true),
  ].join('');
  const requestRows = result.requests
    .slice(0, MAX_ROWS)
    .map(
      (r: RequestResult) =>
        `<tr class="st-${r.state}"><td>${r.index + 1}</td><td>${e(r.confirmedByUser ? s.markedApplied : r.matched === 'key' ? s.foundByKey : s.state[r.state])}</td><td>${r.status ?? ''}</td><td>${e(formatDuration(r.durationMs))}</td><td>${r.attempts}</td><td class="mono">${idsCell(r.ids, s)}</td></tr>`,
    )
    .join('');
  const failedOnes = result.requests.filter((r) => r.error && r.state !== 'succeeded');
  const errors = failedOnes.length
    ? failedOnes
        .map((r) => {
          const err = r.error!;
          const said = s.serviceMessages(err);
          const msgs = said.length
            ? `<p>${e(s.serviceSaid)}</p><ul>${said.map((m) => `<li>${e(m)}</li>`).join('')}</ul>`
            : '';
          return `<div class="error"><h3>${r.index + 1}. ${e(s.state[r.state])}${err.status ? ` · HTTP ${err.status}` : ''}</h3><p>${e(s.errorSummary(err))}</p>${msgs}${lookHtml(r, s)}<p class="mono small">${idsCell(r.ids, s)}</p></div>`;
        })
        .join('')
    : `<p class="muted">${e(s.none)}</p>`;
  const assets = input.assets ?? RELATIVE_ASSETS;
  return `${webviewHead({ title: s.title, nonce: input.nonce, cspSource: input.cspSource, assets, styles: ['media/results/result.css', ...(input.changes ? CHANGE_TABLE_STYLES : [])], ...(input.lang ? { lang: input.lang } : {}) })}
</head>
<body data-job-id="${e(input.jobId ?? '')}">
<h1>${e(s.outcome[result.outcome])}</h1>
<p>${e(s.service(input.serviceLabel))}<br>${e(s.document(input.documentName))}</p>
${missing.missing.length > 0 ? `<div class="error missing"><p>${e(s.missing(missing.missing.length, missing.missing.length > 50 ? `${missing.missing.slice(0, 50).join(', ')} ${s.more(missing.missing.length - 50)}` : missing.missing.join(', ')))}</p></div>` : ''}
<div class="actions">${buttons}</div>
${counts.unknown > 0 ? `<p>${e(s.unknownExplained)}</p>` : ''}
${input.changes ?? ''}
<h2>${e(s.totals)}</h2>
<table><thead><tr><th></th><th>${e(s.requests)}</th><th>${e(s.items)}</th></tr></thead><tbody>
<tr><th>${e(s.totals)}</th><td>${t.requests}</td><td>${t.items}</td></tr>${stateCells}</tbody></table>
<table><tbody>
<tr><th>${e(s.changedItems)}</th><td>${t.changedItems}</td></tr>
<tr><th>${e(s.affectedItems)}</th><td>${t.affectedItems}</td></tr>
<tr><th>${e(s.addedTimeEntries)}</th><td>${t.addedTimeEntries}</td></tr>
<tr><th>${e(s.addedScheduleDependencies)}</th><td>${t.addedScheduleDependencies}</td></tr>
<tr><th>${e(s.retries)}</th><td>${t.retries}</td></tr>
<tr><th>${e(s.duration)}</th><td>${e(formatDuration(result.durationMs))}</td></tr>
</tbody></table>
<h2>${e(s.requests)}</h2>
<table><thead><tr><th>${e(s.column.index)}</th><th>${e(s.column.status)}</th><th>${e(s.column.http)}</th><th>${e(s.column.duration)}</th><th>${e(s.column.attempts)}</th><th>${e(s.column.ids)}</th></tr></thead>
<tbody>${requestRows}</tbody></table>
${result.requests.length > MAX_ROWS ? `<p class="muted">${e(s.truncated(MAX_ROWS, result.requests.length))}</p>` : ''}
<h2>${e(s.errors)}</h2>
${errors}
<h2>${e(s.changedItems)}</h2>
${input.changes && changed.length > 0 ? `<details><summary>${e(s.column.fields)} (${changed.length})</summary>${itemsTable(changed, s, input.userLabel)}</details>` : itemsTable(changed, s, input.userLabel)}
<h2>${e(s.affectedItems)}</h2>
${itemsTable(affected, s, input.userLabel)}
<h2>${e(s.addedTimeEntries)}</h2>
${idList(timeEntries, s)}
<h2>${e(s.addedScheduleDependencies)}</h2>
${idList(dependencies, s)}
${scriptTag(assets, input.nonce, PAGE_SCRIPTS.results)}
</body></html>`;
}

/** The JSON saved by "Save as JSON": the whole result plus where it came from. */
export function resultJson(input: { result: JobResult; serviceLabel: string; baseUrl?: string; documentName: string }): string {
  return `${JSON.stringify({ service: input.serviceLabel, baseUrl: input.baseUrl, document: input.documentName, ...input.result }, null, 2)}\n`;
}
