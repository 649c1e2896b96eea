// Redaction that no decoding undoes: a real HTTP server echoes each kind of secret
// (password, token, API key, the Basic credentials) in every form a server or a
// gateway may wrap it in (raw, HTML entities named and numeric, JSON `\u` escapes,
// percent-encoding, a JSON string nested in JSON, member names, response headers,
// redirects, layers of these), and the secret must be nowhere: not in the thrown
// error, not in the log, not in a job's journal files on disk. Each place is also
// decoded by the test (its own decoder) before it is searched.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as http from 'node:http';
import { ServiceClient, type Credentials } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { decodeOnce, redact, secretVariants } from '../../src/api/http';
import { redactingLogger } from '../../src/api/logger';
import { JobJournal, planJob, runJob } from '../../src/bulk';
import { capturingLogger, rejection, startServer, stringifyDeep, type TestServer } from './api-helpers';

// Each holds characters that HTML, JSON and percent-encoding change (& < > / + " =).
const TOKEN = 'tok3n&<x>/+Q==';
const PASSWORD = 'pa55&<w>rd/+"sec';
const API_KEY = 'k3y&<ab>/+cd==';
const LOGIN = 'someone';
const BASIC = Buffer.from(`${LOGIN}:${PASSWORD}`, 'utf8').toString('base64');

interface Kind {
  label: string;
  creds: Credentials;
  /** What must never show. */
  secrets: string[];
  /** The secret the server echoes (from what it received). */
  echo: (req: http.IncomingMessage, body: string) => string;
}

const KINDS: Kind[] = [
  { label: 'token (Bearer)', creds: { kind: 'bearer', token: TOKEN }, secrets: [TOKEN], echo: (req) => String(req.headers.authorization ?? '').replace(/^Bearer /, '') },
  { label: 'password (Basic)', creds: { kind: 'basic', loginName: LOGIN, password: PASSWORD }, secrets: [PASSWORD, BASIC], echo: () => PASSWORD },
  { label: 'Basic credentials (the header value)', creds: { kind: 'basic', loginName: LOGIN, password: PASSWORD }, secrets: [PASSWORD, BASIC], echo: (req) => String(req.headers.authorization ?? '').replace(/^Basic /, '') },
  { label: 'API key', creds: { kind: 'apiKey', key: API_KEY }, secrets: [API_KEY], echo: (req) => String(req.headers['x-tt-apikey'] ?? '') },
];

const named = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const numeric = (s: string) => [...s].map((c) => `&#${c.codePointAt(0)};`).join('');
const hexEntities = (s: string) => [...s].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('');
const uEscaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const percentAll = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

