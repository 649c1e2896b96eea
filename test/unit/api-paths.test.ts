import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildUrl, isPlainId, MAX_ID_LENGTH, parseBaseUrl, validateId, validateWorkItemIdForPath, workItemsPath, InvalidPathError } from '../../src/api/paths';
import { validateWorkItemId, WORK_ITEM_ID_MAX_LENGTH } from '../../src/schema/rules';

describe('api paths: validateId', () => {
  const accepted = ['1', '120', 'abc-DEF_9', 'a.b', '..a', 'a..', '~x', 'user@example', 'ä', '日本語ID', '😀', 'x'.repeat(MAX_ID_LENGTH)];
  for (const id of accepted) {
    it(`accepts ${JSON.stringify(id.length > 30 ? `${id.slice(0, 10)}…(${id.length})` : id)}`, () => {
      assert.equal(validateId(id), undefined);
    });
  }

  const rejected: [string, string, RegExp][] = [
    ['empty', '', /must not be empty/],
    ['.', '.', /"\." is not a valid ID/],
    ['..', '..', /"\.\." is not a valid ID/],
    ['/', '/', /must not contain "\/"/],
    ['a/b', 'a/b', /must not contain "\/"/],
    ['../x', '../x', /must not contain "\/"/],
    ['backslash', 'a\\b', /must not contain "\\"/],
    ['comma', '1,2', /must not contain ","/],
    ['%2e', '%2e', /must not contain "%"/],
    ['%2e%2e', '%2e%2e', /must not contain "%"/],
    ['%2F', 'a%2Fb', /must not contain "%"/],
    ['%252e', '%252e', /must not contain "%"/],
    ['?', 'a?b=1', /must not contain "\?" or "#"/],
    ['#', 'a#b', /must not contain "\?" or "#"/],
    ['leading space', ' 1', /whitespace/],
    ['trailing space', '1 ', /whitespace/],
    ['tab', 'a\tb', /control|whitespace/],
    ['newline', 'a\nb', /control/],
    ['NUL', 'a\u0000b', /control/],
    ['DEL', 'a\u007fb', /control/],
    ['right-to-left override', 'a\u202eb', /invisible/],
    ['zero-width space', 'a\u200bb', /invisible|whitespace/],
    ['ideographic space', 'a\u3000b', /whitespace/],
    ['lone surrogate', 'a\ud800b', /well-formed Unicode/],
    ['10,000 characters', '1'.repeat(10_000), /at most 200 characters long \(this one has 10000\)/],
    ['201 characters', 'x'.repeat(MAX_ID_LENGTH + 1), /at most 200 characters/],
  ];
  for (const [name, id, message] of rejected) {
    it(`rejects ${name} with a clear message`, () => {
      const problem = validateId(id);
      assert.ok(problem, `expected ${JSON.stringify(id)} to be rejected`);
      assert.match(problem, message);
      assert.ok(problem.length < 300, 'the message stays short even for long IDs');
    });
  }

  it('rejects a non-string without throwing', () => {
    assert.match(validateId(42 as unknown as string) ?? '', /must be a string/);
    assert.match(validateId(null as unknown as string) ?? '', /must be a string, not null/);
  });

  it('shows control characters escaped in the message', () => {
    assert.match(validateId('a\u0001b') ?? '', /a\\u0001b/);
  });
});

describe('api paths: the plain-ID fast path', () => {
  it('takes an ID as plain only when both full checks accept it and encodeURIComponent leaves it as it is', () => {
    const edge = ['', '.', '..', '...', '.a', 'a.', '~', '-', '_', '1', 'x'.repeat(MAX_ID_LENGTH), 'x'.repeat(MAX_ID_LENGTH + 1), 'a b', 'a,b', 'a%2e', 'ä', 'a/b', 'a\\b', 'a?b', 'a#b', '\u200b', 'A-b_C.d~9'];
    const check = (id: string): void => {
      if (!isPlainId(id)) return;
      assert.equal(validateId(id), undefined, id);
      assert.equal(validateWorkItemId(id), undefined, id);
      assert.equal(encodeURIComponent(id), id, id);
    };
    edge.forEach(check);
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'aZ09-_.~/,%?# \u00e4'.split('')), maxLength: 12 }), (id) => check(id)), { numRuns: 2000 });
    assert.equal(isPlainId('120'), true);
    assert.equal(isPlainId('..'), false);
    assert.equal(isPlainId('x'.repeat(MAX_ID_LENGTH + 1)), false);
  });

  it('is exactly the unreserved characters of RFC 3986, 1 to the limit long, not . or .. (as the regular expression it replaces)', () => {
    const limit = Math.min(MAX_ID_LENGTH, WORK_ITEM_ID_MAX_LENGTH);
    const reference = (id: string): boolean => new RegExp(`^[A-Za-z0-9_~.-]{1,${limit}}$`).test(id) && id !== '.' && id !== '..';
    const chars = [...'azAZ09-_.~/,%?#@:+!*()[] \u00e4\u0000\u007f\u0080'];
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...chars), maxLength: 8 }), (id) => isPlainId(id) === reference(id)), { numRuns: 5000 });
    for (let c = 0; c < 0x2100; c++) assert.equal(isPlainId(String.fromCharCode(c)), reference(String.fromCharCode(c)), `U+${c.toString(16)}`);
    assert.equal(isPlainId('x'.repeat(limit)), true);
    assert.equal(isPlainId(12 as unknown as string), false);
  });

  it('gives the same answer through validateWorkItemIdForPath for plain and other IDs', () => {
    for (const id of ['120', 'abc-DEF_9', '..', 'a b', 'x'.repeat(MAX_ID_LENGTH + 1), 'ä']) {
      const full = id.length > MAX_ID_LENGTH ? validateId(id) : (validateWorkItemId(id) ?? validateId(id));
      assert.equal(validateWorkItemIdForPath(id), full, id);
    }
  });
});

