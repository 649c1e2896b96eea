// Big organizations: the response cap is configurable and far above the largest
// realistic answer. An organization of 300,000 users (the sandbox's generator, in
// a child process) is read whole and grouped into ranges; an answer over the cap
// fails once (no retry) with a reason and the limit, which the UI turns into a
// row naming the setting.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { DEFAULT_MAX_RESPONSE_BYTES, MAX_RESPONSE_BYTES_LIMIT, ServiceClient } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { createSandbox, DEMO_ORGANIZATIONS, type Sandbox } from '../../src/sandbox/index';
import { rangeChildren, sortByName } from '../../src/views/model/ranges';
import { capturingLogger, rejection, stringifyDeep } from './api-helpers';

const root = path.resolve(__dirname, '..', '..');
const ADMIN = { kind: 'basic', loginName: 'admin', password: 'password' } as const;

describe('response cap: answers over the limit', function () {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({});
  });
  after(async () => sandbox.close());

  it('the default cap is far above the old 64 MiB and the setting cannot pass the string limit', () => {
    assert.equal(DEFAULT_MAX_RESPONSE_BYTES, 256 * 1024 * 1024);
    assert.equal(MAX_RESPONSE_BYTES_LIMIT, 500 * 1024 * 1024);
    assert.equal(new ServiceClient({ baseUrl: sandbox.url }).maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES);
    assert.equal(new ServiceClient({ baseUrl: sandbox.url, maxResponseBytes: 10 ** 12 }).maxResponseBytes, MAX_RESPONSE_BYTES_LIMIT);
  });

  it('an answer over the cap fails once with reason response-too-large and the limit; nothing is retried', async () => {
    const log = capturingLogger();
    const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ADMIN, maxResponseBytes: 4096, logger: log });
    try {
      const e = await rejection(() => client.listAllAssignedUsers(DEMO_ORGANIZATIONS.root));
      assert.ok(isServiceError(e), stringifyDeep(e));
      assert.equal(e.kind, 'invalid-response');
      assert.equal(e.reason, 'response-too-large');
      assert.equal(e.code, 'RESPONSE_TOO_LARGE');
      assert.equal(e.status, 200);
      assert.equal(e.limitBytes, 4096);
      assert.equal(e.outcomeUnknown, false);
      assert.match(e.message, /too large: the answer is larger than the limit of 0\.0 MiB|too large: the answer is larger than the limit of/);
      assert.ok(!/retrying/.test(log.text()), `not retried: ${log.text()}`);
      // The same list fits under the default cap.
      const ok = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ADMIN });
      try {
        assert.ok((await ok.listAllAssignedUsers(DEMO_ORGANIZATIONS.root)).totalCount > 10);
      } finally {
        await ok.close();
      }
    } finally {
      await client.close();
    }
  });
});

describe('response cap: an organization of 300,000 users', function () {
  this.timeout(240_000);
  let child: ChildProcessWithoutNullStreams | undefined;
  let url = '';
  before(async () => {
    // The generator's data set in its own process (as `npm run sandbox -- --generate ...`), so the
    // sandbox's memory is not this process's.
    child = spawn(
      process.execPath,
      ['--require', 'tsx/cjs', path.join(root, 'src', 'sandbox', 'cli.ts'), '--generate', 'users=300000,organizations=1,workItems=2,processCategories=0,seed=5'],
      { cwd: root },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^listening on (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child!.on('exit', (code) => reject(new Error(`the sandbox ended (${code}): ${stderr}`)));
    });
  });
  after(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('is read whole with the default cap (over 64 MiB) and expands into ranges of at most 100 children', async () => {
    const client = new ServiceClient({ baseUrl: url, credentials: () => ADMIN, timeouts: { headersMs: 180_000, bodyMs: 180_000 } });
    try {
      const r = await client.listOrganizationUsers('1');
      assert.equal(r.totalCount, 300_000);
      assert.equal(r.data.length, 300_000);
      assert.ok(Buffer.byteLength(JSON.stringify(r)) > 64 * 1024 * 1024, "the answer is above the old cap");
      const users = sortByName(r.data);
      const top = rangeChildren(0, users.length);
      assert.ok(top.length > 1 && top.length <= 100, `top level: ${top.length} ranges`);
      const first = top[0]!;
      assert.equal(first.kind, 'range');
      const below = rangeChildren((first as { start: number }).start, (first as { end: number }).end);
      assert.ok(below.length <= 100);
    } finally {
      await client.close();
    }
  });

  it('is read as the tree view reads it (rows, the bytes scanned once) and sorted; a user decoded from the bytes is whole', async () => {
    const client = new ServiceClient({ baseUrl: url, credentials: () => ADMIN, timeouts: { headersMs: 180_000, bodyMs: 180_000 } });
    try {
      const r = await client.readOrganizationUsers('1');
      assert.equal(r.totalCount, 300_000);
      assert.equal(r.rows.length, 300_000);
      assert.ok(r.keptBytes > 64 * 1024 * 1024, 'the answer is above the old cap');
      const rows = sortByName(r.rows);
      assert.ok(rangeChildren(0, rows.length).length <= 100);
      const last = r.user(rows[rows.length - 1]!);
      assert.equal(last.id, rows[rows.length - 1]!.id);
      assert.equal(last.name, rows[rows.length - 1]!.name);
      assert.ok(Object.keys(last).length > 5, 'every member of the user');
    } finally {
      await client.close();
    }
  });
});