interface Answer {
  status?: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

/** Every form the harness used, each a whole answer. */
const FORMS: Record<string, (s: string) => Answer> = {
  'raw in a JSON message': (s) => ({ type: 'application/json', body: JSON.stringify([{ message: `denied for ${s}` }]) }),
  'HTML page, named entities (&amp; &lt; &gt; &quot;)': (s) => ({ type: 'text/html', body: `<html><head><title>401 ${named(s)}</title></head><body><p>denied ${named(s)}</p></body></html>` }),
  'HTML page, decimal entities': (s) => ({ type: 'text/html', body: `<html><body><p>denied ${numeric(s)}</p></body></html>` }),
  'HTML page, hex entities': (s) => ({ type: 'text/html', body: `<!doctype html><html><body>denied ${hexEntities(s)}</body></html>` }),
  'HTML entities inside a JSON message': (s) => ({ type: 'application/json', body: JSON.stringify({ message: `denied ${named(s)} / ${numeric(s)}` }) }),
  '\\u escapes in a JSON message': (s) => ({ type: 'application/json', body: `[{"message":"denied ${uEscaped(s)}","params":{"p":"${uEscaped(s)}"}}]` }),
  '\\u escapes in a JSON body without a message (raw fallback)': (s) => ({ type: 'application/json', body: `{"status":401,"echo":"${uEscaped(s)}"}` }),
  '\\u escapes in plain text': (s) => ({ type: 'text/plain', body: `denied ${uEscaped(s)}` }),
  'percent-encoded (every byte, lower case) in a message': (s) => ({ type: 'application/json', body: JSON.stringify([{ message: `see /login?auth=${percentAll(s)}` }]) }),
  'percent-encoded (encodeURIComponent) in plain text': (s) => ({ type: 'text/plain', body: `Unauthorized: auth=${encodeURIComponent(s)}` }),
  'a JSON string nested in JSON, escaped inside': (s) => ({ type: 'application/json', body: JSON.stringify({ message: `upstream said {"error":{"password":"${uEscaped(s)}"}}` }) }),
  'a JSON document as a string member, no message': (s) => ({ type: 'application/json', body: JSON.stringify({ status: 401, upstream: JSON.stringify({ auth: s, list: [s] }) }) }),
  'member names (plain and escaped)': (s) => ({ type: 'application/json', body: `{"errors":{${JSON.stringify(s)}:["bad"],"${uEscaped(s)}":["bad too"]}}` }),
  'layers: percent-encoded HTML entities': (s) => ({ type: 'text/plain', body: `denied ${encodeURIComponent(named(s))}` }),
  'layers: HTML-encoded \\u escapes in an HTML page': (s) => ({ type: 'text/html', body: `<html><body>${named(uEscaped(s))}</body></html>` }),
  'response headers': (s) => ({
    type: 'application/json',
    body: JSON.stringify({ message: 'denied' }),
    headers: { 'www-authenticate': `Bearer error="invalid_token", token="${encodeURIComponent(s)}"`, 'x-echo': encodeURIComponent(s), 'set-cookie': `auth=${encodeURIComponent(s)}` },
  }),
  'a redirect (Location and body)': (s) => ({
    status: 302,
    type: 'text/html',
    body: `<html><body><a href="/login?next=${named(encodeURIComponent(s))}">${named(s)}</a></body></html>`,
    headers: { location: `/login?token=${encodeURIComponent(s)}` },
  }),
};

/** The test's own decoder: every layer of entities, escapes and percent-encoding, each layer kept. */
function layers(text: string): string[] {
  const out = [text];
  let cur = text;
  for (let i = 0; i < 8; i++) {
    const next = cur
      .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
      .replace(/&#([0-9]+);?/g, (_m, d: string) => String.fromCodePoint(Number(d)))
      .replace(/&quot;?/g, '"')
      .replace(/&lt;?/g, '<')
      .replace(/&gt;?/g, '>')
      .replace(/&amp;?/g, '&')
      .replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\\//g, '/')
      .replace(/\\"/g, '"')
      .replace(/(%[0-9a-f]{2})+/gi, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      });
    if (next === cur) break;
    out.push(next);
    cur = next;
  }
  return out;
}

function assertNowhere(where: string, text: string, secrets: readonly string[]): void {
  for (const layer of layers(text)) {
    for (const s of secrets) assert.ok(!layer.includes(s), `${where} holds the secret ${JSON.stringify(s)}: ${text.slice(0, 600)}`);
  }
}

async function filesUnder(dir: string): Promise<string> {
  let all = '';
  for (const f of await fs.readdir(dir, { recursive: true })) {
    const p = path.join(dir, f);
    if ((await fs.stat(p)).isFile()) all += `${await fs.readFile(p, 'utf8')}\n`;
  }
  return all;
}

describe('redaction survives every decoding (a real server echoes each secret in every form)', () => {
  let server: TestServer;
  let kind: Kind = KINDS[0]!;
  let form = Object.keys(FORMS)[0]!;
  before(async () => {
    server = await startServer((req, res, body) => {
      let echoed = kind.echo(req, body);
      if (req.url?.endsWith('/auth/token')) echoed = (JSON.parse(body) as { password: string }).password;
      const a = FORMS[form]!(echoed);
      res.writeHead(a.status ?? (req.method === 'PUT' ? 400 : 401), { 'content-type': a.type, ...(a.headers ?? {}) });
      res.end(a.body);
    });
  });
  after(async () => server.close());

  for (const k of KINDS) {
    for (const name of Object.keys(FORMS)) {
      it(`${k.label}, ${name}: not in the error, the log or the journal`, async () => {
        kind = k;
        form = name;
        const log = capturingLogger();
        const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => k.creds, logger: log });
        const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-redact2-'));
        try {
          // A read: the thrown error.
          const e = await rejection(() => client.listProcessCategories({ limit: 1 }));
          assert.ok(isServiceError(e) && e.kind === 'http', stringifyDeep(e));
          // Not vacuous: the server did put the secret into its answer.
          const received = server.received.at(-1)!;
          assert.ok(k.secrets.some((s) => k.echo({ headers: received.headers } as http.IncomingMessage, '').includes(s) || s === PASSWORD));
          assert.ok(e.messages.length > 0, 'the error still says something');
          assertNowhere('the error', `${stringifyDeep(e)} ${e.message} ${e.stack ?? ''} ${JSON.stringify(e.entries)}`, k.secrets);

          // An update job: its result, its log and its journal files on disk.
          const plan = planJob({ workItemIds: ['1', '2', '3'], update: { fields: { Name: 'x' } }, baseUrl: server.baseUrl, maxIdsPerRequest: 2 });
          const journal = await JobJournal.create(dir, { source: {}, plan });
          const r = await runJob(plan, { client, journal, logger: log, minIntervalMs: 0, concurrency: 1 });
          assert.equal(r.requests[0]!.state, 'failed');
          assertNowhere('the job result', stringifyDeep(r), k.secrets);
          const reloaded = await JobJournal.load(journal.file);
          assertNowhere('the journal read back', stringifyDeep(reloaded.data), k.secrets);
          const onDisk = await filesUnder(dir);
          assert.ok(onDisk.includes('"failed"'), 'the journal holds the failures');
          assertNowhere('the journal files', onDisk, k.secrets);
          assertNowhere('the log', log.text(), k.secrets);
        } finally {
          await client.close();
          await fs.rm(dir, { recursive: true, force: true });
        }
      });
    }
  }

  for (const name of Object.keys(FORMS)) {
    it(`sign-in: the password echoed by POST /auth/token, ${name}: not in the error or the log`, async () => {
      kind = KINDS[1]!;
      form = name;
      const log = capturingLogger();
      const client = new ServiceClient({ baseUrl: server.baseUrl, logger: log });
      try {
        const e = await rejection(() => client.signIn(LOGIN, PASSWORD));
        assert.ok(isServiceError(e), stringifyDeep(e));
        assert.ok(server.received.at(-1)!.body.includes('pa55'), 'the password was sent');
        assertNowhere('the sign-in error', `${stringifyDeep(e)} ${e.message}`, [PASSWORD]);
        assertNowhere('the log', log.text(), [PASSWORD]);
      } finally {
        await client.close();
      }
    });
  }
});

