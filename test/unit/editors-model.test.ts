import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planJob } from '../../src/bulk/plan';
import type { JobResult, RequestResult, RequestState } from '../../src/bulk/types';
import { totalsOf } from '../../src/bulk/engine';
import { insertionFor, readCategoryArg, readUserArg } from '../../src/editors/model/insert';
import { locatePath, memberNameSpan, parseText } from '../../src/common/model/locate';
import { renderPreview } from '../../src/changes/model/markdownPreview';
import { actionCounts, renderResultHtml, resultButton, resultJson } from '../../src/changes/model/results';
import { readResultMessage, restoredJobId, RESULT_BUTTONS, resultState } from '../../src/changes/model/resultProtocol';
import { pressed } from '../../src/webview/web/posted';
import { escapeHtml } from '../../src/webview/html';
import { missingFromRead, missingIdsOf, sameFailureAgain, unnamedNotFound } from '../../src/bulk/missing';
import { validateRequestDocument } from '../../src/schema/document';

const BASE = 'http://127.0.0.1:9/api';

function textAt(text: string, span: { offset: number; length: number }): string {
  return text.slice(span.offset, span.offset + span.length);
}

describe('editors: problem locations in the text', () => {
  const text = JSON.stringify({ workItemIds: ['1'], update: { assignmentChange: { Adds: [{ PartyId: 'u1', plannedTime: 'x' }] }, orderFirst: true } }, null, 2);
  const { root } = parseText(text);

  it('puts a value problem on the value, a name problem on the quoted name', () => {
    assert.equal(textAt(text, locatePath(root, ['update', 'orderFirst'])), 'true');
    assert.equal(textAt(text, locatePath(root, ['update', 'assignmentChange', 'Adds'], true)), '"Adds"');
    assert.equal(textAt(text, locatePath(root, ['update', 'assignmentChange', 'Adds', 0, 'plannedTime'])), '"x"');
  });

  it('puts a problem about an object on its member name, and a missing member on its nearest parent', () => {
    assert.equal(textAt(text, locatePath(root, ['update', 'assignmentChange'])), '"assignmentChange"');
    assert.equal(textAt(text, locatePath(root, ['update', 'moveParentTo'])), '"update"');
    assert.equal(textAt(text, locatePath(root, ['nothing'])), '{');
  });

  it('finds the name span for a rename, and every rename issue of a capitalised document points at its member', () => {
    assert.equal(textAt(text, memberNameSpan(root, ['update', 'assignmentChange', 'Adds', 0, 'PartyId'])!), '"PartyId"');
    const v = validateRequestDocument(JSON.parse(text));
    const renames = v.issues.filter((i) => i.fix?.kind === 'rename-member');
    assert.ok(renames.length >= 2, JSON.stringify(v.issues));
    for (const i of renames) {
      const span = memberNameSpan(root, i.path);
      assert.ok(span, `no member at ${JSON.stringify(i.path)}`);
      assert.equal(JSON.parse(textAt(text, span!)).toLowerCase(), (i.fix as { to: string }).to.toLowerCase());
    }
  });
});

describe('editors: inserting users and process categories', () => {
  const user = { id: 'u-17', loginName: 'tanaka', email: 't@example.com', name: 'Tanaka' };
  const doc = '{\n  "update": {\n    "assignmentChange": { "adds": [{ "user": , "partyId": "" }], "removeUsers": [""] },\n    "fields": { "LeaderId":  }\n  }\n}';

  it('inserts the login name where users are matched by name, quoted', () => {
    const at = doc.indexOf('"user": ') + 8;
    assert.deepEqual(insertionFor(doc, at, { user }), { text: '"tanaka"', value: 'tanaka', kind: 'loginName' });
  });

  it('inserts without quotes inside a string, and the ID for partyId', () => {
    const inParty = doc.indexOf('"partyId": "') + 12;
    assert.equal(insertionFor(doc, inParty, { user }).text, 'u-17');
    const inRemove = doc.indexOf('"removeUsers": ["') + 17;
    assert.equal(insertionFor(doc, inRemove, { user }).text, 'tanaka');
  });

  it('inserts the ID of a user for other fields and of a process category anywhere', () => {
    const at = doc.indexOf('"LeaderId":  ') + 12;
    assert.equal(insertionFor(doc, at, { user }).text, '"u-17"');
    assert.equal(insertionFor(doc, at, { category: { id: 'pc-3' } }).text, '"pc-3"');
  });

  it('reads tree nodes and plain objects, rejects anything without an id', () => {
    assert.equal(readUserArg({ user: { id: 'a', loginName: 'x' } })?.loginName, 'x');
    assert.equal(readUserArg({ id: 'b' })?.id, 'b');
    assert.equal(readUserArg({ user: {} }), undefined);
    assert.equal(readUserArg(undefined), undefined);
    assert.equal(readCategoryArg({ category: { id: 'c', name: 'n' } })?.id, 'c');
    assert.equal(readCategoryArg('c'), undefined);
  });
});

