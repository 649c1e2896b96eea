// Well-formed hostile input never makes a 500 (or a crash): huge schedule shifts
// are rule 6/7, deeply nested JSON is a 400 naming the depth, member names that
// are also Object.prototype names are plain field names in the client, the
// editor's checks and the sandbox; and an exception while a request is being
// prepared leaves a bulk request "failed, not sent", never "outcome unknown".
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { planJob, runJob } from '../../src/bulk';
import { createSandbox, MAX_JSON_DEPTH, type Sandbox } from '../../src/sandbox/index';
import { checkUpdateBody } from '../../src/schema/rules';
import { validateRequestDocument } from '../../src/schema/document';
import { UpdateWorkItemsBody } from '../../src/schema/api';
import { rejection, startServer, stringifyDeep } from './api-helpers';
import { basic, call } from './sandbox-server-fixtures';

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
const VALUES = ['null', '{}', '"x"', '1', '[]'];
const ADMIN = basic('admin', 'password');

describe('sandbox: no 500 for well-formed hostile input', function () {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({});
  });
  after(async () => sandbox.close());
  beforeEach(async () => {
    await call(`${sandbox.origin}/_sandbox/reset`, { method: 'POST' });
  });

  const put = (ids: string, body: unknown) => call(`${sandbox.url}/workitem/workItems/${ids}`, { method: 'PUT', headers: ADMIN, body });
  const dump = async () => (await call(`${sandbox.origin}/_sandbox/dump`)).text;

  for (const days of [100_000_000, -100_000_000, 3_000_000, -800_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
    it(`moveScheduleDays ${days} is rule 6/7 (the shifted date is outside the allowed range), not a 500`, async () => {
      const before = await dump();
      const r = await put('111', { moveScheduleDays: days });
      assert.equal(r.status, 400, r.text);
      const entries = r.json as { code: string; rule: number; params: Record<string, unknown> }[];
      assert.deepEqual(entries.map((e) => e.rule).sort(), [6, 7], r.text);
      assert.deepEqual(entries.map((e) => e.code).sort(), ['SHIFTED_END_OUT_OF_RANGE', 'SHIFTED_START_OUT_OF_RANGE']);
      assert.match(String(entries[0]!.params.date), days > 0 ? /after 9999-12-31|^\d{4}-/ : /before 0001-01-01|^\d{4}-/);
      assert.ok(!/Invalid time value/.test(r.text));
      assert.equal(await dump(), before, 'nothing changed');
    });
  }

  it('a shift that stays in the calendar still shifts (the rule check is unchanged)', async () => {
    const item = (await call(`${sandbox.origin}/_sandbox/workitems/111`)).json as { plannedStartDate: string };
    const r = await put('111', { moveScheduleDays: 1 });
    assert.equal(r.status, 200, r.text);
    const after = (await call(`${sandbox.origin}/_sandbox/workitems/111`)).json as { plannedStartDate: string };
    assert.equal(Date.parse(after.plannedStartDate) - Date.parse(item.plannedStartDate), 86_400_000);
  });

  for (const depth of [MAX_JSON_DEPTH + 1, 1000, 100_000]) {
    it(`JSON nested ${depth} levels deep is a 400 naming the depth, never a stack overflow`, async () => {
      const before = await dump();
      for (const body of [`{"fields":{"Name":${'['.repeat(depth)}${']'.repeat(depth)}}}`, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, '['.repeat(depth)]) {
        const r = await put('111', body);
        assert.equal(r.status, 400, r.text.slice(0, 300));
        const [entry] = r.json as { code: string; message: string; params: { max: number; position: number } }[];
        assert.equal(entry!.code, 'JSON_TOO_DEEP');
        assert.equal(entry!.params.max, MAX_JSON_DEPTH);
        assert.match(entry!.message, new RegExp(`more than ${MAX_JSON_DEPTH} levels`));
      }
      // The sandbox's own endpoints too (a data set is checked the same way).
      const reset = await call(`${sandbox.origin}/_sandbox/reset`, { method: 'POST', body: `{"version":1,"x":${'['.repeat(depth)}${']'.repeat(depth)}}` });
      assert.equal(reset.status, 400);
      assert.equal((reset.json as { code: string }[])[0]!.code, 'JSON_TOO_DEEP');
      assert.equal(await dump(), before, 'nothing changed');
    });
  }

  it('brackets inside strings do not count as nesting', async () => {
    const r = await put('111', { fields: { Description: '['.repeat(10_000) + '{'.repeat(10_000) } });
    assert.equal(r.status, 200, r.text.slice(0, 300));
  });

  it('a custom field of the demo given a hostile value (prototype names, deep objects, huge numbers) is a 400 naming the field, nothing changed', async () => {
    const hostile = ['{"__proto__": {"polluted": 1}}', '{"constructor": {"prototype": 1}}', '[[[[1]]]]', '1e400', '-1e400', '"\\u0000"', `"${'x'.repeat(5000)}"`];
    for (const field of ['CustomText1', 'CustomNumber1', 'CustomDate1', 'CustomList1']) {
      for (const v of hostile) {
        const before = await dump();
        const r = await put('111', `{"fields": {${JSON.stringify(field)}: ${v}}}`);
        if (r.status === 200) continue; // e.g. "\u0000" is text a text field may hold
        assert.equal(r.status, 400, `${field}: ${v}: ${r.text.slice(0, 300)}`);
        const entries = r.json as { code: string; field: string; message: string }[];
        assert.deepEqual(entries.map((e) => [e.code, e.field]), [['FIELD_VALUE_INVALID', field]], r.text.slice(0, 300));
        assert.equal(await dump(), before);
      }
    }
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  for (const name of PROTOTYPE_NAMES) {
    it(`a field named ${JSON.stringify(name)} is a plain field name: error 29 naming it, nothing changed`, async () => {
      for (const v of VALUES) {
        const before = await dump();
        const r = await put('111', `{"fields": {${JSON.stringify(name)}: ${v}}}`);
        assert.equal(r.status, 400, `${name}: ${v}: ${r.text}`);
        const entries = r.json as { code: string; rule: number; field: string }[];
        assert.deepEqual(
          entries.map((e) => [e.code, e.rule, e.field]),
          [['FIELD_UNKNOWN_NAME', 29, name]],
          r.text,
        );
        assert.equal(await dump(), before);
      }
    });

    it(`a top-level member named ${JSON.stringify(name)} is an unknown member, and in fieldCalcTypes a field name`, async () => {
      const top = await put('111', `{${JSON.stringify(name)}: 1, "setCompleted": true}`);
      assert.equal(top.status, 400, top.text);
      assert.match(top.text, new RegExp(`UNKNOWN_MEMBER`));
      assert.ok(top.text.includes(name), top.text);
      const calc = await put('111', `{"fieldCalcTypes": {${JSON.stringify(name)}: "Manual"}}`);
      assert.equal(calc.status, 400, calc.text);
      assert.ok(calc.text.includes(name), calc.text);
    });
  }
});

describe('prototype names are plain field names in the client and the editor checks', () => {
  for (const name of PROTOTYPE_NAMES) {
    it(`${JSON.stringify(name)} in fields and fieldCalcTypes: a warning naming it, kept in the checked body`, () => {
      for (const v of VALUES) {
        const update = JSON.parse(`{"fields": {${JSON.stringify(name)}: ${v}}, "fieldCalcTypes": {${JSON.stringify(name)}: "Manual"}}`) as Record<string, Record<string, unknown>>;
        const checked = checkUpdateBody(update);
        assert.ok(checked.issues.some((i) => i.path.join('.') === `fields.${name}`), `${name}: ${stringifyDeep(checked.issues)}`);
        if (checked.ok) {
          assert.ok(Object.prototype.hasOwnProperty.call(checked.body!.fields, name), `${name} kept in fields`);
          assert.ok(Object.prototype.hasOwnProperty.call(checked.body!.fieldCalcTypes, name), `${name} kept in fieldCalcTypes`);
          assert.equal(Object.getPrototypeOf(checked.body!.fields), Object.prototype);
        }
        const doc = validateRequestDocument({ workItemIds: ['1'], update });
        assert.ok(doc.issues.some((i) => i.path.join('.') === `update.fields.${name}`), stringifyDeep(doc.issues));
        if (doc.ok) assert.ok(Object.prototype.hasOwnProperty.call(doc.document!.requests[0]!.update.fields, name));
      }
    });

    it(`the client sends a field named ${JSON.stringify(name)} as written`, async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"items":[],"affectedItems":[],"addedTimeEntryIds":[],"addedScheduleDependencyIds":[]}');
      });
      const client = new ServiceClient({ baseUrl: server.baseUrl });
      try {
        for (const v of VALUES) {
          const text = `{"fields":{${JSON.stringify(name)}:${v}}}`;
          await client.updateWorkItems(['1'], JSON.parse(text) as UpdateWorkItemsBody);
          assert.equal(server.received.at(-1)!.body, text);
        }
      } finally {
        await client.close();
        await server.close();
      }
    });
  }
});