describe('redact: each decoding step is followed by another redaction', () => {
  const secrets = secretVariants([PASSWORD]);
  it('HTML entities, \\u escapes and percent-encoding, alone and nested, are all undone before the search', () => {
    for (const wrapped of [named(PASSWORD), numeric(PASSWORD), hexEntities(PASSWORD), uEscaped(PASSWORD), percentAll(PASSWORD), encodeURIComponent(named(PASSWORD)), named(uEscaped(PASSWORD)), percentAll(numeric(PASSWORD))]) {
      const out = redact(`before ${wrapped} after`, secrets);
      assertNowhere(`redact(${wrapped})`, out, [PASSWORD]);
      assert.match(out, /before \*\*\* after/);
    }
  });
  it('a text that hides no secret is left as it was (its encodings too)', () => {
    const text = 'a &amp; b, 50%25 done, \\u0041 and %zz';
    assert.equal(redact(text, secrets), text);
    assert.equal(decodeOnce('&lt;&#65;&#x42;\\u0043%44'), '<ABCD');
  });
  it('the redacting logger scrubs every line and argument before the inner log gets it', () => {
    const inner = capturingLogger();
    const log = redactingLogger(inner, (t) => redact(t, secrets));
    log.warn(`said ${named(PASSWORD)}`, `and ${percentAll(PASSWORD)}`);
    log.error(new Error(`boom ${uEscaped(PASSWORD)}`));
    assert.equal(inner.lines.length, 2);
    assertNowhere('the log', inner.text(), [PASSWORD]);
  });
});
