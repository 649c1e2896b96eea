// Two limits of the sandbox's protocol handling: sign-in tokens do not grow the
// sandbox's memory without bound (the oldest are evicted past MAX_TOKENS, expired
// ones are swept), and `CONNECT` and `Expect:` get JSON answers (raw sockets).
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { authenticate, MAX_TOKENS, TokenStore } from '../../src/sandbox/auth';

/** Raw HTTP/1.1: writes `parts` one after another (each after the answer so far contains `waitFor[i]`), then reads until the server closes or `idleMs` passes without data. */
function raw(port: number, parts: string[], waitFor: string[] = [], idleMs = 400): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(parts[0]!));
    let out = '';
    let next = 1;
    let idle = setTimeout(() => s.destroy(), idleMs);
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      out += d;
      clearTimeout(idle);
      idle = setTimeout(() => s.destroy(), idleMs);
      while (next < parts.length && out.includes(waitFor[next - 1] ?? '')) s.write(parts[next++]!);
    });
    s.on('close', () => {
      clearTimeout(idle);
      resolve(out);
    });
    s.on('error', reject);
  });
}

/** The last answer in a raw text (after any 100 Continue): status and JSON body. */
function lastAnswer(text: string): { status: number; head: string; json: unknown } {
  const at = text.lastIndexOf('HTTP/1.1 ');
  const answer = text.slice(at);
  const split = answer.indexOf('\r\n\r\n');
  const head = answer.slice(0, split);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)![1]), head, json: JSON.parse(answer.slice(split + 4)) };
}

describe('sandbox: sign-in tokens stay bounded', () => {
  it('20,000 sign-ins keep at most MAX_TOKENS tokens: the oldest are evicted, the newest work', () => {
    const store = new TokenStore(() => new Date('2026-01-01T00:00:00Z'));
    const issued: string[] = [];
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      issued.push(store.issue('2001'));
      most = Math.max(most, store.size);
    }
    assert.equal(MAX_TOKENS, 10_000);
    assert.equal(most, MAX_TOKENS, 'never more than MAX_TOKENS at once');
    assert.equal(store.check(issued[0]!), 'bad-token', 'the oldest token was evicted');
    assert.deepEqual(store.check(issued[19_999]!), { userId: '2001' });
    assert.deepEqual(store.check(issued[20_000 - MAX_TOKENS]!), { userId: '2001' }, 'the last MAX_TOKENS tokens all work');
  });

  it('expired tokens are swept as new ones are issued, so a long run of short-lived tokens stays small', () => {
    let t = 0;
    const store = new TokenStore(() => new Date(t), 1000, 100_000);
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      t += 10; // each token lives for 100 sign-ins
      store.issue('2001');
      most = Math.max(most, store.size);
    }
    assert.ok(most <= 1100, `at most about 1,100 tokens kept at once (${most})`);
  });

  it('an evicted token is refused as unknown (401 "unknown token: sign in again")', () => {
    const store = new TokenStore(() => new Date(), undefined, 2);
    const a = store.issue('2001');
    store.issue('2001');
    store.issue('2001');
    const data = { users: [{ id: '2001', isDeleted: false }] } as never;
    assert.deepEqual(authenticate(`Bearer ${a}`, data, store), { ok: false, reason: 'bad-token' });
    assert.throws(() => new TokenStore(() => new Date(), undefined, 0), /maxTokens/);
  });
});

describe('sandbox: CONNECT and Expect get JSON answers', () => {
  let sb: Sandbox;
  let plain: Sandbox;
  before(async () => {
    sb = await createSandbox();
    plain = await createSandbox({ plainErrors: true });
  });
  after(async () => {
    await sb.close();
    await plain.close();
  });

  it('CONNECT is answered 405 with a JSON error (the sandbox is not a proxy) and the connection closed', async () => {
    const a = lastAnswer(await raw(sb.port, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']));
    assert.equal(a.status, 405);
    assert.match(a.head, /Content-Type: application\/json/i);
    const [e] = a.json as { code: string; message: string }[];
    assert.equal(e!.code, 'METHOD_NOT_ALLOWED');
    assert.match(e!.message, /CONNECT is not allowed.*not a proxy/);
  });

  it('CONNECT with plainErrors is answered with the message only', async () => {
    const a = lastAnswer(await raw(plain.port, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']));
    assert.equal(a.status, 405);
    assert.deepEqual(Object.keys((a.json as object[])[0]!), ['message']);
  });

  it('Expect: 100-continue gets "100 Continue", then the JSON answer of the request', async () => {
    const body = JSON.stringify({ loginName: 'admin', password: 'password' });
    const text = await raw(
      sb.port,
      [`POST /api/auth/token HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`, body],
      ['100 Continue'],
    );
    assert.match(text, /^HTTP\/1\.1 100 Continue\r\n\r\n/);
    const a = lastAnswer(text);
    assert.equal(a.status, 200);
    assert.equal(typeof (a.json as { token: string }).token, 'string');
  });

  it('Expect: 100-continue on a request without credentials gets a JSON 401', async () => {
    const text = await raw(sb.port, ['PUT /api/workitem/workItems/111 HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n', '{}'], ['100 Continue']);
    const a = lastAnswer(text);
    assert.equal(a.status, 401);
    assert.equal((a.json as { code: string }[])[0]!.code, 'UNAUTHORIZED');
  });

  it('an Expect other than 100-continue is answered 417 with a JSON error naming the expectation', async () => {
    const a = lastAnswer(await raw(sb.port, ['POST /api/auth/token HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: teapot\r\n\r\n']));
    assert.equal(a.status, 417);
    assert.match(a.head, /Content-Type: application\/json/i);
    const [e] = a.json as { code: string; message: string }[];
    assert.equal(e!.code, 'BAD_REQUEST');
    assert.match(e!.message, /"teapot" cannot be met/);
  });
});
