// A table opened on a folder: the parent path column starts below the project's root
// folder (the folder's own ancestors first), exactly as in the project's table, not at
// the folder. Against the sandbox over real HTTP (GET workItems with Name, ParentId,
// ParentName: the official help's F1 fields).
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import type { CallOptions } from '../../src/api/client';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { folderPath, loadSubtree, type ItemReads, type LoadedRow } from '../../src/table/model/load';
import { signedInClient } from './sandbox-client';

describe('table on a folder: parent paths from the project root (sandbox)', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let projectRows: LoadedRow[];

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    client = await signedInClient(sandbox);
    const [p] = await client.getProjects(['3001']);
    projectRows = await loadSubtree(client, String(p!.workItemRootFolderId), 0, { onRows: () => undefined });
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  /** The client, counting the reads of items by ID. */
  const counting = (): ItemReads & { calls: string[][] } => {
    const calls: string[][] = [];
    return {
      calls,
      getWorkItems: (ids: readonly string[], fields?: readonly string[], o?: CallOptions) => {
        calls.push([...ids]);
        return client.getWorkItems(ids, fields, o);
      },
    };
  };

  /** Opens the table on `folder` as the panel does: its path read, then its subtree. */
  async function folderTable(folder: LoadedRow): Promise<{ rows: LoadedRow[]; reads: number; basePath: string }> {
    const reads = counting();
    const basePath = await folderPath(reads, { id: folder.id, name: String(folder.fields['Name']), level: folder.level });
    const rows = await loadSubtree(client, folder.id, folder.level, { onRows: () => undefined }, { basePath });
    return { rows, reads: reads.calls.length, basePath };
  }

  it('every row of a folder table on each level has the parent path of the same row in the project table', async () => {
    const byId = new Map(projectRows.map((r) => [r.id, r]));
    const folders = projectRows.filter((r) => r.hasChildren === true);
    const levels = new Set(folders.map((f) => f.level));
    assert.ok(levels.has(1) && levels.has(2), `the demo has folders on levels 1 and 2 (${[...levels].join(', ')})`);
    for (const level of levels) {
      const folder = folders.find((f) => f.level === level)!;
      const t = await folderTable(folder);
      assert.equal(t.reads, level - 1, `a folder on level ${level}: one read per level above it, down to level 2`);
      const own = folder.fields['ParentName'];
      assert.equal(t.basePath, own ? `${String(own)} / ${String(folder.fields['Name'])}` : folder.fields['Name'], 'the folder path is its own parent path and name');
      assert.ok(t.rows.length > 0);
      for (const r of t.rows) {
        assert.equal(r.fields['ParentName'], byId.get(r.id)!.fields['ParentName'], `row ${r.id} in the table of folder ${folder.id} (level ${level})`);
        assert.equal(r.level, byId.get(r.id)!.level);
      }
    }
    const deep = folders.find((f) => f.level >= 2)!;
    const t = await folderTable(deep);
    assert.ok(String(t.rows[0]!.fields['ParentName']).split(' / ').length > 1, 'starts at the project root, not at the folder');
  });

  it('a folder whose answer names no parent keeps the path read so far', async () => {
    const reads: ItemReads = { getWorkItems: async (ids) => ids.map((id) => ({ fields: { Id: id, Name: 'X', ParentId: '0', ParentName: '' } })) };
    assert.equal(await folderPath(reads, { id: '9', name: 'Nine', level: 4 }), 'Nine');
  });
});
