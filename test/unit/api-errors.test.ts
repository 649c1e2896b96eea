import * as assert from 'node:assert/strict';
import { ServiceError, NETWORK_REASON_TEXT, type NetworkReason } from '../../src/api/errors';
import { classifyTransportError, htmlToText, parseErrorBody, parseRetryAfter, redact, MAX_RAW_TEXT } from '../../src/api/http';

describe('api errors: parseErrorBody', () => {
  const cases: [string, string, string[], string[]][] = [
    ['the documented array', '[{"message":"Name is empty","code":"NAME_EMPTY"},{"message":"Bad user"}]', ['Name is empty', 'Bad user'], ['NAME_EMPTY']],
    ['one object', '{"message":"Not found"}', ['Not found'], []],
    ['capitalised Message (ASP.NET)', '{"Message":"An error has occurred.","ExceptionMessage":"x"}', ['An error has occurred.'], []],
    ['errors array of objects', '{"errors":[{"message":"a","code":"E1"},{"message":"b","code":2}]}', ['a', 'b'], ['E1', '2']],
    ['errors array of strings', '{"errors":["first","second"]}', ['first', 'second'], []],
    ['validation-problem map', '{"title":"One or more validation errors occurred.","errors":{"Name":["too long"],"Code":["bad","worse"]}}', ['Name: too long', 'Code: bad', 'Code: worse'], []],
    ['nested error object', '{"error":{"code":"Forbidden","message":"no permission","innerError":{"message":"inner"}}}', ['no permission', 'inner'], ['Forbidden']],
    ['nested arrays', '[[{"message":"deep"}],[["deeper"]]]', ['deep', 'deeper'], []],
    ['message and nested errors', '{"message":"Update failed","errors":[{"message":"item 3: name empty"}]}', ['Update failed', 'item 3: name empty'], []],
    ['a JSON string', '"plain json string"', ['plain json string'], []],
    ['error as a string', '{"error":"invalid_grant","error_description":"bad password"}', ['bad password'], []],
    ['title only', '{"type":"about:blank","title":"Forbidden","status":403}', ['Forbidden'], []],
    ['duplicates collapse', '[{"message":"same"},{"message":"same"}]', ['same'], []],
  ];
  for (const [name, body, messages, codes] of cases) {
    it(`reads ${name}`, () => {
      assert.deepEqual(parseErrorBody(body, 'application/json'), { messages, codes });
    });
  }

  it('falls back to the raw JSON text when no message is found', () => {
    assert.deepEqual(parseErrorBody('{"status":500,"trace":"x"}').messages, ['{"status":500,"trace":"x"}']);
    assert.deepEqual(parseErrorBody('[]').messages, ['[]']);
    assert.deepEqual(parseErrorBody('{"code":"E9"}'), { messages: ['{"code":"E9"}'], codes: ['E9'] });
  });

  it('keeps plain text, trimmed', () => {
    assert.deepEqual(parseErrorBody('  Service Unavailable \n', 'text/plain').messages, ['Service Unavailable']);
  });

  it('keeps broken JSON as raw text', () => {
    assert.deepEqual(parseErrorBody('[{"message": "cut', 'application/json').messages, ['[{"message": "cut']);
  });

  it('reduces HTML to its title and text', () => {
    const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>p{}</style></head><body><h1>Bad Gateway</h1><p>The proxy got an invalid response &amp; gave up.</p><script>x()</script></body></html>';
    const m = parseErrorBody(html, 'text/html').messages;
    assert.equal(m.length, 1);
    assert.equal(m[0], '502 Bad Gateway — Bad Gateway The proxy got an invalid response & gave up.');
    assert.equal(htmlToText('<p>a</p>'), 'a');
  });

  it('gives no message for an empty body', () => {
    assert.deepEqual(parseErrorBody(''), { messages: [], codes: [] });
    assert.deepEqual(parseErrorBody('  \n '), { messages: [], codes: [] });
  });

  it('caps a long raw body and says how much was cut', () => {
    const m = parseErrorBody('x'.repeat(50_000)).messages[0];
    assert.ok(m.length < MAX_RAW_TEXT + 50);
    assert.match(m, /… \(48000 more characters\)$/);
  });

  it('caps the number of messages', () => {
    const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ message: `m${i}` })));
    assert.equal(parseErrorBody(body).messages.length, 50);
  });

  it('does not recurse forever on deep nesting', () => {
    let v: unknown = { message: 'bottom' };
    for (let i = 0; i < 1000; i++) v = [v];
    const m = parseErrorBody(JSON.stringify(v)).messages;
    assert.equal(m.length, 1); // the raw-text fallback, capped
  });
});

