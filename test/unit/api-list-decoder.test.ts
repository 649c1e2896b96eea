// ListDecoder: a list answer decoded while it arrives gives what JSON.parse of the
// whole answer gives, however the bytes are split, or a clear error.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import type { ServiceError } from '../../src/api/errors';
import { ListDecodeError, ListDecoder } from '../../src/api/listDecoder';
import { createSandbox, generateDataset } from '../../src/sandbox';
import { belowFold, summarizeBelow } from '../../src/organizations/model/discovery';
import { startServer } from './api-helpers';
import { signedInClient } from './sandbox-client';

/** Decodes `text` fed in chunks of the given sizes (cycled), with small batches of elements. */
function decode(text: string, sizes: number[], batchBytes: number): unknown {
  const bytes = Buffer.from(text, 'utf8');
  const d = new ListDecoder(batchBytes);
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const n = sizes[k % sizes.length]!;
    d.push(bytes.subarray(at, at + n));
    at += n;
  }
  const r = d.finish();
  return r.kind === 'value' ? r.value : JSON.parse(r.bytes.toString('utf8'));
}

const SPLITS = [[1], [2, 3], [7], [64], [1, 100, 5], [100_000]];
const BATCHES = [1, 16, 200, 1 << 20];

const users = Array.from({ length: 60 }, (_, i) => ({
  id: `u-${i}`,
  name: i % 3 === 0 ? `佐藤 太郎 ${i}` : `User "${i}" [x] {y}, \\ z`,
  loginName: i % 5 === 0 ? null : `user${i}`,
  tags: i % 4 === 0 ? [] : [{ data: [1, 2] }, 'a,b', '🙂'],
  isDeleted: i % 7 === 0,
  unitCost: i * 1.5,
  // Backslashes before quotes and at the end of strings, however the bytes are cut.
  path: ['C:\\dir\\', '\\"', '\\\\', '"\\', ''][i % 5],
}));

describe('api: list answers decoded as they arrive (ListDecoder)', () => {
  const cases: [string, string][] = [
    ['a list of users (Japanese, quotes, brackets, commas and escapes in strings, nested arrays)', JSON.stringify({ totalCount: users.length, data: users })],
    ['spaced and indented, data first, a byte order mark', `\uFEFF  {\n  "data" : [\n ${users.slice(0, 5).map((u) => JSON.stringify(u, null, 2)).join(' ,\n ')} ] ,\n "totalCount" : 5 }\n`],
    ['an empty list', '{"totalCount":0,"data":[]}'],
    ['"data" that is not an array, and "data" inside other members', '{"x":{"data":[1,2]},"data":{"data":[3]},"y":["data"]}'],
    ['"data" twice (the last one wins, as in JSON.parse)', '{"data":[1,2,3],"totalCount":3,"data":[4]}'],
    ['elements that are not objects', '{"data":[1,"two",null,true,[3,[4]],{"five":5}],"totalCount":6}'],
    ['a member name written with an escape', '{"d\\u0061ta":[1,2],"data":[9]}'],
    ['the same, the escaped name last (it wins)', '{"data":[9],"d\\u0061ta":[1,2]}'],
    ['not an object (decoded by the usual path)', '[{"id":"a"},{"id":"b"}]'],
  ];
  for (const [what, text] of cases) {
    it(`gives what JSON.parse gives however the bytes are split: ${what}`, () => {
      const want = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
      for (const sizes of SPLITS) for (const batch of BATCHES) assert.deepEqual(decode(text, sizes, batch), want, `chunks ${sizes.join('/')}, batches of ${batch} bytes`);
    });
  }

  it('a broken element, a trailing comma or a cut answer is an error that says where, not a crash', () => {
    const broken = `{"totalCount":3,"data":[{"id":"a"},{"id":"b",},{"id":"c"}]}`;
    for (const batch of [1, 1 << 20]) {
      assert.throws(() => decode(broken, [5], batch), (e: unknown) => e instanceof ListDecodeError && /not JSON/.test(e.message) && /"data" element \d+/.test(e.message));
    }
    assert.throws(() => decode('{"data":[1,2,],"totalCount":2}', [3], 1), ListDecodeError);
    assert.throws(() => decode('{"data":[{"id":"a"},{"id":"b"}', [4], 1 << 20), (e: unknown) => e instanceof ListDecodeError && /ends at byte \d+ inside/.test(e.message));
    assert.throws(() => decode('{"data":[1],"totalCount":1} x', [4], 1 << 20), ListDecodeError);
  });
});

describe('api: list answers folded batch by batch (ListDecoder with a fold)', () => {
  it('hands every element to the fold once, in order, whatever the chunks and batches, and keeps none', () => {
    const text = JSON.stringify({ totalCount: users.length, data: users });
    for (const sizes of SPLITS) {
      for (const batch of BATCHES) {
        const seen: unknown[] = [];
        let calls = 0;
        const d = new ListDecoder(batch, (items) => {
          calls++;
          seen.push(...items);
        });
        const bytes = Buffer.from(text, 'utf8');
        for (let at = 0, k = 0; at < bytes.length; k++) {
          const n = sizes[k % sizes.length]!;
          d.push(bytes.subarray(at, at + n));
          at += n;
        }
        const r = d.finish();
        assert.equal(r.kind, 'value');
        assert.deepEqual(r.kind === 'value' ? r.value : undefined, { totalCount: users.length, data: [] });
        assert.deepEqual(seen, users, `chunks ${sizes.join('/')}, batches of ${batch} bytes`);
        if (batch === 1 && sizes[0] === 100_000) assert.ok(calls > 1, 'more than one batch');
      }
    }
  });

  it('stops with the error the fold throws, and refuses a second "data" member once elements were folded', () => {
    const text = JSON.stringify({ totalCount: users.length, data: users });
    const d = new ListDecoder(16, (items) => {
      if (items.some((u) => (u as { id: string }).id === 'u-30')) throw new ListDecodeError('u-30 is not wanted');
    });
    assert.throws(() => {
      d.push(Buffer.from(text));
      d.finish();
    }, /u-30 is not wanted/);
    const twice = new ListDecoder(1, () => undefined);
    assert.throws(() => {
      twice.push(Buffer.from('{"data":[1,2,3],"totalCount":3,"data":[4]}'));
      twice.finish();
    }, /two "data" members/);
  });
});

