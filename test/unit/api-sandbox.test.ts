// The client against the real sandbox (src/sandbox): sign-in, both auth methods,
// the four operations, error bodies and faults, over HTTP on 127.0.0.1 port 0.
import * as assert from 'node:assert/strict';
import { ServiceClient, type Credentials } from '../../src/api/client';
import { isServiceError, type ServiceError } from '../../src/api/errors';
import { createSandbox, DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_SIGN_IN, type Sandbox } from '../../src/sandbox/index';
import { ERROR_CODES, fillTemplate, isErrorCode } from '../../src/schema/error-codes';
import { capturingLogger, rejection, stringifyDeep } from './api-helpers';

function asServiceError(e: unknown): ServiceError {
  assert.ok(isServiceError(e), `expected a ServiceError, got ${stringifyDeep(e)}`);
  return e;
}

describe('api client: against the sandbox', function () {
  let sandbox: Sandbox;
  let creds: Credentials = { kind: 'none' };
  let client: ServiceClient;
  const log = capturingLogger();

  before(async () => {
    sandbox = await createSandbox({});
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => creds, logger: log });
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });
  beforeEach(async () => {
    creds = { kind: 'none' };
    // Fresh data and no faults for each test.
    await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST' });
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
  });

  async function fault(spec: Record<string, unknown>): Promise<void> {
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    assert.ok(r.ok, `fault not queued: ${r.status}`);
  }
  async function stored(id: string): Promise<Record<string, unknown>> {
    const r = await fetch(`${sandbox.origin}/_sandbox/workitems/${encodeURIComponent(id)}`);
    assert.equal(r.status, 200);
    return (await r.json()) as Record<string, unknown>;
  }

  it('signs in for a token and uses it as Bearer', async () => {
    const token = await client.signIn(DEMO_SIGN_IN.admin, DEMO_PASSWORD);
    assert.ok(token.length > 0);
    creds = { kind: 'bearer', token };
    const r = await client.listAllAssignedUsers(DEMO_ORGANIZATIONS.root);
    assert.ok(r.totalCount > 0 && r.data.length > 0);
    assert.ok(!log.text().includes(token));
  });

  it('a wrong password is a 401 with the sandbox message', async () => {
    const e = asServiceError(await rejection(() => client.signIn(DEMO_SIGN_IN.admin, 'wrong')));
    assert.equal(e.kind, 'http');
    assert.equal(e.status, 401);
    assert.ok(e.messages.length > 0);
  });

  it('Basic authentication works', async () => {
    creds = { kind: 'basic', loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD };
    const r = await client.listOrganizationUsers(DEMO_ORGANIZATIONS.root);
    assert.equal(typeof r.totalCount, 'number');
  });

  it('lists process categories with paging and ordering', async () => {
    creds = { kind: 'basic', loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD };
    const all = await client.listProcessCategories({ orderby: 'name asc' });
    const page = await client.listProcessCategories({ orderby: 'name asc', limit: 1, offset: 1 });
    assert.equal(page.totalCount, all.totalCount);
    assert.equal(page.data.length, Math.min(1, Math.max(0, all.totalCount - 1)));
    if (all.data.length > 1) assert.equal(page.data[0].id, all.data[1].id);
  });

  it('updates work items in one PUT with comma-joined IDs', async () => {
    creds = { kind: 'basic', loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD };
    const r = await client.updateWorkItems(['111', '112'], { fields: { Name: '名前を変更' } });
    assert.deepEqual(r.items.map((i) => i.id), ['111', '112']);
    // Kept as sent, so not answered (official help U2: only values that differ from those sent).
    assert.equal(r.items[0].name, undefined);
    assert.match(String(r.items[0].updatedAt), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}$/);
    assert.equal((await stored('112')).name, '名前を変更');
    // A recalculated value comes back, under a member the client's schema does not name: kept.
    const shifted = await client.updateWorkItems(['111'], { moveScheduleDays: 1 });
    assert.equal(typeof shifted.items[0]!['plannedStartDate'], 'string');
  });

  it('an update naming a missing item fails with the status and every message', async () => {
    creds = { kind: 'basic', loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD };
    const e = asServiceError(await rejection(() => client.updateWorkItems(['112', 'no-such-item'], { setTimeEntryLocked: true })));
    assert.equal(e.kind, 'http');
    assert.ok(e.status !== undefined && e.status >= 400 && e.status < 500);
    assert.ok(e.messages.length > 0 && e.messages.every((m) => m.length > 0));
  });

  it('error entries keep each code with the params of its template, so the UI can translate them', async () => {
    creds = { kind: 'basic', loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD };
    const e = asServiceError(await rejection(() => client.updateWorkItems(['112'], { fields: { Name: 'x'.repeat(257) } })));
    assert.equal(e.entries.length, e.messages.length);
    const entry = e.entries.find((en) => en.code !== undefined && isErrorCode(en.code));
    assert.ok(entry, `no entry with a known code in ${stringifyDeep(e.entries)}`);
    // The English template filled with the entry's params is the service's own sentence, for the named item and rule.
    const sentence = fillTemplate(ERROR_CODES[entry.code as keyof typeof ERROR_CODES].message, entry.params as Record<string, string | number> | undefined);
    assert.equal(entry.message, `Work item 112: ${sentence} (error 2)`);
    assert.equal(entry.itemId, '112');
    assert.equal(entry.rule, 2);
  });

  it('a viewer cannot update: 4xx with messages and codes', async () => {
    creds = { kind: 'bearer', token: await client.signIn(DEMO_SIGN_IN.viewer, DEMO_PASSWORD) };
    const e = asServiceError(await rejection(() => client.updateWorkItems(['112'], { moveScheduleDays: 1 })));
    assert.equal(e.kind, 'http');
    assert.ok(e.status === 403 || e.status === 400, String(e.status));
    assert.ok(e.messages.length > 0);
  });

  it('a 429 fault with Retry-After is safe to retry', async () => {
    creds = { kind: 'basic', loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD };
    await fault({ status: 429, retryAfterSeconds: 2 });
    const e = asServiceError(await rejection(() => client.listProcessCategories()));
    assert.equal(e.status, 429);
    assert.equal(e.retryAfterMs, 2000);
    assert.equal(e.safeToRetry, true);
  });

  it('a connection dropped after the update was applied is of unknown outcome', async () => {
    creds = { kind: 'basic', loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD };
    await fault({ dropAfterApply: true, method: 'PUT' });
    const e = asServiceError(await rejection(() => client.updateWorkItems(['121'], { setTimeEntryLocked: true })));
    assert.equal(e.kind, 'network');
    assert.equal(e.outcomeUnknown, true);
  });

  it('no request path from an adversarial ID reaches the sandbox', async () => {
    creds = { kind: 'basic', loginName: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD };
    for (const id of ['..', '%2e%2e', '../../_sandbox/reset', '']) {
      const e = asServiceError(await rejection(() => client.updateWorkItems([id], { setTimeEntryLocked: true })));
      assert.equal(e.kind, 'invalid-request');
    }
  });
});
