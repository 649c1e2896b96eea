// The update engine called directly (no HTTP): atomicity as a property over random
// bodies, and request-level details that are awkward to reach over HTTP.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkCustomFieldValue, customFieldStoredValue } from '../../src/sandbox/catalogue';
import { Dataset } from '../../src/sandbox/model';
import { checkReferences, parseDataset } from '../../src/sandbox/state';
import { applyUpdate } from '../../src/sandbox/update';
import { baseFixture } from './sandbox-update-fixtures';

const ctx = { callerId: '2001', edition: 'professional' as const, now: new Date('2026-11-21T10:00:00Z') };
// parseDataset, as the server loads a data set: it fills in the projects' root folders.
const load = () => parseDataset(baseFixture());
const ITEM_IDS = ['F1', 'F1a', 'T1', 'T2', 'T3', 'T4', 'T4a', 'F2', 'NT', 'D1', 'D2', 'Q2'];

const bodyArb = fc.record(
  {
    moveScheduleDays: fc.integer({ min: -400, max: 400 }),
    clearSchedule: fc.boolean(),
    moveParentTo: fc.constantFrom('F1', 'F1a', 'F2', 'T3', 'T4', 'Q1', 'D2', 'nope'),
    orderFirst: fc.boolean(),
    orderBefore: fc.constantFrom('0', 'T1', 'T2'),
    changeItemTypeTo: fc.constantFrom('folder', 'task', 'retired', 'pro-task'),
    setCompleted: fc.boolean(),
    setTimeEntryLocked: fc.boolean(),
    fields: fc.dictionary(
      fc.constantFrom('Name', 'Code', 'Description', 'PlannedTime', 'LeaderId', 'PlannedStartDate', 'PlannedFinishDate', 'StatusTypeId', 'TimeEntryCategoryId', 'name', 'StartDate', 'ItemTypeId'),
      fc.oneof(fc.constantFrom('', 'x', '0', 'u-alice', 'u-bob', '2026-05-01', '2027-01-01', 'st-old', '51', 'wc-1'), fc.integer({ min: -1, max: 1000 })),
      { maxKeys: 3 },
    ),
    assignmentChange: fc.record(
      {
        adds: fc.array(fc.record({ user: fc.constantFrom('alice', 'carol', 'bob', '#g-dev', 'nobody') }, { requiredKeys: [] }), { maxLength: 2 }),
        updates: fc.array(fc.record({ partyId: fc.constantFrom('u-alice', 'u-carol', 'nobody'), plannedTime: fc.integer({ min: -1, max: 500 }) }, { requiredKeys: [] }), { maxLength: 2 }),
        removes: fc.constantFrom('u-alice', 'u-carol,g-dev'),
        recalculatePlannedTimeByAssignment: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    propagateToChildren: fc.record({ fields: fc.constantFrom('Description', 'PlannedTime,LeaderId', 'Name') }),
    fieldCalcTypes: fc.dictionary(fc.constantFrom('PlannedTime', 'ActualProgress', 'Name'), fc.constantFrom('Manual', 'Children', 'Formula'), { maxKeys: 2 }),
    restore: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Mostly one or two members, so that a fair share of the random updates is accepted. */
const smallBodyArb = bodyArb.chain((b) =>
  fc.subarray(Object.keys(b), { maxLength: 2 }).map((keys) => Object.fromEntries(keys.map((k) => [k, (b as Record<string, unknown>)[k]]))),
);

describe('sandbox update engine (direct)', () => {
  it('atomic: a rejected update leaves the data set exactly as it was; an accepted one reports every requested item', () => {
    fc.assert(
      fc.property(fc.subarray(ITEM_IDS, { minLength: 1, maxLength: 3 }), fc.oneof(smallBodyArb, bodyArb), fc.constantFrom('professional' as const, 'standard' as const), (ids, body, edition) => {
        const data = load();
        const before = structuredClone(data);
        const outcome = applyUpdate(data, ids, body, { ...ctx, edition });
        if (!outcome.ok) {
          assert.deepEqual(data, before);
          assert.ok(outcome.errors.length > 0);
          for (const e of outcome.errors) assert.ok(e.message.length > 0 && e.code.length > 0);
        } else {
          assert.deepEqual(outcome.response.items.map((i) => i.id), ids);
          // The answer's shape (official help U2): itemWarnings, the stamp with 7 fractional digits.
          for (const i of [...outcome.response.items, ...outcome.response.affectedItems]) {
            assert.deepEqual(i.itemWarnings, []);
            if (i.updatedAt !== undefined) assert.equal(i.updatedAt, '2026-11-21T10:00:00.0000000');
          }
          // Text sent in fields and stored as sent is not answered (only values that differ from the values sent).
          const sent = (body as { fields?: Record<string, unknown> }).fields ?? {};
          for (const i of outcome.response.items) {
            const stored = data.workItems.find((w) => w.id === i.id)!;
            for (const [field, prop] of [['Name', 'name'], ['Code', 'code'], ['Description', 'description']] as const) {
              if (typeof sent[field] === 'string' && stored[prop] === sent[field]) assert.equal(prop in i, false, `${i.id}: ${prop} answered although stored as sent`);
            }
          }
          assert.doesNotThrow(() => Dataset.parse(structuredClone(data)), 'the data set stays valid');
          assert.deepEqual(checkReferences(data), [], 'references, dates and depth stay consistent');
        }
      }),
      { numRuns: 400, seed: 42 },
    );
  });

  it('an update that throws after its writes (here: a clock giving an invalid date to stamp with) leaves every stored item as it was, key order included', () => {
    const data = load();
    const before = JSON.stringify(data);
    assert.throws(() => applyUpdate(data, ['T1'], { setCompleted: true, fields: { Description: 'changed' } }, { ...ctx, now: new Date(Number.NaN) }), RangeError);
    assert.equal(JSON.stringify(data), before);
    // The same update with a valid clock goes through afterwards.
    const ok = applyUpdate(data, ['T1'], { fields: { Description: 'changed' } }, ctx);
    assert.ok(ok.ok, JSON.stringify(ok));
    assert.equal(data.workItems.find((w) => w.id === 'T1')!.description, 'changed');
  });

  it('empty ID lists are 400; IDs are trimmed and de-duplicated', () => {
    const data = load();
    const none = applyUpdate(data, [], { setCompleted: true }, ctx);
    assert.equal(none.ok, false);
    assert.equal(!none.ok && none.status, 400);
    const ok = applyUpdate(data, [' T1', 'T1 '], { setCompleted: true }, ctx);
    assert.ok(ok.ok);
    assert.deepEqual(ok.response.items.map((i) => i.id), ['T1']);
  });

  it('restore: a child listed before its deleted parent is restored with the parent', () => {
    const data = load();
    const outcome = applyUpdate(data, ['D2a', 'D2'], { restore: true }, ctx);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.deepEqual(outcome.response.items.map((i) => [i.id, i['isDeleted']]), [
      ['D2a', false],
      ['D2', false],
    ]);
    assert.equal(data.workItems.find((w) => w.id === 'D2a')!.isDeleted, false);
  });

  it('a non-member caller gets 403 for every item, a missing ID 404 before anything else', () => {
    const data = load();
    const forbidden = applyUpdate(data, ['T1', 'T2'], { setCompleted: true }, { ...ctx, callerId: 'u-out' });
    assert.ok(!forbidden.ok);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.errors.map((e) => e.itemId), ['T1', 'T2']);
    const missing = applyUpdate(data, ['T1', 'X'], { setCompleted: true }, { ...ctx, callerId: 'u-out' });
    assert.ok(!missing.ok);
    assert.equal(missing.status, 404);
  });

  it('every error entry names code, rule, item and field when they apply', () => {
    const data = load();
    const outcome = applyUpdate(data, ['T1'], { fields: { Name: '' } }, ctx);
    assert.ok(!outcome.ok);
    assert.deepEqual(outcome.errors, [
      { message: 'Work item T1: The name (fields.Name) must not be empty. (error 1)', code: 'NAME_EMPTY', rule: 1, itemId: 'T1', field: 'Name', params: {} },
    ]);
  });
});

describe('sandbox update engine: custom fields checked by type (direct)', () => {
  const withCustomFields = () =>
    parseDataset({
      ...baseFixture(),
      fieldTypes: [
        { id: '1001', name: 'Customer', systemName: 'CustomText1', dataType: 'String', maxLength: 5 },
        { id: '1002', name: 'Estimate', systemName: 'CustomNumber1', dataType: 'Decimal', minValue: 0, maxValue: 10 },
        { id: '1003', name: 'Accepted on', systemName: 'CustomDate1', dataType: 'Date' },
        { id: '1004', name: 'Priority', systemName: 'CustomList1', dataType: 'List', choices: [{ id: '1', name: 'High', code: 'H' }, { id: '2', name: 'Low', code: 'L' }] },
      ],
    });
  const definitions = () => withCustomFields().fieldTypes;
  const valueArb = fc.oneof(
    fc.constantFrom<unknown>(null, '', 'abc', 'abcdef', 'H', 'High', 'Medium', '2', '2026-10-10', '2026-02-30', '2026-10-10T08:00:00', '10/10/2026', true),
    fc.double({ min: -5, max: 15, noNaN: true }),
    fc.integer({ min: -2, max: 12 }),
  );
  const fieldsArb = fc.dictionary(fc.constantFrom('CustomText1', 'CustomNumber1', 'CustomDate1', 'CustomList1'), valueArb, { minKeys: 1, maxKeys: 3 });

  it('a custom value is accepted exactly when checkCustomFieldValue accepts it; stored as customFieldStoredValue, else nothing changes', () => {
    fc.assert(
      fc.property(fieldsArb, (fields) => {
        const data = withCustomFields();
        const before = structuredClone(data);
        const outcome = applyUpdate(data, ['T3'], { fields }, ctx);
        const defs = new Map(definitions().map((d) => [d.systemName, d]));
        const bad = Object.entries(fields).filter(([k, v]) => checkCustomFieldValue(defs.get(k)!, v) !== undefined);
        if (bad.length > 0) {
          assert.ok(!outcome.ok, JSON.stringify(fields));
          assert.deepEqual(data, before);
          assert.deepEqual(outcome.errors.map((e) => e.field).sort(), bad.map(([k]) => k).sort());
          for (const e of outcome.errors) assert.ok(e.message.includes(`"${e.field!}"`) && e.message.includes(JSON.stringify(fields[e.field!])), e.message);
        } else {
          assert.ok(outcome.ok, JSON.stringify(outcome));
          const stored = data.workItems.find((w) => w.id === 'T3')!.customFields;
          for (const [k, v] of Object.entries(fields)) assert.deepEqual(stored[k], customFieldStoredValue(defs.get(k)!, v), k);
          assert.doesNotThrow(() => Dataset.parse(structuredClone(data)));
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