describe('api errors: parseRetryAfter', () => {
  const now = Date.parse('2026-01-05T09:00:00Z');
  it('reads delta-seconds', () => {
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
  });
  it('reads an HTTP date', () => {
    assert.equal(parseRetryAfter('Mon, 05 Jan 2026 09:00:30 GMT', now), 30_000);
  });
  it('gives 0 for a date in the past', () => {
    assert.equal(parseRetryAfter('Mon, 05 Jan 2026 08:00:00 GMT', now), 0);
  });
  it('ignores missing and unreadable values', () => {
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('-5', now), undefined);
    assert.equal(parseRetryAfter('1.5', now), undefined);
  });
  it('takes the first of repeated headers', () => {
    assert.equal(parseRetryAfter(['3', '9'], now), 3000);
  });
});

describe('api errors: redact', () => {
  it('replaces every occurrence of each secret', () => {
    assert.equal(redact('token abcd1234 and abcd1234', ['abcd1234']), 'token *** and ***');
    assert.equal(redact('short ab', ['ab']), 'short ab'); // too short to redact safely
  });
});

describe('api errors: classifyTransportError', () => {
  const sys = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...extra });
  const cases: [string, unknown, boolean, string, string | undefined, NetworkReason | undefined][] = [
    ['ECONNREFUSED', sys('ECONNREFUSED'), false, 'connect', 'ECONNREFUSED', 'connection-refused'],
    ['AggregateError of refusals', Object.assign(new AggregateError([sys('ECONNREFUSED'), sys('ECONNREFUSED')]), { code: 'ECONNREFUSED' }), false, 'connect', 'ECONNREFUSED', 'connection-refused'],
    ['ENOTFOUND', sys('ENOTFOUND'), false, 'connect', 'ENOTFOUND', 'dns-not-found'],
    ['EAI_AGAIN', sys('EAI_AGAIN'), false, 'connect', 'EAI_AGAIN', 'dns-temporary'],
    ['EHOSTUNREACH', sys('EHOSTUNREACH'), false, 'connect', 'EHOSTUNREACH', 'host-unreachable'],
    ['connect timeout', sys('UND_ERR_CONNECT_TIMEOUT'), false, 'connect', 'UND_ERR_CONNECT_TIMEOUT', 'connect-timeout'],
    ['self-signed', sys('DEPTH_ZERO_SELF_SIGNED_CERT'), false, 'connect', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'tls-self-signed'],
    ['self-signed in chain', sys('SELF_SIGNED_CERT_IN_CHAIN'), false, 'connect', 'SELF_SIGNED_CERT_IN_CHAIN', 'tls-self-signed'],
    ['unknown CA', sys('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), false, 'connect', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls-unknown-ca'],
    ['unknown issuer', sys('UNABLE_TO_GET_ISSUER_CERT_LOCALLY'), false, 'connect', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'tls-unknown-ca'],
    ['host name mismatch', sys('ERR_TLS_CERT_ALTNAME_INVALID'), false, 'connect', 'ERR_TLS_CERT_ALTNAME_INVALID', 'tls-hostname-mismatch'],
    ['expired', sys('CERT_HAS_EXPIRED'), false, 'connect', 'CERT_HAS_EXPIRED', 'tls-expired'],
    ['TLS wrapped as the cause of a proxy error', Object.assign(new Error('proxy tls'), { code: 'UND_ERR_PRX_TLS', cause: sys('ERR_TLS_CERT_ALTNAME_INVALID') }), false, 'connect', 'ERR_TLS_CERT_ALTNAME_INVALID', 'tls-hostname-mismatch'],
    ['https to a plain-http port', sys('EPROTO'), false, 'connect', 'EPROTO', 'tls-protocol'],
    ['proxy 407', Object.assign(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' }), false, 'connect', 'UND_ERR_ABORTED', 'proxy-auth-required'],
    ['proxy 403', Object.assign(new Error('Proxy response (403) !== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' }), false, 'connect', 'UND_ERR_ABORTED', 'proxy-refused'],
    ['proxy 407 for a forwarded plain-http request', Object.assign(new Error('Proxy Authentication Required (407)'), { code: 'UND_ERR_INVALID_ARG' }), true, 'connect', 'UND_ERR_INVALID_ARG', 'proxy-auth-required'],
    ['reset before writing', sys('ECONNRESET'), false, 'connect', 'ECONNRESET', 'connection-reset'],
    ['reset after writing', sys('ECONNRESET'), true, 'network', 'ECONNRESET', 'connection-reset'],
    ['socket closed after writing', sys('UND_ERR_SOCKET'), true, 'network', 'UND_ERR_SOCKET', 'socket-closed'],
    ['socket closed before writing', sys('UND_ERR_SOCKET'), false, 'connect', 'UND_ERR_SOCKET', 'socket-closed'],
    ['EPIPE after writing', sys('EPIPE'), true, 'network', 'EPIPE', 'connection-reset'],
    ['headers timeout', sys('UND_ERR_HEADERS_TIMEOUT'), true, 'timeout', 'UND_ERR_HEADERS_TIMEOUT', 'headers-timeout'],
    ['body timeout', sys('UND_ERR_BODY_TIMEOUT'), true, 'timeout', 'UND_ERR_BODY_TIMEOUT', 'body-timeout'],
    ['parser error', sys('HPE_INVALID_CONSTANT'), true, 'network', 'HPE_INVALID_CONSTANT', 'protocol-error'],
    ['unknown, after writing', new Error('weird'), true, 'network', undefined, undefined],
    ['unknown, before writing', new Error('weird'), false, 'connect', undefined, undefined],
  ];
  for (const [name, err, sent, kind, code, reason] of cases) {
    it(`${name} → ${kind}${reason ? ` / ${reason}` : ''}`, () => {
      assert.deepEqual(classifyTransportError(err, sent), { kind, code, reason });
    });
  }

  it('tells a refused proxy from a refused service', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3128'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 3128 });
    assert.equal(classifyTransportError(err, false, [{ host: '127.0.0.1', port: 3128 }]).reason, 'proxy-unreachable');
    assert.equal(classifyTransportError(err, false, [{ host: '127.0.0.1', port: 8080 }]).reason, 'connection-refused');
  });
});

