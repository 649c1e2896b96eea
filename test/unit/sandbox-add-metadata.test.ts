// The sandbox as a service whose help lacks the `metadata` of an add (keepMetadata: false,
// --drop-metadata), and the faults that apply a change and then answer late or with a status
// (answerDelayMs, statusAfterApply), over real HTTP. Each test is named after the rule.
import * as assert from 'node:assert/strict';
import { METADATA_LIMITS } from '../../src/sandbox/additions/choices';
import { parseArgs } from '../../src/sandbox/cli';
import { Harness } from './sandbox-update-harness';

const task = (name: string, extra: object = {}) => ({ fields: { ItemTypeId: 'task', Name: name }, ...extra });

describe('sandbox that drops metadata (keepMetadata: false, --drop-metadata)', function () {
  const h = new Harness('professional');
  before(() => h.start(undefined, { keepMetadata: false }));
  after(() => h.stop());
  beforeEach(() => h.reset());

  it('an add with metadata is accepted; nothing of it is kept, answered or shown by the reads (by ID or in subItems)', async () => {
    const r = await h.api('POST', '/workitem/workItems/F2/subItems', { fields: { ItemTypeId: 'folder', Name: 'f' }, metadata: { key: 'job/0/0' }, subItems: [task('t', { metadata: { key: 'job/0/0.0' } })] });
    assert.equal(r.status, 200, r.raw);
    const items = (r.json as { items: Record<string, unknown>[] }).items;
    assert.equal(items.length, 2);
    for (const i of items) assert.equal('metadata' in i, false, 'the answer shows no metadata');
    const [f, t] = items.map((i) => String(i['id']));
    assert.equal((await h.item(f!)).metadata, undefined, 'nothing is kept');
    const byId = (await h.api('GET', `/workitem/workItems/${f},${t}?fields=Name`)).json as Record<string, unknown>[];
    assert.deepEqual(byId.map((x) => 'metadata' in x), [false, false]);
    const tree = (await h.api('GET', '/workitem/workItems/F2/subItems?fields=Name')).json as { fields: { SubItems: { metadata?: unknown; fields: { SubItems?: { metadata?: unknown }[] } }[] } }[];
    const nodes = tree[0]!.fields.SubItems.flatMap((n) => [n, ...(n.fields.SubItems ?? [])]);
    assert.ok(nodes.every((n) => n.metadata === undefined));
  });

  it('metadata over the limits is not checked either: a service that does not know the member ignores it', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: METADATA_LIMITS.entries + 1 }, (_, i) => [`k${i}`, 'v']));
    const r = await h.api('POST', '/workitem/workItems/F2/subItems', task('x', { metadata: tooMany }));
    assert.equal(r.status, 200, r.raw);
  });

  it('the CLI flag --drop-metadata asks for it (and takes no value)', () => {
    assert.equal(parseArgs(['--drop-metadata']).dropMetadata, true);
    assert.equal(parseArgs([]).dropMetadata, false);
    assert.throws(() => parseArgs(['--drop-metadata=yes']), /--drop-metadata takes no value/);
  });
});

describe('sandbox faults that apply first: answerDelayMs, statusAfterApply', function () {
  const h = new Harness('professional');
  before(() => h.start());
  after(() => h.stop());
  beforeEach(() => h.reset());

  it('statusAfterApply: the add is applied, then answered with the status (a gateway that forwarded it and answered 503 itself)', async () => {
    await h.fault({ method: 'POST', pathContains: '/subItems', statusAfterApply: 503 });
    const before = (await h.dump()).workItems.length;
    const r = await h.api('POST', '/workitem/workItems/F2/subItems', task('applied then 503'));
    assert.equal(r.status, 503, r.raw);
    assert.equal((r.json as { code: string }[])[0]!.code, 'SANDBOX_FAULT');
    const after = (await h.dump()).workItems;
    assert.equal(after.length, before + 1);
    assert.ok(after.some((w) => w.name === 'applied then 503'));
  });

  it('answerDelayMs: the update is applied at once and answered that much later', async () => {
    await h.fault({ method: 'PUT', answerDelayMs: 300 });
    const started = Date.now();
    const pending = h.put('T1', { fields: { Code: 'LATE' } });
    await new Promise((r) => setTimeout(r, 150));
    assert.equal((await h.item('T1')).code, 'LATE', 'applied before the answer');
    const r = await pending;
    assert.equal(r.status, 200, r.raw);
    assert.ok(Date.now() - started >= 290, 'answered late');
  });

  it('a request whose client goes away while a fault holds it is not applied (dropped, not left waiting for its body)', async () => {
    await h.fault({ method: 'POST', pathContains: '/subItems', latencyMs: 300 });
    const ac = new AbortController();
    const sent = h.api('POST', '/workitem/workItems/F2/subItems', task('held and dropped'), 'admin', ac.signal).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    ac.abort();
    await sent;
    await new Promise((r) => setTimeout(r, 400));
    assert.equal((await h.dump()).workItems.some((w) => w.name === 'held and dropped'), false);
  });
});
