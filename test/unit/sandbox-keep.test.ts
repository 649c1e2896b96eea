// The sandbox never acknowledges what it did not keep: when the
// state file cannot be saved, an update or reset is answered 500 saying the change was
// not kept, and the change is taken back in memory. The state file and
// /_sandbox/dump are written as a stream (datasetJsonPieces), never as one string.
// Real failures: the state file's folder replaced by a file (ENOTDIR), the state file
// replaced by a folder (EISDIR on the rename); a failure in the middle of the text.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createSandbox, demoDataset, generateLargeProject, parseDataset, type Sandbox } from '../../src/sandbox';
import { datasetJsonPieces } from '../../src/sandbox/datasetJson';
import { readDatasetFile, StateWriter, writeDatasetFile } from '../../src/sandbox/state';
import { basic, call } from './sandbox-server-fixtures';

const ADMIN = basic('admin', 'password');

function put(sb: Sandbox, id: string, body: unknown) {
  return call(`${sb.url}/workitem/workItems/${id}`, { method: 'PUT', headers: ADMIN, body });
}
async function nameOf(sb: Sandbox, id: string): Promise<string> {
  const r = await call(`${sb.origin}/_sandbox/workitems/${id}`);
  assert.equal(r.status, 200, r.text);
  return (r.json as { name: string }).name;
}
async function readName(sb: Sandbox, id: string): Promise<string> {
  const r = await call(`${sb.url}/workitem/workItems/${id}?fields=Name`, { headers: ADMIN });
  assert.equal(r.status, 200, r.text);
  return (r.json as { fields: { Name: string } }[])[0]!.fields.Name;
}

