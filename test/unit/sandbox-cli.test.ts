import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs, UsageError } from '../../src/sandbox/cli';
import { generateDataset, generateLargeProject, LARGE_PROJECT } from '../../src/sandbox/generate';
import { parseDataset } from '../../src/sandbox/state';
import { bearer, call, DatasetBuilder, signIn } from './sandbox-server-fixtures';

const root = path.resolve(__dirname, '..', '..');

type Node = { fields: Record<string, unknown> & { SubItems?: Node[] } };
const flattenNodes = (n: Node): Node[] => [n, ...(n.fields.SubItems ?? []).flatMap(flattenNodes)];
const cli = path.join(root, 'dist', 'sandbox.js');

interface Run {
  child: ChildProcessWithoutNullStreams;
  firstLine: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function start(args: string[]): Run {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  let resolveLine: (s: string) => void;
  const firstLine = new Promise<string>((r) => (resolveLine = r));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    const nl = stdout.indexOf('\n');
    if (nl >= 0) resolveLine(stdout.slice(0, nl));
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((r) =>
    child.on('exit', (code, signal) => {
      resolveLine(stdout);
      r({ code, signal, stdout, stderr });
    }),
  );
  return { child, firstLine, exit };
}

describe('sandbox CLI', function () {
  this.timeout(60_000);
  const running: Run[] = [];
  let dir: string;

  before(() => {
    execFileSync(process.execPath, ['esbuild.js'], { cwd: root, stdio: 'inherit' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
  });
  after(() => {
    for (const r of running) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const run = (args: string[]) => {
    const r = start(args);
    running.push(r);
    return r;
  };

  it('prints exactly "listening on <base URL>" as its first line and serves the demo', async () => {
    const r = run(['--port', '0']);
    const line = await r.firstLine;
    const m = /^listening on (http:\/\/127\.0\.0\.1:\d+\/api)$/.exec(line);
    assert.ok(m, `first line: ${JSON.stringify(line)}`);
    const token = await signIn(m[1]!);
    const list = await call(`${m[1]}/system/processCategories`, { headers: bearer(token) });
    assert.equal(list.status, 200);
    r.child.kill('SIGINT');
    const done = await r.exit;
    assert.equal(done.code, 0, done.stderr);
  });

  it('--plain-errors answers failures with their status and [{"message"}] only (official help: error codes are no contract)', async () => {
    const r = run(['--plain-errors']);
    const m = /^listening on (http:\/\/127\.0\.0\.1:\d+\/api)$/.exec(await r.firstLine);
    assert.ok(m);
    const unauthorized = await call(`${m[1]}/system/processCategories`);
    assert.equal(unauthorized.status, 401);
    assert.deepEqual(Object.keys((unauthorized.json as object[])[0]!), ['message']);
    const token = await signIn(m[1]!);
    const missing = await call(`${m[1]}/workitem/workItems/99999`, { method: 'PUT', headers: bearer(token), body: { setTimeEntryLocked: true } });
    assert.equal(missing.status, 404);
    for (const e of missing.json as object[]) assert.deepEqual(Object.keys(e), ['message'], JSON.stringify(missing.json));
    assert.equal(parseArgs(['--plain-errors']).plainErrors, true);
    assert.throws(() => parseArgs(['--plain-errors=yes']), /--plain-errors takes no value/);
    r.child.kill('SIGINT');
    const done = await r.exit;
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stderr, /plain errors/);
  });

  it('shuts down cleanly on SIGTERM too', async () => {
    const r = run([]);
    await r.firstLine;
    r.child.kill('SIGTERM');
    assert.equal((await r.exit).code, 0);
  });

  it('--help explains the options, the demo sign-in names and the sandbox-only endpoints', async () => {
    const done = await run(['--help']).exit;
    assert.equal(done.code, 0);
    for (const s of ['--port', '--host', '--allow-remote', '--data', '--generate', '--edition', '--state', '--plain-errors', 'admin', 'viewer', 'nocost', 'password', '/_sandbox/', 'listening on']) {
      assert.ok(done.stdout.includes(s), `help lacks ${s}`);
    }
  });

  for (const [args, pattern] of [
    [['--bogus'], /unknown option "--bogus"/],
    [['--port', 'eighty'], /--port must be a number/],
    [['--port'], /--port needs a value/],
    [['--edition', 'enterprise'], /--edition must be standard or professional/],
    [['--host', '0.0.0.0'], /not a loopback address.*--allow-remote/],
    [['--generate', 'users=ten'], /--generate: expected NAME=COUNT/],
    [['--generate', 'people=10'], /unknown name "people"/],
    [['--data', 'a.json', '--generate', 'users=10'], /cannot be used together/],
    [['--generate', 'users=10', '--large-project'], /--generate and --large-project cannot be used together/],
    [['--large-project', 'levels=17'], /levels must be a whole number from 1 to 16/],
    [['--large-project', 'depth=3'], /--large-project: unknown name "depth"/],
  ] as [string[], RegExp][]) {
    it(`exits with code 2 and a clear message for a bad option: ${args.join(' ')}`, async () => {
      const done = await run(args).exit;
      assert.equal(done.code, 2);
      assert.match(done.stderr, pattern);
      assert.match(done.stderr, /--help/);
      assert.equal(done.stdout, '');
    });
  }

  it('exits with code 1 and names the bad path and value for an invalid --data file', async () => {
    const file = path.join(dir, 'bad.json');
    const data = new DatasetBuilder().org('A', null).user('u1', 'A').build();
    (data.users![0] as Record<string, unknown>).isDeleted = 'no';
    fs.writeFileSync(file, JSON.stringify(data));
    const done = await run(['--data', file]).exit;
    assert.equal(done.code, 1);
    assert.match(done.stderr, /users\[0\]\.isDeleted: expected boolean, got "no"/);
  });

  it('exits with code 1 for a missing --data file', async () => {
    const done = await run(['--data', path.join(dir, 'missing.json')]).exit;
    assert.equal(done.code, 1);
    assert.match(done.stderr, /no such file/);
  });

  it('--data, --edition and --state: serves the file and persists changes to the state file', async () => {
    const data = path.join(dir, 'data.json');
    const state = path.join(dir, 'state.json');
    fs.writeFileSync(data, JSON.stringify(new DatasetBuilder().org('A', null).user('u1', 'A', { loginName: 'admin' }).category('c1').build()));
    const r = run(['--data', data, '--edition', 'standard', '--state', state]);
    const url = (await r.firstLine).replace('listening on ', '');
    const token = await signIn(url);
    const list = await call(`${url}/system/processCategories`, { headers: bearer(token) });
    assert.deepEqual((list.json as { data: { id: string }[] }).data.map((c) => c.id), ['c1']);
    const origin = url.replace(/\/api$/, '');
    const small = new DatasetBuilder().org('A', null).user('u1', 'A', { loginName: 'admin' }).category('c2').build();
    await call(`${origin}/_sandbox/reset`, { method: 'POST', body: small });
    assert.equal(parseDataset(JSON.parse(fs.readFileSync(state, 'utf8'))).processCategories[0]!.id, 'c2');
    r.child.kill('SIGINT');
    assert.equal((await r.exit).code, 0);
  });

  it('--generate builds a large data set from counts', async () => {
    const r = run(['--generate', 'users=500,organizations=10,workItems=300,processCategories=40,seed=3']);
    const url = (await r.firstLine).replace('listening on ', '');
    const token = await signIn(url);
    const users = await call(`${url}/system/organizations/1/allassignedusers`, { headers: bearer(token) });
    const direct = await call(`${url}/system/organizations/1/users`, { headers: bearer(token) });
    assert.equal((users.json as { totalCount: number }).totalCount + (direct.json as { totalCount: number }).totalCount, 500);
    r.child.kill('SIGINT');
    assert.equal((await r.exit).code, 0);
  });

  it('--large-project serves one large project with a root folder, every level filled', async () => {
    const r = run(['--large-project', 'items=400,levels=16,topLevelItems=7,seed=2']);
    const url = (await r.firstLine).replace('listening on ', '');
    const h = bearer(await signIn(url));
    const projects = (await call(`${url}/project/projects?keyword=LARGE`, { headers: h })).json as { data: { id: string; workItemRootFolderId: string }[] };
    assert.deepEqual(projects.data.map((p) => p.id), [LARGE_PROJECT.id]);
    const tree = (await call(`${url}/workitem/workItems/${projects.data[0]!.workItemRootFolderId}/subItems?fields=Name&includeDeleted=true`, { headers: h })).json as Node[];
    const all = flattenNodes(tree[0]!);
    assert.equal(all.length, 401);
    assert.equal(tree[0]!.fields.SubItems!.length, 7);
    // Levels from the nesting of the answer (the help shows no Level field): root 0, then 1 to 16.
    const levels = new Set<number>();
    const walk = (n: Node, level: number): void => {
      levels.add(level);
      for (const c of n.fields.SubItems ?? []) walk(c, level + 1);
    };
    walk(tree[0]!, 0);
    assert.deepEqual([...levels].sort((a, b) => a - b), Array.from({ length: 17 }, (_, i) => i));
    r.child.kill('SIGINT');
    assert.equal((await r.exit).code, 0);
  });

  describe('parseArgs', () => {
    it('--large-project takes an optional SPEC', () => {
      assert.deepEqual(parseArgs(['--large-project']).largeProject, {});
      assert.deepEqual(parseArgs(['--large-project', '--verbose']).largeProject, {});
      assert.deepEqual(parseArgs(['--large-project=items=5000,levels=4']).largeProject, { items: 5000, levels: 4 });
      assert.deepEqual(parseArgs(['--large-project', 'seed=3']).largeProject, { seed: 3 });
    });

    it('has the documented defaults', () => {
      assert.deepEqual(parseArgs([]), { port: 0, host: '127.0.0.1', allowRemote: false, edition: 'professional', verbose: false, plainErrors: false, dropMetadata: false, help: false });
    });

    it('accepts --name=value and --allow-remote with a remote host', () => {
      const o = parseArgs(['--port=8080', '--host=0.0.0.0', '--allow-remote', '--edition=Standard']);
      assert.equal(o.port, 8080);
      assert.equal(o.host, '0.0.0.0');
      assert.equal(o.edition, 'standard');
    });

    it('rejects an option given twice', () => {
      assert.throws(() => parseArgs(['--port', '1', '--port', '2']), UsageError);
    });
  });

  describe('generateLargeProject', () => {
    it('100,000 work items over 16 levels by default, deterministic and valid against the model', () => {
      const a = generateLargeProject();
      assert.deepEqual(a, generateLargeProject());
      assert.notDeepEqual(a.workItems!.slice(-5), generateLargeProject({ seed: 2 }).workItems!.slice(-5));
      const d = parseDataset(a);
      const mine = d.workItems.filter((w) => w.projectId === LARGE_PROJECT.id);
      assert.equal(mine.length, 100_001, 'the root folder and 100,000 items');
      const project = d.projects.find((p) => p.id === LARGE_PROJECT.id)!;
      assert.equal(project.workItemRootFolderId, LARGE_PROJECT.rootFolderId);
      const byId = new Map(mine.map((w) => [w.id, w]));
      const level = (id: string): number => {
        let l = 0;
        for (let w = byId.get(id)!; w.parentId !== null; w = byId.get(w.parentId)!) l++;
        return l;
      };
      const levels = new Set(mine.map((w) => level(w.id)));
      assert.deepEqual([...levels].sort((x, y) => x - y), Array.from({ length: 17 }, (_, i) => i));
      assert.equal(mine.filter((w) => w.parentId === LARGE_PROJECT.rootFolderId).length, 50);
      assert.ok(mine.some((w) => w.isDeleted) && mine.some((w) => w.actualProgress === 100) && mine.some((w) => w.itemTypeId === '41'));
    });

    it('takes items, levels and topLevelItems (a wide first level), and rejects values out of range', () => {
      const d = parseDataset(generateLargeProject({ items: 6000, levels: 3, topLevelItems: 5000 }));
      const mine = d.workItems.filter((w) => w.projectId === LARGE_PROJECT.id);
      assert.equal(mine.length, 6001);
      assert.equal(mine.filter((w) => w.parentId === LARGE_PROJECT.rootFolderId).length, 5000);
      assert.throws(() => generateLargeProject({ levels: 17 }), /levels must be a whole number from 1 to 16/);
      assert.throws(() => generateLargeProject({ items: 5, levels: 6 }), /items must be a whole number from 6/);
    });
  });

  describe('generateDataset', () => {
    it('is deterministic for a seed and valid against the model', () => {
      const a = generateDataset({ users: 300, organizations: 12, workItems: 400, processCategories: 30, seed: 9 });
      assert.deepEqual(a, generateDataset({ users: 300, organizations: 12, workItems: 400, processCategories: 30, seed: 9 }));
      assert.notDeepEqual(a, generateDataset({ users: 300, organizations: 12, workItems: 400, processCategories: 30, seed: 10 }));
      const d = parseDataset(a);
      assert.equal(d.users.length, 300);
      assert.equal(d.organizations.length, 12);
      assert.equal(d.workItems.length, 400);
      assert.equal(d.processCategories.length, 30);
    });

    it('gives work items children, so propagation has something to reach', () => {
      const d = parseDataset(generateDataset({ workItems: 500 }));
      const parents = new Set(d.workItems.map((w) => w.parentId));
      assert.ok(d.workItems.some((w) => w.itemTypeId === '42' && parents.has(w.id)));
    });

    it('rejects counts out of range', () => {
      assert.throws(() => generateDataset({ users: 2 }), /users must be a whole number from 3/);
      assert.throws(() => generateDataset({ workItems: 1.5 }), /workItems/);
    });
  });
});
