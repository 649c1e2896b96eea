import * as assert from 'node:assert/strict';
import { readMessage, readSelection, readViewState } from '../../src/table/protocol';

// What a restored table tab brings back (the state its page kept with setState) is input:
// it is checked, and a state that does not name a table restores nothing.
describe('table: the state a restored tab brings back', () => {
  const selection = { focus: { id: '122', key: 'Name' }, anchor: { id: '127', key: 'Code' } };

  it('gives back the source, the filter and the selection the page kept', () => {
    const state = { v: 1, source: { title: 'Table: Demo', projectId: '3001', rootId: '100', level: 0, basePath: '' }, filterText: 'finish<2026-05-20', selection };
    assert.deepEqual(readViewState(JSON.parse(JSON.stringify(state))), state);
    const byIds = { v: 1, source: { title: 'Table: items', ids: ['122', '123'] }, filterText: '' };
    assert.deepEqual(readViewState(byIds), byIds);
  });

  it('restores nothing from a state that names no table (no title, no root and no IDs, another version, not an object)', () => {
    for (const raw of [undefined, null, 'x', {}, { v: 2, source: { title: 'T', rootId: '1' } }, { v: 1 }, { v: 1, source: { rootId: '1' } }, { v: 1, source: { title: 'T' } }, { v: 1, source: { title: 'T', ids: [1, 2] } }]) {
      assert.equal(readViewState(raw), undefined, JSON.stringify(raw));
    }
  });

  it('drops what is malformed and keeps the rest: IDs that are not strings, a negative level, a bad filter or selection', () => {
    const r = readViewState({ v: 1, source: { title: 'T', ids: ['1', 2, '3'], level: -1, projectId: 7 }, filterText: 42, selection: { focus: { id: '1' } } });
    assert.deepEqual(r, { v: 1, source: { title: 'T', ids: ['1', '3'] }, filterText: '' });
  });

  it('reads a selection message of the page only with both cells named by ID and column key', () => {
    assert.deepEqual(readMessage({ type: 'selection', ...selection }), { type: 'selection', ...selection });
    assert.equal(readMessage({ type: 'selection', focus: selection.focus }), undefined);
    assert.equal(readSelection({ focus: { id: 1, key: 'Name' }, anchor: selection.anchor }), undefined);
  });
});
