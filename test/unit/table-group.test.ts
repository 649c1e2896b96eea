import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateRequestDocument } from '../../src/schema/document';
import { type CellEdit, type ItemFields, applyRequests, groupEdits, shiftDate } from '../../src/table/model';

const e = (id: string, field: string, value: unknown, before: unknown = null): CellEdit => ({ id, field, value, before });
const shiftEdits = (id: string, start: string, finish: string, d: number): CellEdit[] => [
  e(id, 'PlannedStartDate', shiftDate(start, d), start),
  e(id, 'PlannedFinishDate', shiftDate(finish, d), finish),
];

describe('table model: grouping edits into requests', () => {
  it('items with the same change share one request, cut at 1000 IDs', () => {
    const edits = Array.from({ length: 2500 }, (_, i) => e(String(i + 1), 'PlannedTime', 480, 60));
    const out = groupEdits(edits);
    assert.deepEqual(out.map((g) => g.document.workItemIds.length), [1000, 1000, 500]);
    assert.deepEqual(out[0]!.document.update, { fields: { PlannedTime: 480 } });
    assert.equal(out[2]!.document.workItemIds[0], '2001');
    assert.match(out[0]!.document.description!, /PlannedTime = 480 \(1000 work items\)/);
    assert.equal(out[0]!.edits.length, 1000);
    assert.notEqual(out[0]!.document.update, out[1]!.document.update, 'each document has its own body');
  });

  it('the same shift of both planned dates for several items becomes one moveScheduleDays request each', () => {
    const edits = [
      ...Array.from({ length: 40 }, (_, i) => shiftEdits(`1${i}`, '2026-03-02', '2026-03-06', 7)).flat(),
      ...Array.from({ length: 12 }, (_, i) => shiftEdits(`2${i}`, '2026-02-27', '2026-03-13', 14)).flat(),
    ];
    const out = groupEdits(edits);
    assert.deepEqual(out.map((g) => [g.document.update, g.document.workItemIds.length]), [[{ moveScheduleDays: 7 }, 40], [{ moveScheduleDays: 14 }, 12]]);
  });

  it('sets dates as fields where a shift is not exact: one item, different shifts of start and finish, a date missing, canShift refusing', () => {
    const one = groupEdits(shiftEdits('1', '2026-03-02', '2026-03-06', 7));
    assert.deepEqual(one[0]!.document.update, { fields: { PlannedStartDate: '2026-03-09', PlannedFinishDate: '2026-03-13' } });
    const uneven = groupEdits([e('1', 'PlannedStartDate', '2026-03-03', '2026-03-02'), e('1', 'PlannedFinishDate', '2026-03-08', '2026-03-06'), e('2', 'PlannedStartDate', '2026-03-03', '2026-03-02'), e('2', 'PlannedFinishDate', '2026-03-08', '2026-03-06')]);
    assert.deepEqual(uneven.map((g) => g.document.update), [{ fields: { PlannedStartDate: '2026-03-03', PlannedFinishDate: '2026-03-08' } }]);
    const missing = groupEdits([e('1', 'PlannedStartDate', '2026-03-09', '2026-03-02'), e('1', 'PlannedFinishDate', '2026-03-13', null), ...shiftEdits('2', '2026-03-02', '2026-03-06', 7)]);
    assert.equal(missing.some((g) => g.document.update.moveScheduleDays !== undefined), false);
    const refused = groupEdits([...shiftEdits('1', '2026-03-02', '2026-03-06', 7), ...shiftEdits('2', '2026-03-02', '2026-03-06', 7)], { canShift: (id) => id !== '1' });
    assert.equal(refused.some((g) => g.document.update.moveScheduleDays !== undefined), false);
  });

  it('keeps a shift and other fields of the same items in one body', () => {
    const edits = ['1', '2'].flatMap((id) => [...shiftEdits(id, '2026-03-02', '2026-03-06', -3), e(id, 'StatusTypeId', '52', '51')]);
    assert.deepEqual(groupEdits(edits).map((g) => g.document.update), [{ fields: { StatusTypeId: '52' }, moveScheduleDays: -3 }]);
  });

  it('splits per field when that needs fewer requests, and never splits an item\'s two dates', () => {
    // A: {x, y}, B: {x}, C: {y}: 3 requests by item, 2 by field.
    const out = groupEdits([e('A', 'PlannedTime', 60), e('A', 'StatusTypeId', '52'), e('B', 'PlannedTime', 60), e('C', 'StatusTypeId', '52')]);
    assert.deepEqual(out.map((g) => [g.document.update, g.document.workItemIds]), [[{ fields: { PlannedTime: 60 } }, ['A', 'B']], [{ fields: { StatusTypeId: '52' } }, ['A', 'C']]]);
    const dates = groupEdits([e('A', 'PlannedStartDate', '2026-01-01'), e('A', 'PlannedFinishDate', '2026-01-05'), e('B', 'PlannedStartDate', '2026-01-01')]);
    assert.ok(dates.every((g) => !(g.document.workItemIds.includes('A') && Object.keys(g.document.update.fields ?? {}).length === 1 && g.document.update.fields!.PlannedStartDate)));
  });

  it('the last edit of a cell wins', () => {
    assert.deepEqual(groupEdits([e('1', 'Name', 'a'), e('1', 'Name', 'b')])[0]!.document.update, { fields: { Name: 'b' } });
  });

  // -------------------------------------------------------------------------
  // Property: the grouped requests applied to a model of the items give exactly the
  // edited values and touch nothing else.
  // -------------------------------------------------------------------------
  const DATES = ['2026-01-05', '2026-01-20', '2026-02-01', '2026-02-28', '2026-03-15'];
  const itemArb = fc.record({
    Name: fc.constantFrom('設計', '実装', 'テスト'),
    PlannedTime: fc.constantFrom(60, 120, 480, null),
    StatusTypeId: fc.constantFrom('51', '52', '53'),
    ActualProgress: fc.constantFrom(0, 50, 100),
    Custom_Points: fc.constantFrom(1, 2, null),
    start: fc.option(fc.constantFrom(...DATES), { nil: null }),
    span: fc.integer({ min: 0, max: 20 }),
    hasFinish: fc.boolean(),
  }).map(({ start, span, hasFinish, ...rest }) => ({
    ...rest,
    PlannedStartDate: start,
    PlannedFinishDate: hasFinish ? shiftDate(start ?? '2026-01-10', span) : null,
  }));
  const changeArb = fc.record({
    fields: fc.subarray(['Name', 'PlannedTime', 'StatusTypeId', 'ActualProgress', 'Custom_Points']),
    pick: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 5, maxLength: 5 }),
    schedule: fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({ kind: fc.constant('shift' as const), d: fc.constantFrom(-7, -1, 1, 7, 14) }),
      fc.record({ kind: fc.constant('set' as const), start: fc.option(fc.constantFrom(...DATES), { nil: undefined }), finish: fc.option(fc.constantFrom('2026-04-01', '2026-04-30', null), { nil: undefined }) }),
    ),
    twice: fc.boolean(),
  });
  const POOLS: Record<string, unknown[]> = {
    Name: ['設計', '改訂', 'レビュー'],
    PlannedTime: [60, 480, null],
    StatusTypeId: ['51', '52', '54'],
    ActualProgress: [0, 50, 100],
    Custom_Points: [1, 3, null],
  };

  it('property: applying the grouped requests gives exactly the edited values and touches nothing else (500 runs)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(itemArb, fc.option(changeArb, { nil: undefined })), { minLength: 1, maxLength: 40 }),
        fc.constantFrom(1000, 3, 1),
        fc.boolean(),
        (spec, maxIds, refuseOdd) => {
          const items = new Map<string, ItemFields>(spec.map(([item], i) => [String(i + 1), { Id: String(i + 1), ...item }]));
          const edits: CellEdit[] = [];
          spec.forEach(([item, change], i) => {
            if (!change) return;
            const id = String(i + 1);
            change.fields.forEach((f, k) => {
              if (change.twice) edits.push(e(id, f, '途中の値', item[f as keyof typeof item]));
              edits.push(e(id, f, POOLS[f]![change.pick[k]!], item[f as keyof typeof item]));
            });
            const s = change.schedule;
            if (s.kind === 'shift' && item.PlannedStartDate && item.PlannedFinishDate) {
              edits.push(...shiftEdits(id, item.PlannedStartDate, item.PlannedFinishDate, s.d));
            } else if (s.kind === 'set') {
              if (s.start !== undefined) edits.push(e(id, 'PlannedStartDate', s.start, item.PlannedStartDate));
              if (s.finish !== undefined) edits.push(e(id, 'PlannedFinishDate', s.finish, item.PlannedFinishDate));
            }
          });
          const grouped = groupEdits(edits, { maxIds, ...(refuseOdd ? { canShift: (id: string) => Number(id) % 2 === 0 } : {}) });
          const docs = grouped.map((g) => g.document);
          const after = applyRequests(items, docs);
          // Expected: the original items with the last edit of each cell.
          const expected = new Map<string, Record<string, unknown>>([...items].map(([id, f]) => [id, { ...f }]));
          for (const ed of edits) expected.get(ed.id)![ed.field] = ed.value;
          for (const [id, item] of items) {
            assert.deepEqual(after.get(id), expected.get(id), `item ${id}`);
            if (!edits.some((x) => x.id === id)) assert.equal(after.get(id), item, `item ${id} not edited is not touched`);
          }
          const edited = new Set(edits.map((x) => x.id));
          assert.ok(docs.length <= edited.size, 'never more requests than edited items');
          for (const d of docs) {
            assert.ok(d.workItemIds.length >= 1 && d.workItemIds.length <= maxIds);
            assert.equal(new Set(d.workItemIds).size, d.workItemIds.length);
            const f = d.update.fields ?? {};
            assert.ok(('PlannedStartDate' in f) === false || d.update.moveScheduleDays === undefined);
            if (d.update.moveScheduleDays !== undefined) {
              for (const id of d.workItemIds) assert.ok(items.get(id)!.PlannedStartDate && items.get(id)!.PlannedFinishDate, 'a shift only for items with both dates');
              if (refuseOdd) assert.ok(d.workItemIds.every((id) => Number(id) % 2 === 0));
            }
          }
          // An item's two planned dates are in one request.
          for (const id of edited) {
            const holding = docs.filter((d) => d.workItemIds.includes(id) && (d.update.moveScheduleDays !== undefined || 'PlannedStartDate' in (d.update.fields ?? {}) || 'PlannedFinishDate' in (d.update.fields ?? {})));
            assert.ok(holding.length <= 1, `dates of ${id} in ${holding.length} requests`);
          }
          // Every edit is carried by exactly the requests of its item that hold its field.
          assert.equal(grouped.reduce((n, g) => n + g.edits.length, 0), new Set(edits.map((x) => `${x.id}\u0000${x.field}`)).size);
        },
      ),
      { numRuns: 500, seed: 24 },
    );
  });

  it('every grouped request is a valid request document (the checks of the editor)', () => {
    const edits = [...shiftEdits('1', '2026-03-02', '2026-03-06', 7), ...shiftEdits('2', '2026-03-02', '2026-03-06', 7), e('3', 'Name', '新', '旧'), e('3', 'PlannedFinishDate', '2026-05-01', null), e('4', 'StatusTypeId', '51', '52'), e('5', 'PlannedTime', 480, 60)];
    for (const g of groupEdits(edits)) {
      const v = validateRequestDocument(g.document);
      assert.ok(v.ok, JSON.stringify(v.issues));
    }
  });
});
