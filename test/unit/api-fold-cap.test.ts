// The response cap applies to what the client keeps, not to a list it folds: a list of
// users read batch by batch into a summary (the Organizations view's fold) keeps
// nothing of the users, so a list longer than the cap is folded; the same list read
// whole is refused with response-too-large. A cap on the bytes read would refuse to
// fold a 1,000,000-user list although folding keeps nothing; here the same at a
// smaller scale, with a smaller cap, against the sandbox over real HTTP.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { BATCH_BYTES, ListDecoder } from '../../src/api/listDecoder';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox';
import { rejection, stringifyDeep } from './api-helpers';

/** Above two batches of the decoder (what a fold holds at most while it cuts) and its chunks. */
const CAP = 3 * BATCH_BYTES;

describe('response cap: a folded list is capped by what is kept', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let token = '';
  let answerBytes = 0;
  before(async () => {
    sandbox = await createSandbox({ data: generateDataset({ users: 30_000, organizations: 3, workItems: 2, processCategories: 0, seed: 11 }) });
    const bare = new ServiceClient({ baseUrl: sandbox.url });
    token = await bare.signIn('admin', 'password');
    await bare.close();
    answerBytes = Buffer.byteLength(await (await fetch(`${sandbox.url}/system/organizations/1/allassignedusers`, { headers: { authorization: `Bearer ${token}` } })).text());
  });
  after(async () => sandbox?.close());

  const client = (): ServiceClient => new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'bearer', token }), maxResponseBytes: CAP });

  it('the list is longer than the cap, and read whole it is refused (response-too-large)', async () => {
    assert.ok(answerBytes > 2 * CAP, `the answer has ${answerBytes} bytes, the cap ${CAP}`);
    const c = client();
    try {
      const e = await rejection(() => c.listAllAssignedUsers('1'));
      assert.ok(isServiceError(e), stringifyDeep(e));
      assert.equal(e.reason, 'response-too-large');
    } finally {
      await c.close();
    }
  });

  it('folded, every user is counted although the answer is over the cap (the fold keeps nothing)', async () => {
    const c = client();
    try {
      let users = 0;
      let batches = 0;
      const r = await c.foldAllAssignedUsers('1', {}, () => {
        users = 0;
        batches = 0;
        return (batch) => {
          users += batch.length;
          batches++;
        };
      });
      assert.equal(users, r.totalCount);
      assert.ok(users > 10_000, `${users} users`);
      assert.ok(batches > 3, `${batches} batches`);
      // hasUsers folds too: it is answered, not refused.
      assert.equal(await c.hasUsers('1'), true);
    } finally {
      await c.close();
    }
  });

  it('the decoder holds at most about two batches while folding, and everything when not', () => {
    const element = JSON.stringify({ id: '1', name: 'x'.repeat(200) });
    const text = `{"totalCount":50000,"data":[${new Array(50_000).fill(element).join(',')}]}`;
    const bytes = Buffer.from(text);
    const folding = new ListDecoder(64 * 1024, () => undefined);
    const keeping = new ListDecoder(64 * 1024);
    let most = 0;
    for (let at = 0; at < bytes.length; at += 16 * 1024) {
      const chunk = bytes.subarray(at, at + 16 * 1024);
      folding.push(chunk);
      keeping.push(chunk);
      most = Math.max(most, folding.keptBytes);
    }
    assert.ok(bytes.length > 10 * 1024 * 1024);
    assert.ok(most <= 2 * 64 * 1024 + 16 * 1024 + 100, `held at most ${most} bytes while folding`);
    assert.equal(keeping.keptBytes, bytes.length, 'kept whole without a fold');
    assert.equal(folding.finish().kind, 'value');
  });
});
