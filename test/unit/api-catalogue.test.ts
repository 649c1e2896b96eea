// The client's reader of the service's field catalogue (src/api/catalogue.ts) against the
// real sandbox over HTTP: every page of GET /system/fieldTypes, a project's profile, the
// cache per service, and the fallback to the built-in official system fields.
import * as assert from 'node:assert/strict';
import { ServiceClient, type Credentials } from '../../src/api/client';
import { FieldCatalogueCache, catalogueKey, readAllFieldTypes, type CatalogueClient } from '../../src/api/catalogue';
import { createSandbox, DEMO_PASSWORD, DEMO_SIGN_IN, type Sandbox } from '../../src/sandbox/index';
import { profileEntryId } from '../../src/schema/catalogue';
import { checkUpdateBody } from '../../src/schema/rules';
import { capturingLogger } from './api-helpers';

describe('api: field catalogue against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let creds: Credentials = { kind: 'none' };

  before(async () => {
    sandbox = await createSandbox({});
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => creds });
    creds = { kind: 'bearer', token: await client.signIn(DEMO_SIGN_IN.admin, DEMO_PASSWORD) };
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });
  beforeEach(async () => {
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
  });

  async function fault(spec: Record<string, unknown>): Promise<void> {
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    assert.ok(r.ok, `fault not queued: ${r.status}`);
  }

  /** Counts the client's calls (the cache must not read twice). */
  function counting(inner: CatalogueClient): CatalogueClient & { lists: number; profiles: number } {
    const c = {
      lists: 0,
      profiles: 0,
      listFieldTypes: (q?: Parameters<CatalogueClient['listFieldTypes']>[0]) => {
        c.lists++;
        return inner.listFieldTypes(q);
      },
      getProjectProfile: (id: string, inc?: readonly string[]) => {
        c.profiles++;
        return inner.getProjectProfile(id, inc);
      },
    };
    return c;
  }

  it('fieldTypes answers {totalCount, data} with system and custom fields (official help L1)', async () => {
    const page = await client.listFieldTypes({ limit: 5 });
    assert.equal(page.data.length, 5);
    assert.ok(page.totalCount > 5, `totalCount ${page.totalCount}`);
    const all = await readAllFieldTypes(client);
    assert.equal(all.length, page.totalCount);
    const names = all.map((f) => f.systemName);
    assert.equal(new Set(names).size, names.length, 'no field read twice');
    for (const official of ['Name', 'PlannedStartDate', 'PlannedFinishDate', 'TimeEntryCategoryId']) assert.ok(names.includes(official), official);
    for (const old of ['StartDate', 'EndDate', 'WorkCategoryId']) assert.ok(!names.includes(old), old);
    const custom = all.filter((f) => f.isSystemField === false);
    const types = new Set(custom.map((f) => f.dataType));
    for (const t of ['String', 'Date', 'List']) assert.ok(types.has(t), `a custom ${t} field in ${JSON.stringify(custom.map((f) => [f.systemName, f.dataType]))}`);
    assert.ok(types.has('Integer') || types.has('Decimal'), 'a custom number field');
  });

  it('reads every page of fieldTypes with limit and offset (the paging of the official help)', async () => {
    const whole = await readAllFieldTypes(client);
    const paged = await readAllFieldTypes(client, { pageSize: 7 });
    assert.deepEqual(paged.map((f) => f.systemName), whole.map((f) => f.systemName));
  });

  it('the project profile answers one profile with item types and status types (official help P2)', async () => {
    const projects = await client.listProjects({});
    const id = projects.data[0]!.id;
    const profile = await client.getProjectProfile(id);
    assert.ok((profile.itemTypes ?? []).length > 0, JSON.stringify(profile).slice(0, 300));
    assert.ok((profile.statusTypes ?? []).length > 0);
    for (const t of [...(profile.itemTypes ?? []), ...(profile.statusTypes ?? [])]) assert.match(profileEntryId(t) ?? '', /^\d+$/, `an ID of digits: ${JSON.stringify(t)}`);
  });

  it('is read once per service and user, and again after a refresh', async () => {
    const cache = new FieldCatalogueCache();
    const c = counting(client);
    const key = catalogueKey(sandbox.url, 'admin');
    const [a, b] = await Promise.all([cache.get(key, c), cache.get(key, c)]);
    assert.equal(a, b);
    assert.equal(a.kind, 'service');
    const reads = c.lists;
    await cache.get(key, c);
    assert.equal(c.lists, reads, 'no second read');
    assert.equal(cache.peek(key), a);
    assert.equal(cache.peek(catalogueKey(sandbox.url, 'viewer')), undefined, 'another user is another entry');
    cache.refresh();
    assert.equal(cache.peek(key), undefined);
    await cache.get(key, c);
    assert.ok(c.lists > reads, 'read again after the refresh');
  });

  it('custom fields of the sandbox are checked by type and range from the catalogue it answers', async () => {
    const cache = new FieldCatalogueCache();
    const state = await cache.get(catalogueKey(sandbox.url, 'admin'), client);
    assert.equal(state.kind, 'service');
    if (state.kind !== 'service') return;
    const custom = state.fieldTypes.filter((f) => f.isSystemField === false);
    const date = custom.find((f) => f.dataType === 'Date')!;
    const list = custom.find((f) => f.dataType === 'List')!;
    const r = checkUpdateBody({ fields: { [date.systemName]: '2025-02-30', [list.systemName]: 'not a choice' } }, [], { catalogue: state.catalogue });
    assert.deepEqual(r.issues.map((i) => i.code).sort(), ['FIELD_DATE_FORMAT', 'FIELD_VALUE_CHOICE']);
    const good = checkUpdateBody({ fields: { [date.systemName]: '2025-02-28', [list.systemName]: list.choices![0]!.name } }, [], { catalogue: state.catalogue });
    assert.deepEqual(good.issues, []);
  });

  it('falls back to the built-in official fields when fieldTypes answers 404, and says so once', async () => {
    await fault({ status: 404, pathContains: '/system/fieldTypes', times: 5 });
    const told: string[] = [];
    const log = capturingLogger();
    const cache = new FieldCatalogueCache({ logger: log, onFallback: (_k, reason) => told.push(reason) });
    const key = catalogueKey(sandbox.url, 'admin');
    const state = await cache.get(key, client);
    assert.equal(state.kind, 'fallback');
    assert.match(told[0] ?? '', /404/);
    await cache.get(key, client);
    assert.equal(told.length, 1, 'said once');
    assert.match(log.text(), /built-in official system fields/);
    // The checks then use the built-in fields: an unknown name is a warning of the built-in list.
    const r = checkUpdateBody({ fields: { CustomText1: 'x' } });
    assert.deepEqual(r.issues.map((i) => i.code), ['FIELD_UNKNOWN']);
  });

  it('a failed profile read is undefined (logged), not an exception', async () => {
    await fault({ status: 404, pathContains: '/profile' });
    const log = capturingLogger();
    const cache = new FieldCatalogueCache({ logger: log });
    const projects = await client.listProjects({});
    assert.equal(await cache.profile(catalogueKey(sandbox.url, 'admin'), client, projects.data[0]!.id), undefined);
    assert.match(log.text(), /profile of project/);
  });
});