describe('api: user lists through the client are decoded as they arrive', function () {
  this.timeout(60_000);

  it('a large list from the sandbox comes back equal to JSON.parse of the same answer', async () => {
    const sb = await createSandbox({ data: generateDataset({ users: 12_000, organizations: 1, workItems: 2, processCategories: 0, seed: 9 }) });
    const client = new ServiceClient({ baseUrl: sb.url });
    try {
      const token = await client.signIn('admin', 'password');
      const authed = new ServiceClient({ baseUrl: sb.url, credentials: () => ({ kind: 'bearer', token }) });
      const list = await authed.listOrganizationUsers('1');
      const plain = JSON.parse(await (await fetch(`${sb.url}/system/organizations/1/users`, { headers: { authorization: `Bearer ${token}` } })).text()) as unknown;
      assert.ok(list.data.length > 10_000);
      assert.deepEqual(list, plain);
      await authed.close();
    } finally {
      await client.close();
      await sb.close();
    }
  });

  it('operation 2 folded into a summary gives what the whole list gives, without keeping the users; a read that starts over folds afresh; a user that is not valid fails the read', async () => {
    const sb = await createSandbox({ data: generateDataset({ users: 12_000, organizations: 6, workItems: 2, processCategories: 0, seed: 5 }) });
    const client = await signedInClient(sb);
    try {
      const whole = summarizeBelow('1', (await client.listAllAssignedUsers('1')).data);
      assert.ok(whole.size > 1, 'the data set has organizations below 1');
      let below = new Map<string, { name: string; users: number }>();
      let batches = 0;
      const r = await client.foldAllAssignedUsers('1', {}, () => {
        below = new Map();
        return (batch) => {
          batches++;
          summarizeBelow('1', batch, below);
        };
      });
      assert.deepEqual(below, whole);
      assert.ok(batches > 1, `${batches} batches`);
      // The view's fold: each start begins a new summary.
      const fold = belowFold('1');
      fold.start()([{ organizationId: '9', organizationName: 'left over from a dropped attempt' }]);
      await client.foldAllAssignedUsers('1', {}, fold.start);
      assert.deepEqual(fold.below(), whole);
      assert.ok(r.totalCount >= [...whole.values()].reduce((n, e) => n + e.users, 0));
    } finally {
      await client.close();
      await sb.close();
    }
    // The first attempt's connection drops halfway through the body; the retry starts a new fold.
    const many = Array.from({ length: 40_000 }, (_, i) => ({ id: `u${i}`, name: `n${i}`, organizationId: `o${i % 3}`, organizationName: `O${i % 3}` }));
    const body = Buffer.from(JSON.stringify({ totalCount: many.length, data: many }));
    let n = 0;
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      if (++n === 1) res.write(body.subarray(0, body.length - 1000), () => req.socket.destroy());
      else res.end(body);
    });
    const c = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ({ kind: 'bearer', token: 't' }) });
    try {
      let starts = 0;
      let counted = 0;
      await c.foldAllAssignedUsers('root', {}, () => {
        starts++;
        counted = 0;
        return (batch) => void (counted += batch.length);
      });
      assert.equal(n, 2, 'the read was sent again');
      assert.equal(starts, 2, 'a new fold for the second attempt');
      assert.equal(counted, many.length, 'each user folded once');
      // A user that is not valid (its name is a number).
      many[30_000]!.name = 7 as unknown as string;
      const bad = Buffer.from(JSON.stringify({ totalCount: many.length, data: many }));
      const s2 = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(bad);
      });
      const c2 = new ServiceClient({ baseUrl: s2.baseUrl, credentials: () => ({ kind: 'bearer', token: 't' }) });
      try {
        await assert.rejects(
          c2.foldAllAssignedUsers('root', {}, () => () => undefined),
          (e: unknown) => (e as ServiceError).kind === 'invalid-response' && /user 30001 in "data" is not valid: data\[30000\]\.name/.test((e as ServiceError).messages.join(' ')),
        );
      } finally {
        await c2.close();
        await s2.close();
      }
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('a broken list answer is an invalid-response error that says where, with no secret in it', async () => {
    const users = Array.from({ length: 3000 }, (_, i) => ({ id: `u${i}`, name: `n${i}` }));
    const body = JSON.stringify({ totalCount: users.length, data: users }).replace('"u2500"', '"u2500" "secret-token-123"');
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ({ kind: 'bearer', token: 'secret-token-123' }) });
    try {
      await assert.rejects(client.listOrganizationUsers('1'), (e: unknown) => {
        const err = e as ServiceError;
        assert.equal(err.kind, 'invalid-response');
        assert.match(err.messages.join(' '), /not JSON.*"data" element \d+/);
        assert.doesNotMatch(`${err.message} ${err.messages.join(' ')}`, /secret-token-123/);
        return true;
      });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