describe('api paths: workItemsPath', () => {
  it('joins encoded IDs with a literal comma', () => {
    assert.equal(workItemsPath(['120', '121', '122']), '/workitem/workItems/120,121,122');
  });

  it('percent-encodes each ID on its own', () => {
    assert.equal(workItemsPath(['日本', 'a b'.replace(' ', '+'), 'x&y']), '/workitem/workItems/%E6%97%A5%E6%9C%AC,a%2Bb,x%26y');
  });

  it('names the position and the problem of a bad ID', () => {
    assert.throws(() => workItemsPath(['1', '..', '3']), (e: unknown) => e instanceof InvalidPathError && /#2/.test(e.message) && e.index === 1);
    assert.throws(() => workItemsPath(['1', '']), /#2.*empty/);
    assert.throws(() => workItemsPath(['1,2']), /comma/);
  });

  it('says the same as the request-document check (schema validateWorkItemId), plus URL-only checks', () => {
    assert.throws(() => workItemsPath(['..']), /Work item ID "\.\." is not valid/);
    assert.throws(() => workItemsPath(['%2e']), /"%"/);
    assert.throws(() => workItemsPath(['1'.repeat(10_000)]), /at most 200 characters long \(this one has 10000\)/);
  });

  it('refuses an empty list and duplicates', () => {
    assert.throws(() => workItemsPath([]), /at least one work item ID/);
    assert.throws(() => workItemsPath(['7', '8', '7']), /#3.*more than once/);
  });
});

describe('api paths: base URL and URL building', () => {
  it('keeps the path prefix of the base URL (trailing slash or not)', () => {
    for (const b of ['http://h.example/site/api', 'http://h.example/site/api/', 'http://h.example/site/api//']) {
      const base = parseBaseUrl(b);
      assert.equal(base.prefix, '/site/api');
      assert.equal(base.origin, 'http://h.example');
      assert.equal(buildUrl(base, workItemsPath(['1', '2'])).href, 'http://h.example/site/api/workitem/workItems/1,2');
    }
  });

  it('works with a base URL at the root', () => {
    const base = parseBaseUrl('https://h.example:8443');
    assert.equal(base.prefix, '');
    assert.equal(buildUrl(base, '/system/processCategories').href, 'https://h.example:8443/system/processCategories');
  });

  it('adds the query', () => {
    const base = parseBaseUrl('http://h/api');
    const url = buildUrl(base, '/system/processCategories', new URLSearchParams({ keyword: 'a&b 日本', limit: '5' }));
    assert.equal(url.searchParams.get('keyword'), 'a&b 日本');
    assert.equal(url.pathname, '/api/system/processCategories');
  });

  it('refuses paths that URL normalization would rewrite or that leave the prefix', () => {
    const base = parseBaseUrl('http://h/site/api');
    assert.throws(() => buildUrl(base, '/../../other'), InvalidPathError);
    assert.throws(() => buildUrl(base, '/%2e%2e/x'), InvalidPathError);
    // At the root, a path starting with "//" would be read as another host.
    assert.throws(() => buildUrl(parseBaseUrl('http://h'), '//evil.example/x'), /would leave the service origin/);
    assert.throws(() => buildUrl(base, 'relative'), InvalidPathError);
  });

  it('refuses base URLs that are not plain http(s) service addresses', () => {
    assert.throws(() => parseBaseUrl(''), /empty/);
    assert.throws(() => parseBaseUrl('not a url'), /not a valid URL/);
    assert.throws(() => parseBaseUrl('ftp://h/api'), /http:\/\/ or https:\/\//);
    assert.throws(() => parseBaseUrl('http://user:pw@h/api'), /must not contain a user name or password/);
    assert.throws(() => parseBaseUrl('http://h/api?x=1'), /query/);
    assert.throws(() => parseBaseUrl('http://h/api#x'), /fragment/);
  });

  it('property: every accepted ID list stays under the prefix and decodes back to the IDs', () => {
    const base = parseBaseUrl('http://h.example/site/api');
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme', minLength: 0, maxLength: 12 }), { minLength: 1, maxLength: 5 }), (ids) => {
        if (ids.some((id) => validateId(id) !== undefined)) {
          assert.throws(() => workItemsPath(ids), InvalidPathError);
          return;
        }
        const url = buildUrl(base, workItemsPath(ids));
        assert.equal(url.origin, 'http://h.example');
        const prefix = '/site/api/workitem/workItems/';
        assert.ok(url.pathname.startsWith(prefix));
        const segment = url.pathname.slice(prefix.length);
        assert.ok(!segment.includes('/'));
        assert.deepEqual(segment.split(',').map(decodeURIComponent), ids);
      }),
      { numRuns: 500 },
    );
  });

  it('property: arbitrary strings never throw anything but a problem text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (id) => {
        const p = validateId(id);
        if (p === undefined) assert.doesNotThrow(() => workItemsPath([id]));
        else assert.equal(typeof p, 'string');
      }),
      { numRuns: 1000 },
    );
  });
});
