import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs, UsageError } from '../../src/sandbox/cli';
import { generateDataset } from '../../src/sandbox/generate';
import { parseDataset } from '../../src/sandbox/state';
import { bearer, call, DatasetBuilder, signIn } from './sandbox-server-fixtures';

const root = path.resolve(__dirname, '..', '..');
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

  it('shuts down cleanly on SIGTERM too', async () => {
    const r = run([]);
    await r.firstLine;
    r.child.kill('SIGTERM');
    assert.equal((await r.exit).code, 0);
  });

  it('--help explains the options, the demo sign-in names and the sandbox-only endpoints', async () => {
    const done = await run(['--help']).exit;
    assert.equal(done.code, 0);
    for (const s of ['--port', '--host', '--allow-remote', '--data', '--generate', '--edition', '--state', 'admin', 'viewer', 'nocost', 'password', '/_sandbox/', 'listening on']) {
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
    const users = await call(`${url}/system/organizations/org-1/allassignedusers`, { headers: bearer(token) });
    const direct = await call(`${url}/system/organizations/org-1/users`, { headers: bearer(token) });
    assert.equal((users.json as { totalCount: number }).totalCount + (direct.json as { totalCount: number }).totalCount, 500);
    r.child.kill('SIGINT');
    assert.equal((await r.exit).code, 0);
  });

  describe('parseArgs', () => {
    it('has the documented defaults', () => {
      assert.deepEqual(parseArgs([]), { port: 0, host: '127.0.0.1', allowRemote: false, edition: 'professional', verbose: false, help: false });
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
      assert.ok(d.workItems.some((w) => w.itemTypeId === 'it-task' && parents.has(w.id)));
    });

    it('rejects counts out of range', () => {
      assert.throws(() => generateDataset({ users: 2 }), /users must be a whole number from 3/);
      assert.throws(() => generateDataset({ workItems: 1.5 }), /workItems/);
    });
  });
});
