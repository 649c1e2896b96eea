import * as assert from 'node:assert/strict';
import { CellState, ENGLISH_CHANGE_TABLE, formatValue, hoursText, previewTable, renderChangeTable, resultTable, type ItemRow } from '../../src/webview/changeTable';
import { valueTip } from '../../src/webview/values';
import { cellText, type CellSettings } from '../../src/webview/web/cells';

// Values as a person reads them, in the extension's formatting and in the page's (the same
// module, src/webview/values.ts, formats both; src/webview/web/cells.ts makes the page's cells):
// names for user IDs, planned time in hours with the minutes on hover, counts in English with
// their singular.

const S = ENGLISH_CHANGE_TABLE;

/** The page's cell() and tip() over the table settings `d`, as the page runs them. */
function webview(fields: string[], d: Partial<CellSettings>) {
  const settings: CellSettings = { empty: S.empty, computed: S.computed, hours: '{0} h', minutes: '{0} min', ...d };
  return {
    cell: (row: ItemRow, i: number): [string, string, number] => {
      const c = cellText(settings, fields[i]!, row, i);
      return [c.before, c.after, c.state];
    },
    tip: (f: string, v: unknown): string => valueTip(f, v, settings.minutes),
  };
}

describe('changes: values as a person reads them', () => {
  const people = { '2101': 'Tanaka Misaki', '2102': 'Sato Ken' };

  it('assignments show names and hours, not user IDs and minutes (extension side)', () => {
    const v = [{ partyId: '2101', plannedTime: 450 }, { PartyId: '2999', PlannedTime: 90 }];
    assert.equal(formatValue('Assignments', v, '-', { people }), 'Tanaka Misaki (7.5 h), 2999 (1.5 h)');
    assert.equal(formatValue('Assignments', v, '-', { people, hours: '{0} 時間' }), 'Tanaka Misaki (7.5 時間), 2999 (1.5 時間)');
    assert.equal(formatValue('LeaderId', '2102', '-', { people }), 'Sato Ken');
    assert.equal(formatValue('PlannedTime', 480, '-'), '8 h');
    assert.equal(hoursText(20), '0.33 h');
  });

  it('the webview paints the same: names, hours, and the minutes and IDs on hover', () => {
    const fields = ['Assignments', 'PlannedTime', 'LeaderId'];
    const w = webview(fields, { people, hours: '{0} h', minutes: '{0} min' });
    const row: ItemRow = { id: '1', name: 'Item', remarks: '', flagged: false, state: [CellState.Changes, CellState.Changes, CellState.Changes], before: [[], 60, '2101'], after: [[{ partyId: '2101', plannedTime: 450 }], 90, '2102'] };
    assert.deepEqual(w.cell(row, 0), [S.empty, 'Tanaka Misaki (7.5 h)', 1]);
    assert.deepEqual(w.cell(row, 1), ['1 h', '1.5 h', 1]);
    assert.deepEqual(w.cell(row, 2), ['Tanaka Misaki', 'Sato Ken', 1]);
    assert.equal(w.tip('PlannedTime', 90), '90 min');
    assert.equal(w.tip('Assignments', [{ partyId: '2101', plannedTime: 450 }]), '2101: 450 min');
    assert.equal(w.tip('LeaderId', '2102'), '2102');
    // Without names (the directory does not know them yet): the IDs.
    assert.deepEqual(webview(fields, {}).cell(row, 2), ['2101', '2102', 1]);
  });

  it('the names and the hour unit travel to the webview with the table data', () => {
    const t = previewTable(['1'], { fields: { LeaderId: '2102' } }, new Map([['1', { Id: '1', Name: 'A', LeaderId: '2101' }]]), S);
    t.people = people;
    const html = renderChangeTable(t, { ...S, hours: '{0} 時間' });
    const head = JSON.parse(/<script type="application\/json" id="wis-head">([\s\S]*?)<\/script>/.exec(html)![1]!) as { people: Record<string, string>; hours: string };
    assert.deepEqual(head.people, people);
    assert.equal(head.hours, '{0} 時間');
  });

  it('a result whose values differ only in how they are written is unchanged; a name change is a change', () => {
    const t = resultTable(
      [
        { id: '1', name: 'A', field: 'PlannedTime', before: 60, after: 60, unexpected: false } as never,
        { id: '2', name: 'B', field: 'PlannedTime', before: 60, after: 90, unexpected: false } as never,
      ],
      ['PlannedTime'],
      new Map(),
      S,
    );
    assert.deepEqual(t.counts[0], { field: 'PlannedTime', changes: 1, unchanged: 1, computed: 0, unexpected: 0 });
  });

  it('English counts have their singular', () => {
    assert.equal(S.shown(1, 1), '1 of 1 item');
    assert.equal(S.shown(2, 5), '2 of 5 items');
    assert.equal(S.note('parents recalculated' as never, 1), '1 item: parents recalculated');
    assert.equal(S.problemCount('NAME_EMPTY' as never, 2), '2 items: NAME_EMPTY');
  });

  it('item types and statuses by their names from the project\'s profile; an ID the profile does not name stays as it is', () => {
    const choices = { ItemTypeId: { '41': 'フォルダー', '42': '作業' }, StatusTypeId: { '51': '未着手' } };
    assert.equal(formatValue('ItemTypeId', '41', '-', { choices }), 'フォルダー');
    assert.equal(formatValue('ItemTypeId', 42, '-', { choices }), '作業');
    assert.equal(formatValue('StatusTypeId', '51', '-', { choices }), '未着手');
    assert.equal(formatValue('ItemTypeId', '99', '-', { choices }), '99');
    assert.equal(formatValue('ItemTypeId', '41', '-'), '41', 'without the profile: the ID');
    assert.equal(formatValue('Name', '41', '-', { choices }), '41', 'other fields are not looked up');
  });
});