describe('bulk: an exception while a request is prepared leaves it "failed, not sent"', function () {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({});
  });
  after(async () => sandbox.close());

  async function puts(): Promise<number> {
    const r = await call(`${sandbox.origin}/_sandbox/dump`);
    return JSON.stringify(r.json).length;
  }

  it('credentials that throw (e.g. the secret storage fails): failed, REQUEST_NOT_PREPARED, nothing sent', async () => {
    const client = new ServiceClient({
      baseUrl: sandbox.url,
      credentials: () => {
        throw new TypeError('the secret storage is unavailable');
      },
    });
    try {
      const before = await puts();
      const plan = planJob({ workItemIds: ['111', '112'], update: { moveScheduleDays: 1 }, baseUrl: sandbox.url });
      const r = await runJob(plan, { client, minIntervalMs: 0 });
      assert.equal(r.requests[0]!.state, 'failed', stringifyDeep(r.requests[0]));
      assert.equal(r.requests[0]!.error!.kind, 'invalid-request');
      assert.equal(r.requests[0]!.error!.code, 'REQUEST_NOT_PREPARED');
      assert.match(r.requests[0]!.error!.message, /not sent: the secret storage is unavailable/);
      assert.equal(r.totals.requestsByState.unknown, 0);
      assert.equal(await puts(), before);
      const direct = await rejection(() => client.listProcessCategories());
      assert.ok(isServiceError(direct) && direct.kind === 'invalid-request' && direct.sent === false && !direct.outcomeUnknown);
    } finally {
      await client.close();
    }
  });

  it('an update body that throws while it is read or serialized: failed, not unknown', async () => {
    const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
    try {
      const throwing = { moveScheduleDays: 1 } as Record<string, unknown>;
      Object.defineProperty(throwing, 'fields', { enumerable: true, get: () => { throw new Error('a getter failed'); } });
      const big = { fields: { Name: 1n } } as unknown as UpdateWorkItemsBody; // BigInt: JSON.stringify throws
      for (const update of [throwing as UpdateWorkItemsBody, big]) {
        const plan = planJob({ workItemIds: ['111'], update, baseUrl: sandbox.url });
        const r = await runJob(plan, { client, minIntervalMs: 0 });
        assert.equal(r.requests[0]!.state, 'failed', stringifyDeep(r.requests[0]));
        assert.equal(r.requests[0]!.error!.kind, 'invalid-request');
      }
    } finally {
      await client.close();
    }
  });
});
