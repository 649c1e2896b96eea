// kill -9 of the sandbox while it persists updates to its state file (--state):
// after every restart the state file loads, holds every update that was answered
// 200 (plus, at most, the one in flight), and no temp file of an interrupted write
// is left beside it; an added tree is kept whole or not at all, and deleted items stay
// in the file (marked deleted) so that they can be restored. (bulk-resume.test.ts kills the bulk client the same way.)
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const BASIC = `Basic ${Buffer.from('admin:password').toString('base64')}`;

function startCli(state: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string; origin: string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(root, 'src', 'sandbox', 'cli.ts'), '--state', state], { cwd: root });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (\S+)\n/.exec(out);
      if (m) resolve({ child, url: m[1]!, origin: new URL(m[1]!).origin });
    });
    child.on('exit', (code) => reject(new Error(`the sandbox ended (${code}): ${stderr}`)));
  });
}

function rename(url: string, name: string): Promise<Response> {
  return fetch(`${url}/workitem/workItems/111,112`, {
    method: 'PUT',
    headers: { authorization: BASIC, 'content-type': 'application/json' },
    body: JSON.stringify({ fields: { Name: name, Description: name.repeat(200) } }),
  });
}

const api = (url: string, method: string, path: string, body?: unknown): Promise<Response> =>
  fetch(`${url}${path}`, { method, headers: { authorization: BASIC, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

/** A folder with two tasks below the demo's root folder 10, marked by `metadata.key`. */
const tree = (key: string) => ({
  fields: { ItemTypeId: '41', Name: key },
  metadata: { key },
  subItems: [{ fields: { ItemTypeId: '42', Name: `${key}/a` } }, { fields: { ItemTypeId: '42', Name: `${key}/b` } }],
});

interface Stored {
  id: string;
  parentId: string | null;
  name: string;
  isDeleted: boolean;
  deletedWith?: string;
  metadata?: Record<string, string>;
}

describe('sandbox: kill -9 while writing the state file', function () {
  this.timeout(50_000);
  let dir: string;
  let running: ChildProcessWithoutNullStreams | undefined;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-sandbox-kill-'));
  });
  after(async () => {
    if (running && running.exitCode === null) running.kill('SIGKILL');
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('every answered update survives, nothing half-written is loaded, no temp file is left', async () => {
    const state = path.join(dir, 'state.json');
    let n = 0;
    let acked: string | undefined;
    for (let cycle = 0; cycle < 4; cycle++) {
      const { child, url, origin } = await startCli(state);
      running = child;
      const leftovers = (await fs.readdir(dir)).filter((f) => f.endsWith('.tmp'));
      assert.deepEqual(leftovers, [], `cycle ${cycle}: temp files removed at start`);
      const item = (await (await fetch(`${origin}/_sandbox/workitems/111`)).json()) as { name: string };
      if (acked !== undefined) {
        // The answered update is there, or the one that was in flight when the process died.
        assert.ok(item.name === acked || item.name === `v${n}`, `cycle ${cycle}: found ${item.name}, answered ${acked}, in flight v${n}`);
      }
      // Some answered updates, then one more that the kill interrupts.
      for (let i = 0; i < 2 + cycle; i++) {
        const r = await rename(url, `v${++n}`);
        assert.equal(r.status, 200);
        acked = `v${n}`;
      }
      const exited = new Promise((resolve) => child.on('exit', resolve));
      void rename(url, `v${++n}`).catch(() => undefined);
      await new Promise((r) => setTimeout(r, cycle * 3));
      child.kill('SIGKILL');
      await exited;
    }
    const text = await fs.readFile(state, 'utf8');
    const saved = JSON.parse(text) as { workItems: { id: string; name: string }[] };
    const last = saved.workItems.find((w) => w.id === '111')!.name;
    assert.ok(last === acked || last === `v${n}`, `the state file holds ${last}`);
  });

  it('added trees are kept whole or not at all, deleted items are kept (marked deleted) and restore them after a restart', async () => {
    const state = path.join(dir, 'state-add.json');
    const deleted: { root: string; below: string[] }[] = [];
    for (let cycle = 0; cycle < 3; cycle++) {
      const { child, url } = await startCli(state);
      running = child;
      // A tree added and then deleted, both answered: after the restart it is there, deleted.
      const added = (await (await api(url, 'POST', '/workitem/workItems/10/subItems', tree(`kept-${cycle}`))).json()) as { items: { id: string }[] };
      const [root, ...below] = added.items.map((i) => i.id);
      assert.equal((await api(url, 'DELETE', `/workitem/workItems/${root}`)).status, 200);
      deleted.push({ root: root!, below });
      // One more add in flight when the process dies.
      const exited = new Promise((resolve) => child.on('exit', resolve));
      void api(url, 'POST', '/workitem/workItems/10/subItems', tree(`in-flight-${cycle}`)).catch(() => undefined);
      await new Promise((r) => setTimeout(r, cycle * 3));
      child.kill('SIGKILL');
      await exited;
    }
    const { child, url } = await startCli(state);
    running = child;
    const saved = JSON.parse(await fs.readFile(state, 'utf8')) as { workItems: Stored[] };
    const byId = new Map(saved.workItems.map((w) => [w.id, w]));
    for (const { root, below } of deleted) {
      assert.equal(byId.get(root)?.isDeleted, true, `${root} is kept, deleted`);
      for (const id of below) assert.deepEqual([byId.get(id)?.isDeleted, byId.get(id)?.deletedWith], [true, root], `${id} went with ${root}`);
    }
    // An add that was in flight is in the file whole (a folder with both its tasks) or not at all.
    for (let cycle = 0; cycle < 3; cycle++) {
      const roots = saved.workItems.filter((w) => w.metadata?.key === `in-flight-${cycle}`);
      assert.ok(roots.length <= 1);
      for (const r of roots) assert.equal(saved.workItems.filter((w) => w.parentId === r.id).length, 2, `in-flight-${cycle} is whole`);
    }
    // The restarted sandbox restores a deleted tree as it was.
    const first = deleted[0]!;
    assert.equal((await api(url, 'PUT', `/workitem/workItems/${first.root}`, { restore: true })).status, 200);
    const read = (await (await api(url, 'GET', `/workitem/workItems/${[first.root, ...first.below].join(',')}?fields=Name`)).json()) as unknown[];
    assert.equal(read.length, 3);
  });
});
