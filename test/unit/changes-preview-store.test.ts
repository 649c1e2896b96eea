// Previews kept on disk (src/changes/previewStore.ts): Send compares with them after a
// window reload; they count only for the same document text and service, and for a week.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_AGE_MS, PreviewStore, sha256 } from '../../src/changes/previewStore';

describe('changes: previews kept across window reloads', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-previews-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const uri = 'file:///work/shift%20week.workitems.json';
  const text = '{"workItemIds":["122","123"],"update":{"moveScheduleDays":5}}';
  const baseUrl = 'https://tt.example.com/api';
  const takenAt = new Date('2026-11-25T08:00:00.000Z');
  const items = new Map<string, Record<string, unknown>>([
    ['122', { Id: '122', PlannedStartDate: '2026-03-02T00:00:00', PlannedFinishDate: '2026-03-13T00:00:00' }],
    ['__proto__', { Id: '__proto__', PlannedStartDate: null }],
  ]);
  const preview = { uri, text, baseUrl, takenAt, fields: ['PlannedStartDate', 'PlannedFinishDate'], items, missing: ['999'] };

  it('gives back the values of the same document text on the same service (a new store: as after a reload)', async () => {
    await new PreviewStore(dir).save(preview);
    const kept = await new PreviewStore(dir).load(uri, text, baseUrl, new Date(takenAt.getTime() + 60_000));
    assert.ok(kept);
    assert.deepEqual([...kept.items], [...items]);
    assert.deepEqual(kept.fields, ['PlannedStartDate', 'PlannedFinishDate']);
    assert.deepEqual(kept.missing, ['999']);
    assert.equal(kept.takenAt.toISOString(), takenAt.toISOString());
    assert.equal(Object.getPrototypeOf(kept.items.get('__proto__')), Object.prototype, 'an ID named __proto__ is a plain key');
  });

  it('counts only for the same text, service and document', async () => {
    const store = new PreviewStore(dir);
    await store.save(preview);
    const now = new Date(takenAt.getTime() + 1000);
    assert.equal(await store.load(uri, `${text} `, baseUrl, now), undefined, 'edited text');
    assert.equal(await store.load(uri, text, 'https://other.example.com/api', now), undefined, 'another service');
    assert.equal(await store.load('file:///work/other.workitems.json', text, baseUrl, now), undefined, 'another document');
  });

  it('keeps one preview per document: the next replaces it', async () => {
    const store = new PreviewStore(dir);
    await store.save(preview);
    await store.save({ ...preview, text: 'v2', items: new Map([['122', { Id: '122', PlannedStartDate: null }]]) });
    assert.equal(fs.readdirSync(dir).filter((n) => n.endsWith('.json')).length, 1);
    assert.equal(await store.load(uri, text, baseUrl, takenAt), undefined, 'the replaced text no longer counts');
    assert.deepEqual([...(await store.load(uri, 'v2', baseUrl, takenAt))!.items.keys()], ['122']);
  });

  it('a preview older than a week no longer counts, and is removed when another is kept', async () => {
    const store = new PreviewStore(dir);
    await store.save(preview);
    assert.ok(await store.load(uri, text, baseUrl, new Date(takenAt.getTime() + MAX_AGE_MS - 1)));
    assert.equal(await store.load(uri, text, baseUrl, new Date(takenAt.getTime() + MAX_AGE_MS)), undefined);
    const [file] = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
    const old = new Date(Date.now() - MAX_AGE_MS - 60_000);
    fs.utimesSync(path.join(dir, file!), old, old);
    await store.save({ ...preview, uri: 'untitled:Untitled-2', takenAt: new Date() });
    assert.equal(fs.readdirSync(dir).filter((n) => n.endsWith('.json')).length, 1, 'only the new preview is left');
    assert.equal(fs.existsSync(path.join(dir, file!)), false, 'the expired preview was removed');
  });

  it('a damaged or foreign file is no preview (Send goes on without the comparison)', async () => {
    const store = new PreviewStore(dir);
    await store.save(preview);
    const [file] = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
    fs.writeFileSync(path.join(dir, file!), '{"format":"workitem-studio.preview-values","version":1,"uri":');
    assert.equal(await store.load(uri, text, baseUrl, takenAt), undefined);
    fs.writeFileSync(path.join(dir, file!), JSON.stringify({ format: 'workitem-studio.preview-values', version: 1, uri, textHash: 'x', baseUrl, takenAt: takenAt.toISOString(), fields: [], items: { 122: 'not an object' } }));
    assert.equal(await store.load(uri, text, baseUrl, takenAt), undefined);
    assert.equal(await new PreviewStore(path.join(dir, 'absent')).load(uri, text, baseUrl, takenAt), undefined);
  });
});

describe('changes: a previewed document marked as sent (its Before/After view sends no more)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-previews-sent-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const uri = 'file:///work/shift.workitems.json';
  const text = '{"workItemIds":["122"],"update":{"moveScheduleDays":5}}';
  const baseUrl = 'http://127.0.0.1:1/api';
  const takenAt = new Date();
  const items = new Map<string, Record<string, unknown>>([['122', { Id: '122', PlannedStartDate: '2026-03-02' }]]);
  const preview = { uri, text, baseUrl, takenAt, fields: ['PlannedStartDate', 'PlannedFinishDate'], items, missing: [] };

  it('the send mark is kept on disk: a new store (as after a window reload) still sees it, with its job and text', async () => {
    await new PreviewStore(dir).save(preview);
    const at = new Date(takenAt.getTime() + 1000);
    assert.equal(await new PreviewStore(dir).sentOf(uri), undefined, 'not sent yet');
    assert.equal(await new PreviewStore(dir).markSent(uri, { at, jobId: 'job-1', textHash: sha256(text) }), true);
    const reloaded = new PreviewStore(dir);
    assert.deepEqual(await reloaded.sentOf(uri), { at, jobId: 'job-1', textHash: sha256(text) });
    const kept = await reloaded.load(uri, text, baseUrl);
    assert.deepEqual(kept?.sent, { at, jobId: 'job-1', textHash: sha256(text) }, 'the restored preview says it was sent');
    assert.equal(kept?.items.get('122')?.PlannedStartDate, '2026-03-02', 'the values before the send stay');
  });

  it('marks the document sent whatever text its preview was of; a new preview clears the mark', async () => {
    await new PreviewStore(dir).save(preview);
    const edited = `${text} `;
    await new PreviewStore(dir).markSent(uri, { at: new Date(), textHash: sha256(edited) });
    assert.equal((await new PreviewStore(dir).sentOf(uri))?.textHash, sha256(edited));
    assert.equal((await new PreviewStore(dir).sentOf(uri))?.jobId, undefined, 'sent without undo data: no job named');
    await new PreviewStore(dir).save({ ...preview, takenAt: new Date() });
    assert.equal(await new PreviewStore(dir).sentOf(uri), undefined, 'Preview Again: the view may send again');
  });

  it('nothing to mark without a kept preview, and a damaged mark counts as none', async () => {
    assert.equal(await new PreviewStore(dir).markSent(uri, { at: new Date(), textHash: 'x' }), false);
    await new PreviewStore(dir).save(preview);
    const file = path.join(dir, fs.readdirSync(dir)[0]!);
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...raw, sent: { at: 42 } }));
    assert.equal(await new PreviewStore(dir).sentOf(uri), undefined);
    assert.ok(await new PreviewStore(dir).load(uri, text, baseUrl), 'the values still count');
  });
});
