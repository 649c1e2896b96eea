// The extension against a server whose failures carry no code (the official help: error codes
// and messages are no contract), through the real vscode.l10n: the service's messages are shown
// as it sent them, with the status. Runs in both integration tiers; each sandbox here is started
// with plainErrors explicitly, so it does not depend on the tier.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { ServiceError } from '../../src/api/errors';
import { describeError, serviceErrorDetails } from '../../src/common/messages';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';

const ADMIN = { kind: 'basic', loginName: 'admin', password: 'password' } as const;

async function refusal(sb: Sandbox, ids: string[], body: object): Promise<ServiceError> {
  const client = new ServiceClient({ baseUrl: sb.url, credentials: () => ADMIN });
  try {
    await client.updateWorkItems(ids, body);
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  } finally {
    await client.close();
  }
  assert.fail('the update was not refused');
}

describe('messages: a server that answers failures without codes (plain errors) @errors', function () {
  this.timeout(60_000);
  let plain: Sandbox;
  let coded: Sandbox;

  before(async () => {
    plain = await createSandbox({ port: 0, plainErrors: true });
    coded = await createSandbox({ port: 0, plainErrors: false });
  });
  after(async () => {
    await plain?.close();
    await coded?.close();
  });

  it('the service messages of a plain refusal are shown as it sent them, with the status (no code to translate)', async () => {
    const e = await refusal(plain, ['128'], { fields: { StatusTypeId: '999' } });
    assert.equal(e.status, 400);
    assert.deepEqual(e.codes, []);
    const details = serviceErrorDetails(e);
    assert.deepEqual(details, [...e.messages], 'the messages, untouched');
    assert.ok(details.length > 0 && details.every((d) => d.length > 0));
    assert.match(describeError(e), /400/);
  });

  it('the same refusal with codes is described at least as fully (the code is a hint only)', async () => {
    const a = serviceErrorDetails(await refusal(coded, ['128'], { fields: { StatusTypeId: '999' } }));
    const b = serviceErrorDetails(await refusal(plain, ['128'], { fields: { StatusTypeId: '999' } }));
    assert.equal(a.length, b.length, 'one sentence per entry in both');
  });
});
