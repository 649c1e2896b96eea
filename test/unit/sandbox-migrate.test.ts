// Data sets and --state files of 0.1.0 (format version 1, old field names) still load:
// migrated to the official names of the Web API help, and said so.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { migrateDataset } from '../../src/sandbox/migrate';
import { createSandbox } from '../../src/sandbox/server';
import { parseDataset } from '../../src/sandbox/state';

function v1Dataset(): Record<string, unknown> {
  return {
    version: 1,
    organizations: [],
    users: [],
    itemTypes: [{ id: '1', name: 'Folder', isFolder: true }, { id: '2', name: 'Task', isFolder: false }],
    workClassifications: [{ id: '7', name: 'Normal' }],
    projects: [{ id: '5', name: 'P', workItemRootFolderId: '10', allowedDateRange: { min: '2000-01-01', max: '2099-12-31' } }],
    workItems: [
      { id: '10', projectId: '5', parentId: null, order: 0, itemTypeId: '1', name: 'root' },
      {
        id: '11', projectId: '5', parentId: '10', order: 1, itemTypeId: '2', name: 'T',
        startDate: '2026-03-02', endDate: '2026-03-06', workCategoryId: '7',
        fieldCalcTypes: { StartDate: 'Manual', EndDate: 'Children', PlannedTime: 'Manual' },
      },
    ],
  };
}

describe('sandbox: data sets of 0.1.0 (format version 1) are migrated to the official field names', () => {
  it('renames startDate/endDate/workCategoryId and the fieldCalcTypes keys, and says so', () => {
    const notes: string[] = [];
    const d = parseDataset(v1Dataset(), 'old.json', notes);
    const item = d.workItems.find((w) => w.id === '11')!;
    assert.equal(d.version, 2);
    assert.deepEqual([item.plannedStartDate, item.plannedFinishDate, item.timeEntryCategoryId], ['2026-03-02', '2026-03-06', '7']);
    assert.deepEqual(item.fieldCalcTypes, { PlannedStartDate: 'Manual', PlannedFinishDate: 'Children', PlannedTime: 'Manual' });
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /version 1 migrated to version 2/);
    assert.match(notes[0]!, /startDate → plannedStartDate \(1 work item\)/);
    assert.match(notes[0]!, /fieldCalcTypes\.StartDate → PlannedStartDate/);
  });

  it('leaves the input unchanged and a version 2 data set alone (no note)', () => {
    const input = v1Dataset();
    const copy = structuredClone(input);
    migrateDataset(input);
    assert.deepEqual(input, copy);
    const v2 = { ...input, version: 2 };
    assert.deepEqual(migrateDataset(v2), { data: v2, notes: [] });
  });

  it('a version 2 data set with the old names is refused, naming the member', () => {
    assert.throws(() => parseDataset({ ...v1Dataset(), version: 2 }), /workItems\[1\]: unknown members? .*"startDate"/);
  });

  it('a --state file of version 1 loads, migrated with a warning that names the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-migrate-'));
    const file = path.join(dir, 'state.json');
    fs.writeFileSync(file, JSON.stringify(v1Dataset()));
    const warnings: string[] = [];
    const logger = { trace() {}, debug() {}, info() {}, warn: (m: string | Error) => void warnings.push(String(m)), error() {} };
    const sb = await createSandbox({ statePath: file, logger });
    try {
      assert.ok(warnings.some((w) => w.includes(file) && w.includes('migrated to version 2')), warnings.join('\n'));
      const r = await fetch(`${sb.origin}/_sandbox/workitems/11`);
      const body = (await r.json()) as Record<string, unknown>;
      assert.equal(body['plannedStartDate'], '2026-03-02');
    } finally {
      await sb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
