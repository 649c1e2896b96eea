// The user IDs a change table shows (src/webview/changeTable.ts userIdsInTable): the names
// looked up for its assignments' parties and leaders, before and after, each once.
import * as assert from 'node:assert/strict';
import { CellState, userIdsInTable, type ChangeTable } from '../../src/webview/changeTable';

describe('webview change table: the user IDs it shows', () => {
  it('takes parties of assignments (either casing, numbers as strings) and leaders, before and after; skips empty values and other fields', () => {
    const table: ChangeTable = {
      kind: 'preview',
      fields: ['Description', 'Assignments', 'LeaderId'],
      rows: [
        ['1', 'a', '', 0, CellState.Changes, '2001', '2002', CellState.Changes, [{ partyId: '2101', plannedTime: 0 }, { PartyId: 2102 }, null, 7], [{ partyId: '2103' }], CellState.Changes, '2104', 2105],
        ['2', 'b', '', 0, CellState.Unchanged, 'x', null, CellState.Computed, null, null, CellState.Unchanged, '', undefined],
        ['3', 'c', '', 0, CellState.Unchanged, 'x', null, CellState.Unchanged, [{ partyId: '2101' }], null, CellState.Unchanged, '2104', null],
      ],
      counts: [],
      lines: [],
    };
    assert.deepEqual([...userIdsInTable(table)].sort(), ['2101', '2102', '2103', '2104', '2105']);
  });
});
