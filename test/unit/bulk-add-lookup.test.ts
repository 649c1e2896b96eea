// Adds of unknown outcome looked for before anything is sent again, against the real sandbox
// over HTTP: what the journal keeps before an add leaves (the key of its items, the parent's
// sub-items then), a failed read before the add (not sent) or during the look (not sent, kept
// as the reason), Resend Unknown of an add that happened (found, not sent), a sandbox that drops
// metadata (the candidate named by the user becomes what the undo deletes), and a journal of
// version 5, whose adds carry no key.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../src/api/client';
import { ADD_KEY, addedItems, confirmUnknown, JobJournal, planChange, resendUnknown, resultFromJournal, resumeJob, retryFailed, runJob, unknownAddIndexes, type BulkClient, type ChangeRequest } from '../../src/bulk';
import { planUndoForJob } from '../../src/bulk/jobValues';
import { renderResultHtml } from '../../src/changes/model/results';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox';
import { addOf, liveSubtree, parentFolders } from './bulk-add-fault-helpers';
import { clientFor, fault } from './bulk-helpers';

const FAST = { requestsPerMinute: Infinity, allowAboveServiceLimit: true, addSettleMs: 0 } as const;

describe('bulk adds of unknown outcome: looked for below their parent before anything is sent again', function () {
  this.timeout(60_000);
  let kept: Sandbox;
  let dropped: Sandbox;
  let keptClient: ServiceClient;
  let droppedClient: ServiceClient;
  let dir: string;
  let n = 0;
  before(async () => {
    const data = () => generateDataset({ workItems: 120, users: 10, organizations: 2, processCategories: 0, seed: 7 });
    kept = await createSandbox({ data: data() });
    dropped = await createSandbox({ data: data(), keepMetadata: false });
    keptClient = clientFor(kept, { headersMs: 3000 });
    droppedClient = clientFor(dropped, { headersMs: 3000 });
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-add-lookup-'));
  });
  after(async () => {
    await keptClient.close();
    await droppedClient.close();
    await kept.close();
    await dropped.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const named = (sb: Sandbox, name: string) => sb.data.workItems.filter((w) => !w.isDeleted && w.name === name);
  /** The client, counting the POSTs it sends. */
  const counting = (client: ServiceClient) => {
    const posts: string[] = [];
    const c: BulkClient & { posts: string[] } = {
      posts,
      updateWorkItems: (i, b, o) => client.updateWorkItems(i, b, o),
      addSubItems: (p, b, o) => (posts.push(p), client.addSubItems(p, b, o)),
      getSubItems: (i, q, o) => client.getSubItems(i, q, o),
      getWorkItems: (i, f, o) => client.getWorkItems(i, f, o),
    };
    return c;
  };
  async function job(sb: Sandbox, requests: ChangeRequest[]) {
    const plan = planChange({ requests, baseUrl: sb.url });
    const journal = await JobJournal.create(dir, { source: { uri: `untitled:lookup-${++n}.workitems.json`, text: '{}' }, plan });
    return { plan, journal };
  }

  it('before an add leaves, the journal keeps the key of its items and the IDs of the parent\'s sub-items; each item carries its key', async () => {
    const parent = parentFolders(kept)[0]!;
    const below = kept.data.workItems.filter((w) => !w.isDeleted && w.parentId === parent).map((w) => w.id);
    const { plan, journal } = await job(kept, [{ workItemIds: [], update: {}, kind: 'add', add: { parentId: parent, item: { fields: { ItemTypeId: '41', Name: 'Keyed' }, metadata: { mine: 'kept' }, subItems: [{ fields: { ItemTypeId: '42', Name: 'Keyed task' } }] } } }]);
    assert.equal((await runJob(plan, { client: keptClient, journal, ...FAST })).outcome, 'succeeded');
    const onDisk = await JobJournal.load(journal.file);
    assert.equal(onDisk.data.version, 6);
    assert.deepEqual(onDisk.requests[0]!.addCheck, { key: `${journal.id}/0`, before: below });
    const top = named(kept, 'Keyed')[0]!;
    assert.deepEqual(top.metadata, { mine: 'kept', [ADD_KEY]: `${journal.id}/0/0` }, 'the document\'s metadata with the key merged in');
    assert.deepEqual(named(kept, 'Keyed task')[0]!.metadata, { [ADD_KEY]: `${journal.id}/0/0.0` });
  });

  it('the read before an add fails: the add is not sent (failed, said so); Retry Failed reads again and sends it once', async () => {
    const parent = parentFolders(kept)[1]!;
    const { plan, journal } = await job(kept, [addOf(parent, 'Read first', 1)]);
    await fault(kept, { method: 'GET', pathContains: `/workItems/${parent}/subItems`, status: 500 });
    const c = counting(keptClient);
    const result = await runJob(plan, { client: c, journal, ...FAST });
    assert.equal(result.requests[0]!.state, 'failed');
    assert.equal(result.requests[0]!.error?.step, 'add-read');
    assert.deepEqual(c.posts, [], 'not sent');
    const again = await retryFailed(await JobJournal.load(journal.file), { client: c, ...FAST });
    assert.equal(again.requests[0]!.state, 'succeeded');
    assert.deepEqual(c.posts, [parent]);
    assert.equal(named(kept, 'Read first').length, 1);
  });

  it('the look below the parent fails: the add stays unknown, not sent, the failure kept; the next resumption finds it by its key', async () => {
    const parent = parentFolders(kept)[2]!;
    const { plan, journal } = await job(kept, [addOf(parent, 'Look fails', 0)]);
    await fault(kept, { method: 'POST', pathContains: `/workItems/${parent}/subItems`, dropAfterApply: true });
    assert.equal((await runJob(plan, { client: keptClient, journal, ...FAST })).requests[0]!.state, 'unknown');
    await fault(kept, { method: 'GET', pathContains: `/workItems/${parent}/subItems`, status: 500 });
    const c = counting(keptClient);
    const first = await resumeJob(await JobJournal.load(journal.file), { client: c, ...FAST, withoutUndo: true });
    assert.equal(first.requests[0]!.state, 'unknown');
    assert.equal(first.requests[0]!.checkError?.status, 500);
    assert.deepEqual(c.posts, []);
    const second = await resumeJob(await JobJournal.load(journal.file), { client: c, ...FAST, withoutUndo: true });
    assert.equal(second.requests[0]!.state, 'succeeded');
    assert.equal(second.requests[0]!.matched, 'key');
    assert.equal(second.requests[0]!.checkError, undefined);
    assert.deepEqual(c.posts, [], 'found, never sent again');
    assert.equal(named(kept, 'Look fails').length, 1);
    // The result view says how it succeeded.
    const html = renderResultHtml({ result: resultFromJournal(await JobJournal.load(journal.file)), serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
    assert.match(html, /<tr class="st-succeeded"><td>1<\/td><td>succeeded \(its items were found by their key\)<\/td>/);
  });

  it('Resend Unknown of an add that happened (metadata kept): found by its key, not sent; one that did not happen is sent once', async () => {
    const [p1, p2] = parentFolders(kept).slice(3);
    const { plan, journal } = await job(kept, [addOf(p1!, 'Resend found', 1), addOf(p2!, 'Resend sent', 0)]);
    await fault(kept, { method: 'POST', pathContains: `/workItems/${p1}/subItems`, statusAfterApply: 503 });
    await fault(kept, { method: 'POST', pathContains: `/workItems/${p2}/subItems`, status: 503 });
    const result = await runJob(plan, { client: keptClient, journal, ...FAST });
    assert.deepEqual(result.requests.map((r) => r.state), ['unknown', 'unknown']);
    const c = counting(keptClient);
    const resent = await resendUnknown(await JobJournal.load(journal.file), [0, 1], { client: c, ...FAST });
    assert.deepEqual(resent.requests.map((r) => [r.state, r.matched]), [['succeeded', 'key'], ['succeeded', undefined]]);
    assert.deepEqual(c.posts, [p2], 'only the add that did not happen is sent');
    assert.equal(named(kept, 'Resend found').length, 1);
    assert.equal(named(kept, 'Resend sent').length, 1);
  });

  it('metadata dropped: an add that happened is reported with its candidate; marked as applied with it, the add holds its IDs and the undo deletes them', async () => {
    const parent = parentFolders(dropped)[0]!;
    const { plan, journal } = await job(dropped, [addOf(parent, 'No key', 2)]);
    await fault(dropped, { method: 'POST', pathContains: `/workItems/${parent}/subItems`, dropAfterApply: true });
    await runJob(plan, { client: droppedClient, journal, ...FAST });
    const c = counting(droppedClient);
    const resumed = await resumeJob(await JobJournal.load(journal.file), { client: c, ...FAST, withoutUndo: true });
    const top = named(dropped, 'No key')[0]!.id;
    assert.equal(resumed.requests[0]!.state, 'unknown');
    assert.deepEqual(resumed.requests[0]!.candidates, [{ id: top, name: 'No key', ids: liveSubtree(dropped, top) }]);
    assert.deepEqual(c.posts, [], 'not sent: it cannot be told whether it happened');
    const j = await JobJournal.load(journal.file);
    // What the user sees: the candidate (ID and name) in the result view, and the button that looks again.
    const html = renderResultHtml({ result: resultFromJournal(j), serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c', addsToLook: unknownAddIndexes(j).length });
    assert.ok(html.includes(`Below ${parent}, items named like this add and new since it was sent may be what it created: ${top} (No key).`), html);
    assert.match(html, /data-command="resume">Look for Added Items \(1\)</);
    await assert.rejects(confirmUnknown(j, [0], new Map([[0, '999999']])), /not a candidate/);
    await confirmUnknown(j, [0], new Map([[0, top]]));
    const done = await JobJournal.load(journal.file);
    assert.equal(done.requests[0]!.matched, 'candidate');
    const [added] = addedItems(done.plan, done.requests);
    assert.deepEqual(added!.ids, liveSubtree(dropped, top));
    const { plan: undo } = await planUndoForJob(done);
    assert.deepEqual(undo.documents, [{ kind: 'delete', workItemIds: [top], update: {} }]);
  });

  it('metadata dropped: an add that did not happen (nothing new of its name) is sent on resumption, once; Resend Unknown sends an undecided one on the user\'s word', async () => {
    const [p1, p2] = parentFolders(dropped).slice(1);
    const { plan, journal } = await job(dropped, [addOf(p1!, 'Never landed', 0), addOf(p2!, 'User resends', 0)]);
    await fault(dropped, { method: 'POST', pathContains: `/workItems/${p1}/subItems`, dropBeforeApply: true });
    await fault(dropped, { method: 'POST', pathContains: `/workItems/${p2}/subItems`, dropAfterApply: true });
    await runJob(plan, { client: droppedClient, journal, ...FAST });
    const c = counting(droppedClient);
    const resumed = await resumeJob(await JobJournal.load(journal.file), { client: c, ...FAST, withoutUndo: true });
    assert.deepEqual(resumed.requests.map((r) => r.state), ['succeeded', 'unknown']);
    assert.deepEqual(c.posts, [p1]);
    assert.equal(named(dropped, 'Never landed').length, 1);
    await resendUnknown(await JobJournal.load(journal.file), [1], { client: c, ...FAST });
    assert.deepEqual(c.posts, [p1, p2], 'sent on the user\'s word');
    assert.equal(named(dropped, 'User resends').length, 2, 'the user chose to add it again');
  });

  it('a journal of version 5 (its adds sent without keys, no sub-items kept) is read; its add of unknown outcome is looked for by name only', async () => {
    const parent = parentFolders(kept)[5]!;
    const { plan, journal } = await job(kept, [addOf(parent, 'Version five', 0)]);
    await fault(kept, { method: 'POST', pathContains: `/workItems/${parent}/subItems`, dropAfterApply: true });
    await runJob(plan, { client: keptClient, journal, ...FAST });
    // As an earlier version wrote it: version 5, nothing kept to find the add again.
    const json = JSON.parse(await fsp.readFile(journal.file, 'utf8')) as { version: number; requests: Record<string, unknown>[] };
    json.version = 5;
    delete json.requests[0]!.addCheck;
    await fsp.writeFile(journal.file, JSON.stringify(json));
    const old = await JobJournal.load(journal.file);
    assert.equal(old.data.version, 5);
    const c = counting(keptClient);
    const resumed = await resumeJob(old, { client: c, ...FAST, withoutUndo: true });
    const top = named(kept, 'Version five')[0]!.id;
    assert.equal(resumed.requests[0]!.state, 'unknown');
    assert.deepEqual(resumed.requests[0]!.candidates?.map((x) => x.id), [top]);
    assert.deepEqual(c.posts, []);
    assert.equal((await JobJournal.load(journal.file)).data.version, 6, 'rewritten in the current version by the run');
  });
});