describe('sandbox: nothing acknowledged that was not kept', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-keep-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('an update whose state file cannot be saved (its folder is gone: ENOTDIR) is answered 500 "not kept" and rolled back; a read after it shows the values before', async () => {
    const folder = path.join(dir, 'state');
    fs.mkdirSync(folder);
    const file = path.join(folder, 'state.json');
    const sb = await createSandbox({ statePath: file });
    try {
      assert.equal((await put(sb, '111', { fields: { Name: 'kept' } })).status, 200);
      const savedBefore = fs.readFileSync(file, 'utf8');
      // The folder is replaced by a file: every write of the state file now fails for real.
      fs.rmSync(folder, { recursive: true });
      fs.writeFileSync(folder, 'not a folder');
      const r = await put(sb, '111', { fields: { Name: 'lost' }, moveScheduleDays: 3 });
      assert.equal(r.status, 500, r.text);
      const [entry] = r.json as { message: string; code: string }[];
      assert.match(entry!.message, /the change was not kept/);
      assert.match(entry!.message, /state file .*state\.json could not be saved/);
      assert.match(entry!.message, /nothing was changed/);
      assert.equal(entry!.code, 'INTERNAL_ERROR');
      assert.equal(await nameOf(sb, '111'), 'kept', 'the change is rolled back in memory');
      assert.equal(await readName(sb, '111'), 'kept', 'an API read after the failure shows the value before');
      // Once the state file can be written again, the next update is kept (and the lost one is not in it).
      fs.rmSync(folder);
      fs.mkdirSync(folder);
      assert.equal((await put(sb, '112', { fields: { Name: 'later' } })).status, 200);
      const saved = parseDataset(JSON.parse(fs.readFileSync(file, 'utf8')));
      assert.equal(saved.workItems.find((w) => w.id === '111')!.name, 'kept');
      assert.equal(saved.workItems.find((w) => w.id === '112')!.name, 'later');
      assert.ok(savedBefore.length > 0);
    } finally {
      await sb.close();
    }
  });

  it('15 updates on a state file that cannot be replaced (a folder in its place: EISDIR) are 15 answers 500 and 0 changes kept in memory', async () => {
    const file = path.join(dir, 'state.json');
    const sb = await createSandbox({ statePath: file });
    try {
      const before = structuredClone(sb.data.workItems.find((w) => w.id === '111')!);
      fs.mkdirSync(file);
      const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => put(sb, '111', { fields: { Name: `lost ${i}` }, moveScheduleDays: 1 })));
      assert.deepEqual(answers.map((a) => a.status), Array(15).fill(500));
      assert.deepEqual(sb.data.workItems.find((w) => w.id === '111'), before, 'every value as before, updatedAt included');
      assert.deepEqual(fs.readdirSync(dir), ['state.json'], 'no temporary file left behind');
    } finally {
      await sb.close();
    }
  });

  it('a move and a schedule clear that could not be saved are taken back whole: parents, children lists and schedule links as before', async () => {
    const file = path.join(dir, 'state.json');
    const sb = await createSandbox({ statePath: file });
    const childIds = async (id: string) => {
      const r = await call(`${sb.url}/workitem/workItems/${id}/subItems?fields=Name`, { headers: ADMIN });
      assert.equal(r.status, 200, r.text);
      return ((r.json as { fields: { SubItems?: { fields: { Id: string } }[] } }[])[0]!.fields.SubItems ?? []).map((c) => c.fields.Id);
    };
    try {
      const under110 = await childIds('110');
      const under120 = await childIds('120');
      const links = structuredClone(sb.data.scheduleLinks);
      fs.mkdirSync(file);
      const moved = await put(sb, '111', { moveParentTo: '120' });
      assert.equal(moved.status, 500, moved.text);
      const cleared = await put(sb, '112', { clearSchedule: true });
      assert.equal(cleared.status, 500, cleared.text);
      assert.deepEqual(await childIds('110'), under110);
      assert.deepEqual(await childIds('120'), under120);
      assert.deepEqual(sb.data.scheduleLinks, links);
      // Saving works again. The update engine's own children lists were taken back too:
      // a change propagated to the children of 110 reaches 111 (and not of 120).
      fs.rmdirSync(file);
      const spread = await put(sb, '110', { fields: { Description: 'to all' }, propagateToChildren: { fields: 'Description' } });
      assert.equal(spread.status, 200, spread.text);
      assert.equal(sb.data.workItems.find((w) => w.id === '111')!.description, 'to all');
      // The same move is kept now, and the children lists follow it.
      assert.equal((await put(sb, '111', { moveParentTo: '120' })).status, 200);
      assert.ok((await childIds('120')).includes('111'));
      assert.ok(!(await childIds('110')).includes('111'));
    } finally {
      await sb.close();
    }
  });

  it('with plainErrors the failed save is answered 500 with the message only', async () => {
    const file = path.join(dir, 'state.json');
    const sb = await createSandbox({ statePath: file, plainErrors: true });
    try {
      fs.mkdirSync(file);
      const r = await put(sb, '111', { fields: { Name: 'lost' } });
      assert.equal(r.status, 500);
      const body = r.json as Record<string, unknown>[];
      assert.deepEqual(Object.keys(body[0]!), ['message']);
      assert.match(String(body[0]!.message), /the change was not kept/);
    } finally {
      await sb.close();
    }
  });

  it('a reset whose state file cannot be saved is answered 500 and the data set stays the one before', async () => {
    const file = path.join(dir, 'state.json');
    const sb = await createSandbox({ statePath: file });
    try {
      const items = sb.data.workItems.length;
      fs.mkdirSync(file);
      const small = { version: 2, organizations: [{ id: 'A', parentId: null, name: 'A' }] };
      const r = await call(`${sb.origin}/_sandbox/reset`, { method: 'POST', body: small });
      assert.equal(r.status, 500, r.text);
      assert.match(r.text, /the change was not kept/);
      assert.equal(sb.data.workItems.length, items);
      assert.equal((await call(`${sb.url}/system/users/me`, { headers: ADMIN })).status, 200, 'the users before the reset still sign in');
    } finally {
      await sb.close();
    }
  });

  it('a save that fails in the middle of the text leaves the state file as it was and no temporary file', async () => {
    const file = path.join(dir, 'state.json');
    fs.writeFileSync(file, '{"old": true}');
    function* failing(): Generator<string> {
      for (let i = 0; i < 3000; i++) yield `${'x'.repeat(2000)}\n`;
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
    await assert.rejects(writeDatasetFile(file, failing()), /ENOSPC/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"old": true}');
    assert.deepEqual(fs.readdirSync(dir), ['state.json']);
  });
});