describe('editors: preview of a plan', () => {
  it('lists target, totals, duplicates, document warnings, the body and each request URL', () => {
    const ids = Array.from({ length: 1500 }, (_, i) => String(100 + i));
    const plan = planJob({ workItemIds: [...ids, '100', '101'], update: { moveScheduleDays: 7 }, baseUrl: BASE });
    const text = renderPreview({ documentName: 'a.workitems.json', serviceLabel: 'Sandbox', plan, documentWarnings: ['line 3: Member "Adds" should be written "adds"'] });
    assert.match(text, /^# Preview of a\.workitems\.json/);
    assert.match(text, /Service: Sandbox \(http:\/\/127\.0\.0\.1:9\/api\)/);
    assert.match(text, /\*\*1500 items in 2 requests\*\*/);
    assert.match(text, /2 duplicate entries are sent once: 100, 101/);
    assert.match(text, /line 3: Member "Adds"/);
    assert.match(text, /"moveScheduleDays": 7/);
    assert.match(text, /Request 1 of 2: 1000 items/);
    assert.match(text, /Request 2 of 2: 500 items/);
    assert.ok(text.includes(`PUT ${BASE}/workitem/workItems/100,101,102,`));
    assert.match(text, /Nothing has been sent/);
  });

  it('says "1 item in 1 request" in the singular and has no warnings section without warnings', () => {
    const plan = planJob({ workItemIds: ['7'], update: { setCompleted: true }, baseUrl: BASE });
    const text = renderPreview({ documentName: 'b.workitems.json', serviceLabel: 'S', plan, documentWarnings: [] });
    assert.match(text, /\*\*1 item in 1 request\*\*/);
    assert.doesNotMatch(text, /## Warnings/);
  });
});

function request(index: number, state: RequestState, extra: Partial<RequestResult> = {}): RequestResult {
  return { index, ids: [`${index}a`, `${index}b`], path: `/workitem/workItems/${index}a,${index}b`, state, attempts: state === 'pending' ? 0 : 1, ...extra };
}

function result(requests: RequestResult[]): JobResult {
  return {
    jobId: 'job-1',
    outcome: requests.every((r) => r.state === 'succeeded') ? 'succeeded' : 'partial',
    requests,
    totals: totalsOf(requests),
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.500Z',
    durationMs: 1500,
  };
}

describe('editors: result view', () => {
  const requests = [
    request(0, 'succeeded', {
      status: 200,
      durationMs: 120,
      response: {
        items: [{ id: '0a', updatedAt: '2026-01-01T09:00:00', plannedCost: 5 }],
        affectedItems: [{ id: 'child-1', statusTypeId: 'done' }],
        addedTimeEntryIds: ['te-1'],
        addedScheduleDependencyIds: [42],
      },
    }),
    request(1, 'failed', { status: 400, error: { kind: 'http', status: 400, messages: ['The item type is not available. <b>'], codes: [], message: 'PUT failed with status 400' } }),
    request(2, 'unknown', { error: { kind: 'network', messages: [], codes: [], message: 'connection reset' } }),
    request(3, 'pending'),
  ];
  const r = result(requests);
  const html = renderResultHtml({ result: r, serviceLabel: 'Sandbox <local>', documentName: 'x.workitems.json', nonce: 'NONCE123', cspSource: 'vscode-webview:' });

  it('has a strict CSP: nothing by default, nonce scripts and styles, no remote resources', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-NONCE123'/);
    assert.match(csp, /style-src vscode-webview:;/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.ok(scripts.length > 0 && scripts.every((s) => s.includes('nonce="NONCE123"')));
    assert.doesNotMatch(html, /(src|href)="https?:/);
  });

  it('loads its styles from media/ files and its script from the page\'s bundle (no inline script or style), the table\'s style only with a table', () => {
    const files = (h: string) => [...h.matchAll(/<(?:script[^>]*src|link rel="stylesheet" href)="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(files(html), ['media/changes/page.css', 'media/results/result.css', 'dist/web/results.js']);
    assert.doesNotMatch(html, /<script nonce="[^"]*">|<style|style="/);
    const withTable = renderResultHtml({ result: r, serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c', changes: '<section id="wis-changes"></section>', assets: (f) => `vscode-webview://x/${f}` });
    assert.deepEqual(files(withTable), ['media/changes/page.css', 'media/results/result.css', 'media/changes/table.css', 'dist/web/results.js'].map((f) => `vscode-webview://x/${f}`));
    for (const f of files(html).filter((f) => f!.startsWith('media/'))) assert.ok(fs.existsSync(path.join(__dirname, '..', '..', f!)), f);
  });

  it('shows totals, each request, changed and affected items with fields, added IDs and the service messages, escaped', () => {
    assert.match(html, /Sandbox &lt;local&gt;/);
    assert.match(html, /0a/);
    assert.match(html, /plannedCost<\/span>: 5/);
    assert.match(html, /child-1/);
    assert.match(html, /statusTypeId<\/span>: done/);
    assert.match(html, /te-1/);
    assert.match(html, />42</);
    assert.match(html, /The item type is not available\. &lt;b&gt;/);
    assert.doesNotMatch(html, /<b>/);
    assert.match(html, /outcome unknown/);
  });

  it('offers Save as JSON, Retry Failed, Resend Unknown… and Send Remaining by counts', () => {
    assert.deepEqual(actionCounts(r), { failed: 1, unknown: 1, pending: 1 });
    for (const c of ['saveJson', 'retryFailed', 'resendUnknown', 'resume']) assert.match(html, new RegExp(`data-command="${c}"`));
    const ok = renderResultHtml({ result: result([requests[0]!]), serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
    assert.doesNotMatch(ok, /data-command="retryFailed"|data-command="resendUnknown"|data-command="resume"/);
  });

  it('remembers its job in the webview state, so the view comes back after a window reload', () => {
    const withJob = renderResultHtml({ jobId: 'job-7"x', result: r, serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
    assert.match(withJob, /<body data-job-id="job-7&quot;x">/);
    assert.match(withJob, /<script nonce="n" src="dist\/web\/results\.js"><\/script>/);
    // The page (src/changes/results/web/main.ts) keeps the job of its body as the webview state and posts clicks as the extension reads them.
    assert.deepEqual(resultState('job-7"x'), { jobId: 'job-7"x' });
    assert.deepEqual(resultState(undefined), {});
    const click = pressed(RESULT_BUTTONS, { command: 'saveJson', disabled: false });
    assert.deepEqual(click, { type: 'command', name: 'saveJson' });
    assert.deepEqual(readResultMessage(click), click);
    const undoButton = /<button data-command="([^"]+)"/.exec(resultButton('sendAllUndo', 'Send All'))![1]!;
    assert.deepEqual(readResultMessage(pressed(RESULT_BUTTONS, { command: undoButton, disabled: false })), { type: 'command', name: 'sendAllUndo' });
    for (const name of [...html.matchAll(/data-command="([^"]+)"/g)].map((m) => m[1]!)) assert.ok(pressed(RESULT_BUTTONS, { command: name, disabled: false }), `the page posts ${name}`);
    assert.equal(pressed(RESULT_BUTTONS, { command: 'deleteEverything', disabled: false }), undefined, 'a name the view does not have posts nothing');
    assert.equal(readResultMessage({ command: 'saveJson' }), undefined, 'one envelope: a message says what it is by its type');
    assert.equal(restoredJobId({ jobId: '20261123-1402-ab12' }), '20261123-1402-ab12');
    for (const bad of [undefined, null, 'x', {}, { jobId: 3 }, { jobId: '../etc/passwd' }, { jobId: '' }]) assert.equal(restoredJobId(bad), undefined, JSON.stringify(bad));
  });

  it('saves the whole result as JSON with its origin', () => {
    const saved = JSON.parse(resultJson({ result: r, serviceLabel: 'Sandbox', baseUrl: BASE, documentName: 'x.workitems.json' }));
    assert.equal(saved.service, 'Sandbox');
    assert.equal(saved.requests.length, 4);
    assert.equal(saved.requests[0].response.items[0].id, '0a');
    assert.equal(saved.totals.requestsByState.failed, 1);
  });

  it('escapes every HTML special character', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('editors: result view of work items that do not exist', () => {
  const notFound = (ids: string[]) => ({
    kind: 'http' as const,
    status: 404,
    messages: ids.map((id) => `Work item ${id} does not exist.`),
    codes: ids.map(() => 'WORK_ITEM_NOT_FOUND'),
    entries: ids.map((id) => ({ message: `Work item ${id} does not exist.`, code: 'WORK_ITEM_NOT_FOUND', params: { id }, itemId: id })),
    message: 'PUT failed with status 404',
  });
  const r = result([
    request(0, 'succeeded', { status: 200 }),
    request(1, 'failed', { ids: ['120', '999', '121'], status: 404, error: notFound(['999']) }),
    request(2, 'failed', { ids: ['122', '998', '997'], status: 404, error: notFound(['998', '997', 'not-in-this-request']) }),
    request(3, 'failed', { ids: ['5'], status: 400, error: { kind: 'http', status: 400, messages: ['bad'], codes: ['NAME_TOO_LONG'], message: 'x' } }),
  ]);

  it('names the missing IDs (from the error codes, only IDs the request named) and what is left to send', () => {
    assert.deepEqual(missingIdsOf(r), { missing: ['999', '998', '997'], requests: [1, 2], remaining: ['120', '121', '122'] });
    assert.deepEqual(missingIdsOf(result([request(0, 'failed', { status: 404, error: { kind: 'http', status: 404, messages: ['Not found'], codes: [], message: 'x' } })])).missing, [], 'a 404 without codes names nothing');
  });

  it('shows them and offers "Remove Missing IDs and Send the Rest" with the count of IDs it sends', () => {
    // Without request 3 (a 400 whose code names no missing item: its IDs would be read first, codes being a hint only).
    const html = renderResultHtml({ result: result(r.requests.slice(0, 3)), serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
    assert.match(html, /3 work items do not exist: 999, 998, 997\. The service refused every request that named one/);
    assert.match(html, /<button data-command="sendWithoutMissing">Remove Missing IDs and Send the Rest \(3\)<\/button>/);
    const plain = renderResultHtml({ result: result([request(3, 'failed', { status: 500, error: { kind: 'http', status: 500, messages: [], codes: [], message: 'x' } })]), serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
    assert.doesNotMatch(plain, /sendWithoutMissing|do not exist/);
  });

  it('a 404 that names no work item offers "Find Missing IDs and Send the Rest…"; a read of the IDs then names them and what is left', () => {
    const plain404 = { kind: 'http' as const, status: 404, messages: ['Not found'], codes: [], message: 'x' };
    const unnamed = result([
      request(0, 'failed', { ids: ['120', '999', '121'], status: 404, error: plain404 }),
      request(1, 'failed', { ids: ['5'], status: 400, error: { kind: 'http', status: 400, messages: ['bad'], codes: [], message: 'x' } }),
      request(2, 'failed', { ids: ['130', '131'], status: 404, error: plain404 }),
      request(3, 'failed', { ids: ['7'], status: 404, error: notFound(['7']) }),
    ]);
    // Requests 0, 1 and 2: refused without a code naming a missing item, whatever the status. Request 3 names its missing ID.
    assert.deepEqual(unnamedNotFound(unnamed), [0, 1, 2]);
    assert.deepEqual(unnamedNotFound(r), [3], 'every 404 of the other job named its missing IDs; its 400 names none (its code is no contract)');
    // What a read found missing: only IDs of the requests asked count.
    assert.deepEqual(missingFromRead(unnamed, [0, 2], ['999', '5', 'x']), { missing: ['999'], requests: [0], remaining: ['120', '121'] });
    assert.deepEqual(missingFromRead(unnamed, [0, 2], []), { missing: [], requests: [], remaining: [] });
    const only = renderResultHtml({ result: result([unnamed.requests[0]!]), serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
    assert.match(only, /<button data-command="sendWithoutMissing">Find Missing IDs and Send the Rest…<\/button>/);
    // Some named, some not: the count to send is known only after the read, so the button finds them first.
    const mixed = renderResultHtml({ result: unnamed, serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
    assert.match(mixed, /Find Missing IDs and Send the Rest…/);
    assert.doesNotMatch(mixed, /Remove Missing IDs and Send the Rest \(/);
  });

  it('knows which failures a plain retry repeats, and why', () => {
    assert.equal(sameFailureAgain(r.requests[1]!.error), 'missing-ids');
    assert.equal(sameFailureAgain(r.requests[3]!.error), 'refused');
    for (const status of [408, 409, 429, 500, 503]) assert.equal(sameFailureAgain({ kind: 'http', status, messages: [], codes: [], message: 'x' }), undefined, String(status));
    assert.equal(sameFailureAgain({ kind: 'connect', messages: [], codes: [], message: 'refused' }), undefined);
    assert.equal(sameFailureAgain(undefined), undefined);
  });
});
