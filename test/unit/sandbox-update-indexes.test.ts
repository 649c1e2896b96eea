import * as assert from 'node:assert/strict';
import { ServiceError } from '../../src/api/errors';
import type { Sandbox } from '../../src/sandbox';
import { DatasetIndexes, indexesOf } from '../../src/sandbox/update/indexes';
import { clientFor, startSandbox } from './bulk-helpers';

// The sandbox keeps its lookup indexes from one update to the next (so an update
// costs what it touches, not the data set's size). These tests move items around
// over real HTTP, with accepted and rejected requests mixed, and check after each
// one that the kept indexes equal indexes built afresh from the stored data.

function sameIndexes(sandbox: Sandbox): void {
  const kept = indexesOf(sandbox.data).workItems();
  const fresh = new DatasetIndexes(sandbox.data).workItems();
  assert.equal(kept.byId.size, fresh.byId.size);
  for (const [id, item] of fresh.byId) assert.equal(kept.byId.get(id), item, `the kept index holds the stored object of ${id}`);
  const norm = (m: Map<string, string[]>) => new Map([...m].filter(([, ids]) => ids.length > 0).map(([k, ids]) => [k, [...ids].sort()]));
  assert.deepEqual(norm(kept.children), norm(fresh.children));
}

describe('sandbox: indexes kept between updates', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox(400);
  });
  after(async () => {
    await sandbox.close();
  });

  it('follow accepted moves and ignore rejected ones (an update is atomic, its index changes too)', async () => {
    const client = clientFor(sandbox);
    try {
      const live = sandbox.data.workItems.filter((w) => !w.isDeleted && w.parentId !== null);
      const folders = live.filter((w) => w.itemTypeId === '41');
      const tasks = live.filter((w) => w.itemTypeId === '42' && w.actualTime === 0);
      assert.ok(folders.length >= 4 && tasks.length >= 10, 'the generated data set has folders and tasks');
      let accepted = 0;
      let rejected = 0;
      for (let i = 0; i < 12; i++) {
        const task = tasks[i]!;
        const target = folders.find((f) => f.projectId === task.projectId && f.id !== task.parentId);
        if (!target) continue;
        try {
          // Two items in one request: the task moves, then a folder goes under a task (rejected on odd rounds).
          const ids = i % 2 === 1 ? [task.id, folders.find((f) => f.projectId === task.projectId && f.id !== target.id)!.id] : [task.id];
          await client.updateWorkItems(ids, i % 2 === 1 ? { moveParentTo: tasks[i + 1]!.id } : { moveParentTo: target.id });
          accepted++;
          assert.equal(sandbox.data.workItems.find((w) => w.id === task.id)!.parentId, target.id);
        } catch (e) {
          assert.ok(e instanceof ServiceError && e.status !== undefined && e.status < 500, `a rule's error, not ${String(e)}`);
          rejected++;
        }
        sameIndexes(sandbox);
      }
      assert.ok(accepted > 0 && rejected > 0, `both kinds ran (accepted ${accepted}, rejected ${rejected})`);
      // A change the index must see: the children of a folder that received a task.
      const moved = sandbox.data.workItems.find((w) => w.id === tasks[0]!.id)!;
      const siblings = indexesOf(sandbox.data).workItems().children.get(moved.parentId!)!;
      assert.ok(siblings.includes(moved.id));
    } finally {
      await client.close();
    }
  });

  it('are rebuilt when the data set is replaced (reset)', async () => {
    const before = indexesOf(sandbox.data).workItems();
    const res = await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST' });
    assert.equal(res.status, 200);
    const after = indexesOf(sandbox.data).workItems();
    assert.notEqual(after, before);
    sameIndexes(sandbox);
  });
});
