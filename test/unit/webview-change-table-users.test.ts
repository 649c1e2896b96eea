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
        { id: '1', name: 'a', remarks: '', flagged: false, state: [CellState.Changes, CellState.Changes, CellState.Changes], before: ['2001', [{ partyId: '2101', plannedTime: 0 }, { PartyId: 2102 }, null, 7], '2104'], after: ['2002', [{ partyId: '2103' }], 2105] },
        { id: '2', name: 'b', remarks: '', flagged: false, state: [CellState.Unchanged, CellState.Computed, CellState.Unchanged], before: ['x', null, ''], after: [null, null, undefined] },
        { id: '3', name: 'c', remarks: '', flagged: false, state: [CellState.Unchanged, CellState.Unchanged, CellState.Unchanged], before: ['x', [{ partyId: '2101' }], '2104'], after: [null, null, null] },
      ],
      counts: [],
      lines: [],
    };
    assert.deepEqual([...userIdsInTable(table)].sort(), ['2101', '2102', '2103', '2104', '2105']);
  });
});
