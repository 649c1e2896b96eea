// The Work Items view's model against the sandbox over real HTTP: lazy levels with
// the depth rule, one request per expansion, the index refreshed after an update,
// subtrees and lowest-level items, and reveal paths through batched reads.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { TREE_FIELDS } from '../../src/schema/reads';
import { findPaths, flattenSubtree, Hierarchy, levelQuery, loadLevel, lowestLevel, type Ancestry } from '../../src/workItems/model/hierarchy';
import { ProjectTypes } from '../../src/workItems/model/types';
import { projectsQuery } from '../../src/workItems/model/projects';
import { idText } from '../../src/workItems/model/rows';
import { signedInClient } from './sandbox-client';

describe('work items model against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  const calls: string[] = [];

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    client = await signedInClient(sandbox);
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  /** getSubItems through the client, counting the calls. */
  const counted = {
    getSubItems: (id: string, q?: { depth?: number; fields?: readonly string[] }) => {
      calls.push(`${id}@${q?.depth ?? '-'}`);
      return client.getSubItems(id, q);
    },
  };

  it('lists projects with a filter and hides finished ones with isFinished=false', async () => {
    const all = await client.listProjects(projectsQuery({ filter: {}, hideFinished: false }, { limit: 100, offset: 0 }));
    const open = await client.listProjects(projectsQuery({ filter: {}, hideFinished: true }, { limit: 100, offset: 0 }));
    assert.ok(all.data.some((p) => p.isFinished), 'the demo has a finished project');
    assert.ok(open.data.length > 0 && open.data.every((p) => !p.isFinished));
    const web = await client.listProjects(projectsQuery({ filter: { keyword: 'WEB' }, hideFinished: false }, { limit: 100, offset: 0 }));
    assert.deepEqual(
      web.data.map((p) => p.id),
      ['3001'],
    );
    assert.equal(String(web.data[0]!.workItemRootFolderId), '10');
  });

  it('expands a project to level 3 one level at a time: one request per expansion, depth = level + 1', async () => {
    calls.length = 0;
    const h = new Hierarchy();
    const l1 = await loadLevel(counted, { id: '10', level: 0 });
    h.setLevel('10', l1);
    assert.ok(l1.some((r) => r.id === '100'));
    assert.ok(l1.every((r) => r.level === 1 && r.parentId === '10'), 'only level 1 comes back');
    const l2 = await loadLevel(counted, { id: '100', level: 1 });
    h.setLevel('100', l2);
    assert.deepEqual(
      l2.map((r) => r.id).slice(0, 3),
      ['110', '120', '130'],
      'the answer\'s order',
    );
    const l3 = await loadLevel(counted, { id: '120', level: 2 });
    h.setLevel('120', l3);
    assert.deepEqual(
      l3.map((r) => [r.id, r.level, r.parentId]),
      [
        ['121', 3, '120'],
        ['124', 3, '120'],
        ['125', 3, '120'],
        ['126', 3, '120'],
      ],
    );
    assert.deepEqual(calls, ['10@1', '100@2', '120@3']);
    assert.equal(h.row('121')!.hasChildren, undefined, 'unknown until its level is read (the help shows no HasChildren)');
    assert.equal(h.locate('124')!.parentId, '120');
  });

  it('depth counts from the root folder: the children of a level-2 item need depth 3 (depth 2 gives none)', async () => {
    const right = await client.getSubItems('120', levelQuery(2));
    assert.ok((right.fields.SubItems ?? []).length > 0);
    for (const c of right.fields.SubItems ?? []) assert.ok(!c.fields.SubItems || c.fields.SubItems.length === 0, 'nothing deeper than one level comes back');
    const relative = await client.getSubItems('120', { depth: 1, fields: TREE_FIELDS });
    assert.equal((relative.fields.SubItems ?? []).length, 0, 'depth relative to the item asked would load nothing');
  });

  it('after an update, one batched GET refreshes the loaded rows in place', async () => {
    const h = new Hierarchy();
    h.setLevel('121', await loadLevel(client, { id: '121', level: 3 }));
    const level = h.children('121')!;
    await client.updateWorkItems(['122', '123'], { fields: { ActualProgress: 42 } });
    const r = await readWorkItems(client, ['122', '123'], { fields: TREE_FIELDS });
    assert.equal(r.requests, 1);
    const { updated, reload } = h.apply(r.items, r.missing);
    assert.deepEqual(updated.sort(), ['122', '123']);
    assert.deepEqual(reload, []);
    assert.equal(h.children('121'), level);
    assert.equal(h.row('122')!.progress, 42);
  });

  it('Select Subtree reads one subtree; lowest-level items are those without sub-items', async () => {
    const node = await client.getSubItems('120', { fields: TREE_FIELDS });
    const entries = flattenSubtree(node, 2);
    const ids = entries.map((e) => e.row.id);
    for (const id of ['121', '122', '123', '127', '128', '129', '124']) assert.ok(ids.includes(id), `${id} in the subtree`);
    assert.ok(ids.indexOf('121') < ids.indexOf('122') && ids.indexOf('122') < ids.indexOf('124'), 'tree order');
    const types = new ProjectTypes(await client.getProjectProfile('3001'));
    const lowest = lowestLevel(entries, (r) => types.isFolder(r)).map((r) => r.id);
    for (const id of ['122', '123', '128', '129']) assert.ok(lowest.includes(id), `${id} is lowest-level`);
    for (const id of ['121', '127']) assert.ok(!lowest.includes(id), `${id} has sub-items`);
    assert.equal(entries.find((e) => e.row.id === '128')!.row.level, 5);
  });

  it('Reveal finds the path of each item with one batched read per level', async () => {
    let reads = 0;
    const read = async (ids: string[]) => {
      const r = await readWorkItems(client, ids, { fields: ['Id', 'ParentId', 'ProjectId'] });
      reads += r.requests;
      const m = new Map<string, Ancestry>();
      for (const [id, rec] of r.items) m.set(id, { parentId: idText(rec.fields['ParentId']), projectId: idText(rec.fields['ProjectId']) });
      return m;
    };
    // The root folder's ParentId is "0" (no value): the path ends there.
    const found = await findPaths(['129', '111', 'no-such-item'], read, () => false);
    assert.deepEqual(found.paths.get('129'), ['10', '100', '120', '121', '127', '129']);
    assert.deepEqual(found.paths.get('111'), ['10', '100', '110', '111']);
    assert.equal(found.projects.get('129'), '3001');
    assert.deepEqual(found.missing, ['no-such-item']);
    assert.equal(reads, found.reads);
    assert.ok(found.reads <= 6, `${found.reads} reads for paths 5 levels deep`);
  });
});
