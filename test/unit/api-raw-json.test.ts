import * as assert from 'node:assert/strict';
import { keepRawJson, rawJsonOf, RAW_JSON_MIN_BYTES } from '../../src/api/rawJson';

describe('api raw JSON: the bytes an answer was read from', () => {
  const big = (inner: string): string => `{"items":[],"pad":"${'x'.repeat(RAW_JSON_MIN_BYTES)}"${inner}}`;
  const text = (v: object): string | undefined => {
    const b = rawJsonOf(v);
    return b === undefined ? undefined : Buffer.from(b).toString('utf8');
  };

  it('keeps a large one-line answer as a view of its bytes, without the whitespace around it', () => {
    const json = big(',"name":"τ"');
    const body = Buffer.from(` \t${json}\r\n`, 'utf8');
    const value = JSON.parse(body.toString('utf8')) as object;
    keepRawJson(value, body);
    assert.equal(text(value), json);
    assert.equal(rawJsonOf(value)!.buffer, body.buffer, 'not copied');
  });

  it('keeps nothing for a small answer, one with a line break inside, one starting with a byte order mark, or a value that is not an object', () => {
    const cases = [Buffer.from('{"items":[]}'), Buffer.from(big(',\n"b":1')), Buffer.from(big(',\r"b":1')), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(big(''))])];
    for (const body of cases) {
      const value = {};
      keepRawJson(value, body);
      assert.equal(rawJsonOf(value), undefined, body.subarray(0, 20).toString('latin1'));
    }
    assert.equal(rawJsonOf('a string'), undefined);
    assert.equal(rawJsonOf(null), undefined);
  });
});
