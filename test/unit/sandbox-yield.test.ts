// Long answers give way to other clients, and only a client's own slowness gets a 408:
// a whole-tree subItems read of a large project, read by a fast client in another
// thread, does not hold the sandbox's event loop: a second client's small request, sent once the large
// answer has begun, is answered before the large answer has been written to its end.
// (Ordering of the sandbox's own completions, not a wall-clock threshold.)
import * as assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../src/api/logger';
import { createSandbox, generateLargeProject, LARGE_PROJECT, type Sandbox } from '../../src/sandbox';
import { basic, call } from './sandbox-server-fixtures';

const ADMIN = basic('admin', 'password');

/** A client in its own thread (so its reading never waits for the sandbox's thread): reads the answer as fast as it comes. */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const s = net.connect(workerData.port, '127.0.0.1', () =>
  s.write('GET ' + workerData.path + ' HTTP/1.1\\r\\nHost: sandbox\\r\\nAuthorization: ' + workerData.auth + '\\r\\nConnection: close\\r\\n\\r\\n'));
let bytes = 0;
s.on('data', (d) => { if (bytes === 0) parentPort.postMessage({ first: true }); bytes += d.length; });
s.on('end', () => parentPort.postMessage({ end: true, bytes }));
s.on('error', (e) => parentPort.postMessage({ error: String(e) }));
`;

describe('sandbox: long answers yield to the event loop', function () {
  this.timeout(120_000);
  let sb: Sandbox;
  const done: string[] = [];
  const logger: Logger = {
    trace: () => undefined,
    debug: (m: string) => {
      const hit = /^sandbox: GET (\S+) -> (\d+)/.exec(m);
      if (hit) done.push(hit[1]!);
    },
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  };
  before(async () => {
    sb = await createSandbox({ data: generateLargeProject({ items: 100_000 }), logger });
  });
  after(() => sb.close());

  it('a whole-tree subItems read of a 100,000-item project does not keep a second client waiting: its small request is answered first', async () => {
    const big = `/api/workitem/workItems/${LARGE_PROJECT.rootFolderId}/subItems`;
    const small = '/api/system/users/me';
    // Warm the read indexes, so the large answer's time is the answer's own.
    assert.equal((await call(`${sb.origin}${small}`, { headers: ADMIN })).status, 200);
    done.length = 0;
    const worker = new Worker(READER, { eval: true, workerData: { port: sb.port, path: big, auth: ADMIN.authorization } });
    let smallAnswer: Promise<number> | undefined;
    let bigBytes = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (m: { first?: boolean; end?: boolean; bytes?: number; error?: string }) => {
          if (m.error) reject(new Error(m.error));
          if (m.first) smallAnswer = call(`${sb.origin}${small}`, { headers: ADMIN }).then((r) => r.status);
          if (m.end) {
            bigBytes = m.bytes ?? 0;
            resolve();
          }
        });
      });
    } finally {
      await worker.terminate();
    }
    assert.ok(bigBytes > 20_000_000, `the large answer is large (${bigBytes} bytes)`);
    assert.equal(await smallAnswer, 200);
    assert.deepEqual(done, [small, big], 'the small request, sent after the large answer began, is answered before the large answer ends');
  });
});

/** A client in its own thread that can send while the sandbox's thread is busy: `first` on connect, then what it is told. */
const SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const s = net.connect(workerData.port, '127.0.0.1', () => {
  if (workerData.first) s.write(workerData.first);
  setTimeout(() => parentPort.postMessage({ connected: true }), workerData.settleMs);
});
parentPort.on('message', (m) => setTimeout(() => s.write(m.send), m.delay));
let out = '';
s.on('data', (d) => (out += d));
s.on('close', () => parentPort.postMessage({ answer: out }));
s.on('error', (e) => parentPort.postMessage({ answer: 'error ' + e }));
`;

/** Holds this thread (the sandbox's) for `ms`: the sandbox's own delay, as a long synchronous piece of work would be. */
function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spin
  }
}

/**
 * Connects from another thread and sends `first`; after `settleMs` (the sandbox's event
 * loop free meanwhile) the sandbox's thread is held for `busyMs` in an I/O callback, as a
 * request handler's long work would hold it, while `rest` is sent.
 */
async function sendWhileBusy(port: number, first: string, rest: string, settleMs: number, busyMs: number): Promise<string> {
  const worker = new Worker(SENDER, { eval: true, workerData: { port, first, settleMs } });
  try {
    return await new Promise<string>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('message', (m: { connected?: boolean; answer?: string }) => {
        if (m.connected) {
          worker.postMessage({ send: rest, delay: Math.floor(busyMs / 4) });
          busy(busyMs);
        }
        if (m.answer !== undefined) resolve(m.answer);
      });
    });
  } finally {
    await worker.terminate();
  }
}

describe('sandbox: a 408 only for the client\'s own slowness', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  before(async () => {
    sb = await createSandbox({ headersTimeoutMs: 300, bodyTimeoutMs: 400 });
  });
  after(() => sb.close());

  it('headers that arrived while the sandbox was busy past the headers timeout are answered, not cut off with 408', async () => {
    // The request line came before the sandbox got busy; the rest of the headers while it was.
    const rest = `Host: sandbox\r\nAuthorization: ${ADMIN.authorization}\r\nConnection: close\r\n\r\n`;
    const answer = await sendWhileBusy(sb.port, 'GET /api/system/users/me HTTP/1.1\r\n', rest, 50, 1000);
    assert.match(answer, /^HTTP\/1\.1 200 /, answer.slice(0, 300));
  });

  it('a body that arrived while the sandbox was busy past the body timeout is read, not cut off with 408', async () => {
    const body = JSON.stringify({ fields: { Description: 'arrived while busy' } });
    const head = `PUT /api/workitem/workItems/111 HTTP/1.1\r\nHost: sandbox\r\nAuthorization: ${ADMIN.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    const answer = await sendWhileBusy(sb.port, head, body, 100, 1200);
    assert.match(answer, /^HTTP\/1\.1 200 /, answer.slice(0, 300));
    assert.equal(sb.data.workItems.find((w) => w.id === '111')!.description, 'arrived while busy');
  });

  it('a client that really stalls still gets the JSON 408 (headers and body)', async () => {
    const stalled = await sendWhileBusy(sb.port, 'GET /api/system/users/me HTTP/1.1\r\nHost: sandbox\r\n', '', 0, 0);
    assert.match(stalled, /^HTTP\/1\.1 408 [\s\S]*HEADERS_TIMEOUT/);
    const body = await sendWhileBusy(sb.port, `PUT /api/workitem/workItems/111 HTTP/1.1\r\nHost: sandbox\r\nAuthorization: ${ADMIN.authorization}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{`, '', 0, 0);
    assert.match(body, /^HTTP\/1\.1 408 [\s\S]*BODY_TIMEOUT/);
  });
});
