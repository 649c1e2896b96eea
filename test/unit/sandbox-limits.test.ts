// Every error of the sandbox is JSON and reaches the client: a body over the
// limit gets its 413 read by the client (not a reset), a request without Host a
// JSON 400, and stalled requests a JSON 408 after the documented timeouts. And
// the state file: temp files left by an interrupted write are removed at start,
// and a write is on disk (fsync) before the rename.
import * as assert from 'node:assert/strict';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { createSandbox, DEFAULT_BODY_TIMEOUT_MS, DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, type Sandbox } from '../../src/sandbox/index';
import { rejection, stringifyDeep } from './api-helpers';

/** Raw HTTP/1.1 to the sandbox; `hold` keeps the socket open (a stalled client) until the server closes it. */
function raw(port: number, text: string, hold = false): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => (hold ? socket.write(text) : socket.end(text)));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (answer += d));
    socket.on('close', () => resolve({ text: answer, ms: Date.now() - started }));
    socket.on('error', reject);
  });
}

function parseAnswer(text: string): { status: number; headers: string; json: { code: string; message: string; params: Record<string, unknown> }[] } {
  const end = text.indexOf('\r\n\r\n');
  assert.ok(end > 0, `not an HTTP answer: ${JSON.stringify(text)}`);
  const head = text.slice(0, end);
  assert.match(head, /content-type: application\/json/i, head);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)![1]), headers: head, json: JSON.parse(text.slice(end + 4)) };
}

const BASIC = `Basic ${Buffer.from('admin:password').toString('base64')}`;

describe('sandbox: every error is JSON and the client sees it', function () {
  // Default timeouts where a large upload must finish (a loaded machine may take seconds
  // for 20 MiB); short ones only where the test stalls on purpose.
  let sandbox: Sandbox;
  let stalling: Sandbox;
  before(async () => {
    sandbox = await createSandbox();
    stalling = await createSandbox({ headersTimeoutMs: 300, bodyTimeoutMs: 400 });
  });
  after(async () => {
    await sandbox.close();
    await stalling.close();
  });

  it('documents timeouts in seconds, not minutes', () => {
    assert.equal(DEFAULT_HEADERS_TIMEOUT_MS, 10_000);
    assert.equal(DEFAULT_BODY_TIMEOUT_MS, 30_000);
  });

  for (const mib of [2, 20]) {
    it(`a ${mib} MiB body over the 1 MiB limit: the client reads the 413 (not a reset), nothing is applied`, async () => {
      const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
      try {
        const before = (await (await fetch(`${sandbox.origin}/_sandbox/workitems/111`)).json()) as { description: string };
        const e = await rejection(() => client.updateWorkItems(['111'], { fields: { Description: 'x'.repeat(mib * 1024 * 1024) } }));
        assert.ok(isServiceError(e), stringifyDeep(e));
        assert.equal(e.kind, 'http', `expected the 413, got ${e.kind} ${e.code ?? ''}: ${e.message}`);
        assert.equal(e.status, 413);
        assert.equal(e.outcomeUnknown, false);
        assert.equal(e.entries[0]!.code, 'BODY_TOO_LARGE');
        assert.equal(e.entries[0]!.params!.limit, DEFAULT_MAX_BODY_BYTES);
        const after = (await (await fetch(`${sandbox.origin}/_sandbox/workitems/111`)).json()) as { description: string };
        assert.equal(after.description, before.description);
        // The sandbox still answers afterwards.
        assert.equal((await client.listProcessCategories({ limit: 1 })).data.length, 1);
      } finally {
        await client.close();
      }
    });
  }

  it('a chunked body over the limit is a JSON 413 too', async () => {
    const chunk = 'x'.repeat(256 * 1024);
    const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const r = await raw(
      sandbox.port,
      `PUT /api/workitem/workItems/111 HTTP/1.1\r\nHost: x\r\nAuthorization: ${BASIC}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`,
    );
    const a = parseAnswer(r.text);
    assert.equal(a.status, 413);
    assert.equal(a.json[0]!.code, 'BODY_TOO_LARGE');
  });

  it('a request without Host is a JSON 400 naming it (HTTP/1.0 needs none)', async () => {
    const a = parseAnswer((await raw(sandbox.port, 'GET /api/system/processCategories HTTP/1.1\r\n\r\n')).text);
    assert.equal(a.status, 400);
    assert.equal(a.json[0]!.code, 'HOST_REQUIRED');
    assert.match(a.json[0]!.message, /Host header/);
    const old = await raw(sandbox.port, 'GET /api/system/processCategories HTTP/1.0\r\n\r\n');
    assert.equal(parseAnswer(old.text).status, 401, 'HTTP/1.0 without Host reaches the route (which wants sign-in)');
  });

  it('stalled headers are cut off with a JSON 408 after the headers timeout', async () => {
    const r = await raw(stalling.port, `GET /api/system/processCategories HTTP/1.1\r\nHost: x\r\nAuthorization: ${BASIC}\r\n`, true);
    const a = parseAnswer(r.text);
    assert.equal(a.status, 408);
    assert.equal(a.json[0]!.code, 'HEADERS_TIMEOUT');
    assert.equal(a.json[0]!.params.seconds, 0.3);
    assert.ok(r.ms >= 250, `cut off after ${r.ms} ms`);
  });

  it('a stalled body is cut off with a JSON 408 after the body timeout, and nothing is applied', async () => {
    const before = (await (await fetch(`${stalling.origin}/_sandbox/dump`)).text());
    const r = await raw(
      stalling.port,
      `PUT /api/workitem/workItems/111 HTTP/1.1\r\nHost: x\r\nAuthorization: ${BASIC}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"setCompleted":`,
      true,
    );
    const a = parseAnswer(r.text);
    assert.equal(a.status, 408);
    assert.equal(a.json[0]!.code, 'BODY_TIMEOUT');
    assert.equal(a.json[0]!.params.seconds, 0.4);
    assert.ok(r.ms >= 350, `cut off after ${r.ms} ms`);
    assert.equal(await (await fetch(`${stalling.origin}/_sandbox/dump`)).text(), before);
  });

  it('refuses timeouts that are not positive', async () => {
    await assert.rejects(createSandbox({ headersTimeoutMs: 0 }), /headersTimeoutMs/);
    await assert.rejects(createSandbox({ bodyTimeoutMs: -1 }), /bodyTimeoutMs/);
  });
});

