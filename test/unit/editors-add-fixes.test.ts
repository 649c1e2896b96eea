// The Quick Fix of an item type or a status written by name in an add (src/editors/addActions.ts):
// which profile entries a written name finds (src/editors/model/profileNames.ts).
import * as assert from 'node:assert/strict';
import { entriesNamed } from '../../src/editors/model/profileNames';

const TYPES = [
  { itemTypeId: '41', name: 'フォルダー', systemName: 'Folder', code: 'FOLDER' },
  { itemTypeId: '42', name: '作業', systemName: 'Task', code: 'TASK' },
  { itemTypeId: '43', name: 'マイルストーン', systemName: 'Milestone', code: 'MS' },
];

describe('editors: an ID written by name in an add', () => {
  it('finds the entry by its name, code or system name, in any case and full-width', () => {
    assert.deepEqual(entriesNamed(TYPES, '作業').map((t) => t.itemTypeId), ['42']);
    assert.deepEqual(entriesNamed(TYPES, ' task ').map((t) => t.itemTypeId), ['42']);
    assert.deepEqual(entriesNamed(TYPES, 'ＭＳ').map((t) => t.itemTypeId), ['43']);
    assert.deepEqual(entriesNamed(TYPES, 'folder').map((t) => t.itemTypeId), ['41']);
  });

  it('finds nothing for another name or an empty one, and every entry of a name used twice', () => {
    assert.deepEqual(entriesNamed(TYPES, 'レビュー'), []);
    assert.deepEqual(entriesNamed(TYPES, '  '), []);
    const twice = [...TYPES, { itemTypeId: '47', name: '作業', systemName: 'Task2' }];
    assert.deepEqual(entriesNamed(twice, '作業').map((t) => t.itemTypeId), ['42', '47']);
  });
});
