// A randomized HTTP fuzz of the sandbox (fast-check), over raw sockets so nothing
// is cleaned up by an HTTP client first: malformed and hostile bodies (of updates,
// adds and duplicates), hostile paths and query strings, odd methods and headers. Properties: never a 5xx,
// every answer is JSON (errors: an array of {message, code}), and the data set is
// unchanged after every rejected request. Bounded to a few hundred requests.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import fc from 'fast-check';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** One request over its own connection; the whole answer (Content-Length framed, or until close). */
function send(port: number, request: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(all.toString('latin1').slice(0, 200))}`));
      const head = all.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1]);
      const headers = new Map(head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const));
      const length = Number(headers.get('content-length') ?? NaN);
      let raw: Buffer = all.subarray(end + 4, Number.isFinite(length) ? end + 4 + length : undefined);
      if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') raw = dechunk(raw);
      resolve({ status, headers, body: raw.toString('utf8') });
    });
  });
}

/** The body of a chunked answer (Transfer-Encoding: chunked, as a streamed subItems answer is sent). */
function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

const BASIC = `Basic ${Buffer.from('admin:password').toString('base64')}`;

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

const hostileSegment = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%2E%2E%2F', '%00', '%', '%zz', '%E0%A4%A', '%C0%AF', '~', '*', ',', ',,', '111,,112', ' ', '%20', '%0d%0a', '\u00e9', '\u4f5c\u696d', 'null', 'undefined', '__proto__', 'constructor', 'prototype', '-1', '1e309', '0x10', 'a'.repeat(3000)),
  fc.stringMatching(/^[A-Za-z0-9._~%,:@!$&'()*+;=-]{0,40}$/),
);

/** Existing IDs (work items, projects, organizations of the demo) half the time, so requests reach the rules. */
const idSegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('10', '111', '112', '111,112', '124', '150', '200', '216', '310', '3001', '1001', '1002') },
  { weight: 2, arbitrary: hostileSegment },
);

const knownPath = fc.constantFrom(
  '/api/workitem/workItems/{}',
  '/api/workitem/workItems/{}/subItems',
  '/api/workitem/workItems/{}/subItems/duplicate',
  '/api/workitem/workitems/{}/SUBITEMS/Duplicate',
  '/api/project/projects',
  '/api/project/projects/{}',
  '/api/system/users/me',
  '/api/system/organizations/{}/allassignedusers',
  '/api/system/organizations/{}/users',
  '/api/system/processCategories',
  '/api/auth/token',
  '/_sandbox/workitems/{}',
  '/API/System/ProcessCategories',
  '/api//system//processCategories',
  '/api/system/processCategories/',
  '/',
  '',
  '*',
);

const path = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(knownPath, idSegment).map(([p, s]) => p.replace('{}', s)) },
  { weight: 1, arbitrary: fc.array(hostileSegment, { maxLength: 6 }).map((segs) => `/${segs.join('/')}`) },
  { weight: 1, arbitrary: fc.constantFrom('/api/../_sandbox/dump', '/%2e%2e/_sandbox/dump', 'http://example.com/api/system/processCategories', '/api/system/processCategories#x') },
).filter((p) => !/faults|reset/i.test(p) && !/[\r\n\s]/.test(decodeURIComponentSafe(p).replace(/[ ]/g, '')) && !/[\s]/.test(p));

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const queryKey = fc.constantFrom('limit', 'offset', 'orderby', 'includeDeleted', 'isDeleted', 'name', 'code', 'keyword', 'fields', 'depth', 'ids', 'LIMIT', '__proto__', 'constructor', '', '%', 'a[b]', 'x');
const queryValue = fc.oneof(
  fc.constantFrom('', '-1', '0', '1', '1000', '1001', '1e3', 'NaN', 'Infinity', '99999999999999999999', 'true', 'false', 'maybe', 'name asc', 'name%20desc', 'colour', '%', '%zz', '%00', "';--", '<script>', '\u4f5c\u696d'),
  fc.stringMatching(/^[A-Za-z0-9%._~-]{0,30}$/),
);
const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 5 }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

const prototypeName = fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf');
const hostileJson = fc.oneof(
  fc.constantFrom(
    '{"moveScheduleDays": 100000000}',
    '{"moveScheduleDays": -100000000}',
    '{"moveScheduleDays": 1e308}',
    '{"moveScheduleDays": 1.5}',
    '{"fields": {"constructor": null}}',
    '{"fields": {"__proto__": {"Name": "x"}}}',
    '{"__proto__": {"setCompleted": true}}',
    '{"fields": {"Name": ""}}',
    '{"fields": {"PlannedStartDate": "9999-99-99"}}',
    '{"fields": {"PlannedTime": 1e400}}',
    '{"assignmentChange": {"adds": [{"partyId": null}]}}',
    '{"orderFirst": true, "orderLast": true}',
    '{"restore": "yes"}',
    '{"loginName": "admin"}',
    '{"loginname": "admin", "LOGINNAME": "admin", "password": "x"}',
    '[]',
    'null',
    '0',
    '"text"',
    '{}',
    '{"a":',
    '{"a": 1,}',
    "{'a': 1}",
    '\u00ef\u00bb\u00bf{}',
    '{"a": "\\ud800"}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `{"fields": ${'{"a":'.repeat(70)}1${'}'.repeat(70)}}`,
  ),
  fc.tuple(prototypeName, fc.json()).map(([k, v]) => `{"fields": {${JSON.stringify(k)}: ${v}}}`),
  fc.json().map((j) => `{"fields": {"Name": ${j}}}`),
  // Custom fields of the demo (checked by type), old and read-only system names, "0" for none, any value.
  fc
    .tuple(fc.constantFrom('CustomText1', 'CustomNumber1', 'CustomDate1', 'CustomList1', 'CustomText2', 'StartDate', 'WorkCategoryId', 'ProjectName', 'ParentId', 'LeaderId', 'TimeEntryCategoryId'), fc.oneof(fc.json(), fc.constant('"0"')))
    .map(([k, v]) => `{"fields": {${JSON.stringify(k)}: ${v}}}`),
  fc.constantFrom('CustomText1', 'CustomList1,Description', 'StartDate').map((f) => `{"propagateToChildren": {"fields": ${JSON.stringify(f)}}}`),
  // Assignment updates named by partyId (official help U3), by nothing, or by anything.
  fc.json().map((j) => `{"assignmentChange": {"updates": [{"partyId": ${j}, "plannedTime": 120}], "removes": "2101,2102"}}`),
  fc.constantFrom('{"assignmentChange": {"updates": [{"plannedTime": 120}]}}', '{"assignmentChange": {"updates": [{"user": "", "partyId": ""}]}}'),
  fc.json(),
  fc.string({ maxLength: 200 }),
);
/** Add bodies (A1): the required members left out, wrong types, nesting, order members and metadata of any value. */
const addJson = fc.oneof(
  fc.constantFrom(
    '{}',
    '{"fields": {}}',
    '{"fields": {"Name": "x"}}',
    '{"fields": {"ItemTypeId": "42"}}',
    '{"fields": {"ItemTypeId": "41", "Name": "f"}, "subItems": [{"fields": {"ItemTypeId": "41", "Name": "g"}, "subItems": [{"fields": {"ItemTypeId": "46", "Name": "bad"}}]}]}',
    '{"fields": {"ItemTypeId": "42", "Name": "t"}, "subItems": [{"fields": {"ItemTypeId": "41", "Name": "folder below a task"}}]}',
    '{"fields": {"ItemTypeId": "40", "Name": "root type"}}',
    '{"fields": {"ItemTypeId": "42", "Name": "t", "ParentId": "10"}}',
    '{"fields": {"ItemTypeId": "42", "Name": "t"}, "orderFirst": true, "orderLast": true}',
    '{"fields": {"ItemTypeId": "42", "Name": "t"}, "assignments": [{"partyId": "99999"}]}',
    '{"fields": {"ItemTypeId": "42", "Name": "t"}, "metadata": {"": "x"}}',
    '{"fields": {"ItemTypeId": "42", "Name": "t"}, "subItems": null}',
    `{"fields": {"ItemTypeId": "41", "Name": "deep"}, "subItems": [${'{"fields": {"ItemTypeId": "41", "Name": "d"}, "subItems": ['.repeat(20)}${']}'.repeat(20)}]}`,
  ),
  fc.json().map((j) => `{"fields": {"ItemTypeId": "42", "Name": ${j}}}`),
  fc.json().map((j) => `{"fields": {"ItemTypeId": ${j}, "Name": "x"}}`),
  fc.tuple(fc.constantFrom('subItems', 'assignments', 'metadata', 'orderAfter', 'orderBefore', 'orderFirst', 'fieldCalcTypes', 'SubItems', '__proto__'), fc.json()).map(([k, j]) => `{"fields": {"ItemTypeId": "42", "Name": "x"}, ${JSON.stringify(k)}: ${j}}`),
  fc.json(),
);
/** Duplicate bodies (A3). */
const duplicateJson = fc.oneof(
  fc.constantFrom('{}', '{"fromItemIds": ""}', '{"fromItemIds": "111,99999"}', '{"fromItemIds": "10"}', '{"fromItemIds": "111", "fieldsToCopy": "ActualTime"}', '{"fromItemIds": "111", "fromProjectId": "nope"}'),
  fc.tuple(fc.constantFrom('fromItemIds', 'fromProjectId', 'fieldsToCopy', 'duplicateAllChildren', 'clearCheckItemStatus', 'orderAfter', 'orderLast'), fc.json()).map(([k, j]) => `{"fromItemIds": "111", ${JSON.stringify(k)}: ${j}}`),
  fc.json(),
);
const body = fc.option(fc.oneof({ weight: 3, arbitrary: hostileJson }, { weight: 1, arbitrary: addJson }), { nil: undefined, freq: 3 });

const contentType = fc.option(
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', ''),
  { nil: undefined },
);
const auth = fc.constantFrom<[string, string] | undefined>(
  ['authorization', BASIC],
  ['authorization', BASIC],
  ['authorization', 'Bearer nope'],
  ['authorization', 'Basic !!!'],
  ['authorization', 'Negotiate abc'],
  ['authorization', ''],
  ['x-tt-apikey', 'demo-api-key-admin'],
  ['x-tt-apikey', 'no-such-key'],
  undefined,
);
const method = fc.constantFrom('GET', 'GET', 'PUT', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'FOO');

const validAuth = fc.constantFrom<[string, string] | undefined>(['authorization', BASIC], ['x-tt-apikey', 'demo-api-key-admin']);
const jsonType = fc.constantFrom<string | undefined>('application/json', 'application/json; charset=utf-8', undefined);
const listPath = fc.oneof(
  fc.constantFrom('/api/system/processCategories', '/api/project/projects', '/api/system/users/me'),
  fc.tuple(fc.constantFrom('/api/system/organizations/{}/users', '/api/system/organizations/{}/allassignedusers', '/api/workitem/workItems/{}', '/api/workitem/workItems/{}/subItems', '/api/project/projects/{}', '/api/project/projects/{}?includes=Members,UserGroups'), idSegment).map(([p, id]) => p.replace('{}', id)),
);

/** Mostly well-formed requests with one hostile part each, so they get past sign-in and routing to the rules; plus anything at all. */
const request = fc.oneof(
  // An update of existing items with a hostile body.
  { weight: 4, arbitrary: fc.record({ method: fc.constant('PUT'), path: idSegment.map((id) => `/api/workitem/workItems/${id}`), query: fc.constant(''), body: hostileJson, contentType: jsonType, auth: validAuth, badLength: fc.constant(false) }) },
  // An add, a duplicate or a delete below (of) existing items with a hostile body or ID.
  { weight: 2, arbitrary: fc.record({ method: fc.constant('POST'), path: idSegment.map((id) => `/api/workitem/workItems/${id}/subItems`), query: fc.constant(''), body: addJson, contentType: jsonType, auth: validAuth, badLength: fc.constant(false) }) },
  { weight: 1, arbitrary: fc.record({ method: fc.constant('POST'), path: idSegment.map((id) => `/api/workitem/workItems/${id}/subItems/duplicate`), query: fc.constant(''), body: duplicateJson, contentType: jsonType, auth: validAuth, badLength: fc.constant(false) }) },
  { weight: 1, arbitrary: fc.record({ method: fc.constant('DELETE'), path: idSegment.map((id) => `/api/workitem/workItems/${id}`), query: fc.constant(''), body: fc.constant(undefined), contentType: fc.constant(undefined), auth: validAuth, badLength: fc.constant(false) }) },
  // A read with a hostile query string or ID.
  { weight: 3, arbitrary: fc.record({ method: fc.constant('GET'), path: listPath, query, body: fc.constant(undefined), contentType: fc.constant(undefined), auth: validAuth, badLength: fc.constant(false) }) },
  // Sign-in with hostile bodies and content types.
  { weight: 1, arbitrary: fc.record({ method: fc.constant('POST'), path: fc.constant('/api/auth/token'), query: fc.constant(''), body, contentType, auth: fc.constant(undefined), badLength: fc.boolean() }) },
  // Anything.
  { weight: 3, arbitrary: fc.record({ method, path, query, body, contentType, auth, badLength: fc.boolean() }) },
);
type Req = typeof request extends fc.Arbitrary<infer T> ? T : never;

function build(r: Req): Buffer {
  const bytes = r.body === undefined ? undefined : Buffer.from(r.body, 'utf8');
  const lines = [`${r.method} ${r.path}${r.query} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  if (r.auth) lines.push(`${r.auth[0]}: ${r.auth[1]}`);
  if (r.contentType !== undefined) lines.push(`Content-Type: ${r.contentType}`);
  if (bytes) lines.push(`Content-Length: ${r.badLength ? Math.max(0, bytes.length - 1) : bytes.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes ?? Buffer.alloc(0)]);
}

// ---------------------------------------------------------------------------

describe('sandbox fuzz: hostile requests over raw HTTP', function () {
  this.timeout(Number(process.env.WIS_FUZZ_RUNS ?? 0) > 1000 ? 0 : 55_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({ headersTimeoutMs: 2000, bodyTimeoutMs: 2000 });
  });
  after(async () => sandbox.close());

  it('never a 5xx, every answer JSON, the data set unchanged after each rejection', async () => {
    let accepted = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const before = JSON.stringify(sandbox.data);
        const a = await send(sandbox.port, build(r));
        const where = `${r.method} ${r.path}${r.query} body=${JSON.stringify(r.body?.slice(0, 120))} → ${a.status} ${a.body.slice(0, 300)}`;
        assert.ok(a.status >= 200 && a.status < 500, `no 5xx: ${where}`);
        assert.match(a.headers.get('content-type') ?? '', /^application\/json/, `JSON: ${where}`);
        let json: unknown;
        assert.doesNotThrow(() => (json = JSON.parse(a.body)), `a JSON body: ${where}`);
        if (a.status >= 400) {
          rejected++;
          assert.ok(Array.isArray(json) && json.length > 0, `an error array: ${where}`);
          for (const e of json as { message?: unknown; code?: unknown }[]) {
            assert.equal(typeof e.message, 'string', where);
            assert.equal(typeof e.code, 'string', where);
          }
          assert.equal(JSON.stringify(sandbox.data), before, `unchanged after a rejection: ${where}`);
        } else accepted++;
      }),
      { numRuns: Number(process.env.WIS_FUZZ_RUNS ?? 1000), interruptAfterTimeLimit: 40_000 },
    );
    assert.ok(rejected > 50, `rejections exercised: ${rejected} rejected, ${accepted} accepted`);
  });
});
