// A cleared value (clearSchedule) shows as empty in every before/after table: the
// preview's current → expected, and the result's before → after, whether the values
// after were read again or come from the service's answer. The cells are checked with
// the page's own module (src/webview/web/cells.ts), against the real sandbox over HTTP.
import * as assert from 'node:assert/strict';
import { valuesAfterAnswer, type ChangeRow } from '../../src/bulk/jobValues';
import { itemEffect, sameFieldValue } from '../../src/bulk/effects';
import { CellState, ENGLISH_CHANGE_TABLE, previewTable, resultTable, type ItemRow } from '../../src/webview/changeTable';
import { cellText } from '../../src/webview/web/cells';
import type { Sandbox } from '../../src/sandbox';
import { clientFor, scheduledTaskIds, startSandbox } from './bulk-helpers';

const S = ENGLISH_CHANGE_TABLE;
const DATES = ['PlannedStartDate', 'PlannedFinishDate'];

/** The page's cell of field `i`: [text before, text after, state]. */
function webviewCell(fields: string[], row: ItemRow, i: number): [string, string, number] {
  const c = cellText({ empty: S.empty, computed: S.computed, hours: '{0} h', minutes: '{0} min' }, fields[i]!, row, i);
  return [c.before, c.after, c.state];
}

describe('changes: a cleared value shows as empty in every table', () => {
  it('clearSchedule predicts empty dates (not the current ones) and counts them as changes', () => {
    const e = itemEffect('7', { clearSchedule: true }, { Id: '7', PlannedStartDate: '2026-03-16T00:00:00', PlannedFinishDate: '2026-03-20T00:00:00' });
    assert.deepEqual(
      e.fields.map((f) => [f.field, f.before, f.expected, f.changes]),
      [
        ['PlannedStartDate', '2026-03-16', { kind: 'value', value: null }, true],
        ['PlannedFinishDate', '2026-03-20', { kind: 'value', value: null }, true],
      ],
    );
    assert.ok(e.notes.includes('links-deleted'));
  });

  it('preview table: "2026-03-16 → (empty)", not "2026-03-16 → 2026-03-16"', () => {
    const current = new Map([['7', { Id: '7', Name: 'Seven', PlannedStartDate: '2026-03-16T00:00:00', PlannedFinishDate: '2026-03-20T00:00:00' }]]);
    const t = previewTable(['7'], { clearSchedule: true }, current, S);
    // Through JSON, as the webview receives the rows.
    const row = (JSON.parse(JSON.stringify(t.rows)) as ItemRow[])[0]!;
    assert.deepEqual(webviewCell(t.fields, row, 0), ['2026-03-16', S.empty, CellState.Changes]);
    assert.deepEqual(webviewCell(t.fields, row, 1), ['2026-03-20', S.empty, CellState.Changes]);
    assert.deepEqual(t.counts.map((c) => c.changes), [1, 1]);
  });

  it('an unchanged cell still shows its value, and a computed one says so', () => {
    const current = new Map([['7', { Id: '7', PlannedStartDate: null, PlannedFinishDate: null }]]);
    const t = previewTable(['7'], { clearSchedule: true }, current, S);
    const row = (JSON.parse(JSON.stringify(t.rows)) as ItemRow[])[0]!;
    assert.deepEqual(webviewCell(t.fields, row, 0), [S.empty, S.empty, CellState.Unchanged], 'already empty: unchanged');
    const moved = previewTable(['8'], { moveScheduleDays: 1 }, new Map([['8', { Id: '8', PlannedStartDate: '2026-01-01', PlannedFinishDate: '2026-01-02' }]]), S);
    assert.deepEqual(webviewCell(moved.fields, JSON.parse(JSON.stringify(moved.rows[0])) as ItemRow, 0), ['2026-01-01', '2026-01-02', CellState.Changes]);
  });

  it('result table: a value after that is null is shown empty', () => {
    const rows: ChangeRow[] = DATES.map((field) => ({ id: '7', name: 'Seven', field, before: '2026-03-16', after: null, expected: null, unexpected: false }));
    const t = resultTable(rows, DATES, new Map(), S);
    const row = (JSON.parse(JSON.stringify(t.rows)) as ItemRow[])[0]!;
    assert.deepEqual(webviewCell(t.fields, row, 0), ['2026-03-16', S.empty, CellState.Changes]);
    assert.deepEqual(t.counts.map((c) => c.changes), [1, 1]);
  });

  describe('against the sandbox (clearSchedule over real HTTP)', function () {
    this.timeout(60_000);
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await startSandbox(60);
    });
    after(async () => sandbox.close());

    it('the values after from the answer (no re-read) and from a re-read are empty, and the result table shows them empty', async () => {
      const ids = scheduledTaskIds(sandbox, 2);
      const client = clientFor(sandbox);
      try {
        const before = new Map((await client.getWorkItems(ids, ['Id', 'Name', ...DATES])).map((r) => [String(r.fields.Id), r.fields as Record<string, unknown>]));
        for (const id of ids) assert.ok(before.get(id)!.PlannedStartDate, `${id} has a start date before`);
        const answer = await client.updateWorkItems(ids, { clearSchedule: true });
        const reread = new Map((await client.getWorkItems(ids, ['Id', ...DATES])).map((r) => [String(r.fields.Id), r.fields as Record<string, unknown>]));
        for (const id of ids) {
          const item = answer.items.find((i) => String(i.id) === id);
          assert.ok(item, `the answer names ${id}`);
          const afterAnswer = valuesAfterAnswer(before.get(id)!, undefined, item);
          const rows: ChangeRow[] = [];
          for (const field of DATES) {
            assert.ok(sameFieldValue(field, afterAnswer[field], null), `${id}.${field} after, from the answer: ${String(afterAnswer[field])}`);
            assert.ok(sameFieldValue(field, reread.get(id)![field], null), `${id}.${field} read again: ${String(reread.get(id)![field])}`);
            rows.push({ id, field, before: before.get(id)![field], after: afterAnswer[field], expected: null, unexpected: !sameFieldValue(field, null, afterAnswer[field]) });
          }
          const t = resultTable(rows, DATES, new Map(), S);
          const row = (JSON.parse(JSON.stringify(t.rows)) as ItemRow[])[0]!;
          const [b, a, state] = webviewCell(t.fields, row, 0);
          assert.equal(a, S.empty, `${id}: shown as ${b} → ${a}`);
          assert.notEqual(b, S.empty);
          assert.equal(state, CellState.Changes);
        }
      } finally {
        await client.close();
      }
    });
  });
});