describe('api errors: ServiceError', () => {
  const base = { method: 'PUT', path: '/workitem/workItems/1' };
  it('says what happened, with status and every message', () => {
    const e = new ServiceError({ ...base, kind: 'http', status: 400, messages: ['a', 'b'] });
    assert.equal(e.message, 'PUT /workitem/workItems/1 failed with status 400: a / b');
    assert.equal(e.name, 'ServiceError');
  });
  it('names the cause of a transport failure in English', () => {
    const e = new ServiceError({ ...base, kind: 'connect', code: 'DEPTH_ZERO_SELF_SIGNED_CERT', reason: 'tls-self-signed' });
    assert.match(e.message, /could not connect \(DEPTH_ZERO_SELF_SIGNED_CERT\): the server's TLS certificate is self-signed/);
  });
  it('has an English text for every reason', () => {
    for (const [reason, text] of Object.entries(NETWORK_REASON_TEXT)) assert.ok(text.length > 10, reason);
  });
  it('outcomeUnknown: only when the request may have been applied', () => {
    const u = (init: Partial<ConstructorParameters<typeof ServiceError>[0]>) => new ServiceError({ ...base, kind: 'http', ...init }).outcomeUnknown;
    assert.equal(u({ kind: 'network' }), true);
    assert.equal(u({ kind: 'timeout' }), true);
    assert.equal(u({ kind: 'http', status: 500 }), true);
    assert.equal(u({ kind: 'http', status: 502 }), true);
    assert.equal(u({ kind: 'http', status: 503 }), true, 'a 503 without Retry-After may come after the service applied it');
    assert.equal(u({ kind: 'http', status: 503, retryAfterMs: 0 }), false, 'a 503 with Retry-After says it was not taken');
    assert.equal(u({ kind: 'http', status: 400 }), false);
    assert.equal(u({ kind: 'connect' }), false);
    assert.equal(u({ kind: 'cancelled', sent: false }), false);
    assert.equal(u({ kind: 'cancelled', sent: true }), true);
    assert.equal(u({ kind: 'invalid-request' }), false);
  });
  it('safeToRetry: connect failures and 429/503 with Retry-After only', () => {
    const s = (init: Partial<ConstructorParameters<typeof ServiceError>[0]>) => new ServiceError({ ...base, kind: 'http', ...init }).safeToRetry;
    assert.equal(s({ kind: 'connect' }), true);
    assert.equal(s({ status: 429, retryAfterMs: 1000 }), true);
    assert.equal(s({ status: 503, retryAfterMs: 0 }), true);
    assert.equal(s({ status: 429 }), false);
    assert.equal(s({ status: 500, retryAfterMs: 1000 }), false);
    assert.equal(s({ kind: 'network' }), false);
    assert.equal(s({ kind: 'timeout' }), false);
  });
  it('shortens a very long path in its message', () => {
    const e = new ServiceError({ method: 'PUT', path: `/workitem/workItems/${'1,'.repeat(1000)}`, kind: 'timeout' });
    assert.ok(e.message.length < 400);
  });
});