describe('sandbox: the state file and the dump are streamed', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-stream-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('datasetJsonPieces gives JSON.stringify of the data set (lines: false) and the same value one line per element (lines: true)', () => {
    const d = { version: 2, empty: [], gone: undefined, fn: () => 1, list: [{ a: 1 }, undefined, 'x'], nested: { b: [1, 2] }, n: null };
    assert.equal([...datasetJsonPieces(d)].join(''), JSON.stringify(d));
    const lined = [...datasetJsonPieces(d, { lines: true })].join('');
    assert.deepEqual(JSON.parse(lined), JSON.parse(JSON.stringify(d)));
    assert.equal([...datasetJsonPieces({})].join(''), '{}');
    assert.equal([...datasetJsonPieces({}, { lines: true })].join(''), '{}');
  });

  it('the streaming writer saves 1,000,000 items (never one string) and the file reads back whole', async () => {
    const file = path.join(dir, 'big.json');
    const items = Array.from({ length: 1_000_000 }, (_, i) => ({ id: String(1_000_000 + i), parentId: i === 0 ? null : '1000000', name: `item ${i}` }));
    await new StateWriter(file).save({ version: 2, workItems: items } as never);
    const text = fs.readFileSync(file, 'utf8');
    const back = JSON.parse(text) as { workItems: { id: string; name: string }[] };
    assert.equal(back.workItems.length, 1_000_000);
    assert.equal(back.workItems[999_999]!.name, 'item 999999');
    assert.equal(text.split('\n').length, 1_000_000 + 5, 'one line per item, plus the lines of the object and its members');
  });

  it('a state file too large to be one string is read line by line (the layout the sandbox writes); another layout is refused naming the line', async () => {
    const file = path.join(dir, 'state.json');
    const data = parseDataset(demoDataset());
    await new StateWriter(file).save(data);
    // Threshold 0: every file is "too large", so the line reader reads this one.
    assert.deepEqual(await readDatasetFile(file, undefined, 0), data);
    fs.writeFileSync(file, JSON.stringify(data, null, 2));
    await assert.rejects(readDatasetFile(file, undefined, 0), (e: Error) => {
      assert.match(e.message, /state\.json/);
      assert.match(e.message, /line \d+: /);
      assert.match(e.message, /layout the sandbox writes/);
      return true;
    });
    fs.writeFileSync(file, [...datasetJsonPieces(data, { lines: true })].join('').slice(0, -2));
    await assert.rejects(readDatasetFile(file, undefined, 0), /ends before its closing/);
  });

  it('a large project (100,000 items) is saved after an update and dumped as a stream; both read back whole', async function () {
    this.timeout(120_000);
    const file = path.join(dir, 'state.json');
    const sb = await createSandbox({ statePath: file, data: generateLargeProject({ items: 100_000 }) });
    try {
      const id = '1000050';
      const r = await call(`${sb.url}/workitem/workItems/${id}`, { method: 'PUT', headers: ADMIN, body: { fields: { Name: 'saved in a stream' } } });
      assert.equal(r.status, 200, r.text);
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { workItems: { id: string; name: string }[] };
      assert.equal(saved.workItems.length, sb.data.workItems.length);
      assert.equal(saved.workItems.find((w) => w.id === id)!.name, 'saved in a stream');
      const dump = await call(`${sb.origin}/_sandbox/dump`);
      assert.equal(dump.status, 200);
      assert.equal(dump.headers['transfer-encoding'], 'chunked', 'the dump is sent as it is made');
      assert.equal(dump.text, JSON.stringify(sb.data), 'the dump is the data set, as JSON.stringify would give it');
    } finally {
      await sb.close();
    }
  });
});