describe('sandbox: the state file', function () {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-state-'));
  });
  afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

  it('temp files left by an interrupted write are removed at start; other files stay', async () => {
    const file = path.join(dir, 'state.json');
    const first = await createSandbox({ statePath: file });
    const r = await fetch(`${first.url}/workitem/workItems/111`, {
      method: 'PUT',
      headers: { authorization: BASIC, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { Name: 'kept' } }),
    });
    assert.equal(r.status, 200);
    await first.close();
    // What a kill between writing the temp file and the rename leaves behind.
    const leftovers = ['.state.json.4242.1763900000000.abc123.tmp', '.state.json.7.1.z.tmp'];
    for (const l of leftovers) await fs.writeFile(path.join(dir, l), '{"version": 1, "half');
    const others = ['.other.json.1.2.x.tmp', 'state.json.bak', '.state.json.notes.txt'];
    for (const o of others) await fs.writeFile(path.join(dir, o), 'keep');

    const again = await createSandbox({ statePath: file });
    try {
      assert.equal(again.data.workItems.find((w) => w.id === '111')!.name, 'kept', 'the state file is loaded');
      assert.deepEqual((await fs.readdir(dir)).sort(), [...others, 'state.json'].sort());
    } finally {
      await again.close();
    }
  });

  it('a write is synced to disk before it is renamed over the state file', async () => {
    const file = path.join(dir, 'state.json');
    const events: string[] = [];
    const probe = await fs.open(path.join(dir, 'probe'), 'w');
    const handleProto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const fsPromises = fsSync.promises as unknown as { rename: typeof fs.rename };
    const realSync = handleProto.sync;
    const realRename = fsPromises.rename;
    handleProto.sync = function (this: unknown) {
      events.push('sync');
      return realSync.call(this);
    };
    fsPromises.rename = (async (from: fsSync.PathLike, to: fsSync.PathLike) => {
      events.push(`rename ${path.basename(String(to))}`);
      return realRename(from, to);
    }) as typeof fs.rename;
    try {
      const sb = await createSandbox({ statePath: file });
      const r = await fetch(`${sb.url}/workitem/workItems/111`, {
        method: 'PUT',
        headers: { authorization: BASIC, 'content-type': 'application/json' },
        body: JSON.stringify({ setCompleted: true }),
      });
      assert.equal(r.status, 200);
      await sb.close();
    } finally {
      handleProto.sync = realSync;
      fsPromises.rename = realRename;
    }
    const i = events.indexOf('rename state.json');
    assert.ok(i > 0, events.join(', '));
    assert.equal(events[i - 1], 'sync', `the temp file is synced right before the rename: ${events.join(', ')}`);
  });
});
