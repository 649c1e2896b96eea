// The Work Items view's model in plain Node: rows from field maps, the depth rule,
// the index of loaded levels, subtrees and lowest-level items, reveal paths, ranges,
// the IDs an update changed, and appending IDs to a request document.
import * as assert from 'node:assert/strict';
import type { SubItemNode, WorkItemRecord } from '../../src/schema/reads';
import { TREE_FIELDS } from '../../src/schema/reads';
import { appliedIds } from '../../src/workItems/model/applied';
import { findPaths, flattenSubtree, Hierarchy, learnSubtree, levelQuery, loadLevel, lowestLevel, type Ancestry } from '../../src/workItems/model/hierarchy';
import { projectsQuery } from '../../src/workItems/model/projects';
import { appendIds, documentIds } from '../../src/workItems/model/requestIds';
import { childRows, dateOf, hoursOf, isCompleted, itemKind, toRow } from '../../src/workItems/model/rows';
import { ProjectTypes } from '../../src/workItems/model/types';
import { rangeChildren, rangePath } from '../../src/views/model/ranges';
import type { JobResult } from '../../src/bulk/types';

const node = (fields: Record<string, unknown>, subs?: SubItemNode[]): SubItemNode => ({ fields: subs ? { ...fields, SubItems: subs } : fields });

describe('work items model: rows', () => {
  it('reads a row from a field map: IDs as strings, the level from the position (names the help never shows are ignored)', () => {
    const r = toRow({ Id: 120, Name: 'Build', Code: 'B', ParentId: '100', IsFolder: true, HasChildren: false, ActualProgress: 100, Level: 4, PlannedTime: 90 }, 2)!;
    assert.equal(r.id, '120');
    assert.equal(r.level, 2, 'Level is not a field of the help: the position in the tree says');
    assert.equal(r.parentId, '100');
    assert.equal(r.hasChildren, undefined, 'HasChildren is not a field of the help: unknown until read');
    assert.equal(isCompleted(r), true);
    assert.equal(hoursOf(r.fields['PlannedTime']), '1.5');
    assert.equal(itemKind(r, new ProjectTypes()), 'task', 'IsFolder is not a field of the help');
    assert.equal(toRow({ Name: 'no id' }, 1), undefined);
  });

  it('"0" in ParentId is no parent (official help: "0" is "no value" for an ID)', () => {
    assert.equal(toRow({ Id: '10', ParentId: '0' }, 0)!.parentId, undefined);
    assert.equal(toRow({ Id: '11', ParentId: '0' }, 1, '10')!.parentId, '10', 'read below an item: that item');
    assert.equal(toRow({ Id: '11', ParentId: 0 }, 0)!.parentId, undefined);
  });

  it('a child that came back with sub-items has children; otherwise it is unknown until its level is read', () => {
    assert.equal(toRow({ Id: '1', SubItems: [{ fields: { Id: '2' } }] }, 1)!.hasChildren, true);
    assert.equal(toRow({ Id: '1', SubItems: [] }, 1)!.hasChildren, undefined);
    assert.equal(toRow({ Id: '1' }, 1)!.hasChildren, undefined);
  });

  it('tells folders, milestones and tasks apart from the profile\'s item types (official help P2)', () => {
    const types = new ProjectTypes({
      itemTypes: [
        { itemTypeId: '1', name: 'ルート', systemName: 'WorkItemRoot' },
        { itemTypeId: '41', name: 'フォルダー', systemName: 'Folder' },
        { itemTypeId: '42', name: '作業', systemName: 'Task' },
        { itemTypeId: '43', name: 'マイルストーン', systemName: 'Milestone' },
        { itemTypeId: '45', name: 'フェーズ', systemName: 'Phase', isFolder: true },
        { itemTypeId: '47', name: 'Review', systemName: 'Review', isFolder: false },
      ],
      statusTypes: [{ statusTypeId: '51', name: '未着手' }],
    });
    const kind = (typeId: string) => itemKind(toRow({ Id: 'x', ItemTypeId: typeId }, 1)!, types);
    assert.equal(kind('1'), 'folder');
    assert.equal(kind('41'), 'folder');
    assert.equal(kind('45'), 'folder', 'isFolder wins over the systemName');
    assert.equal(kind('42'), 'task');
    assert.equal(kind('43'), 'milestone');
    assert.equal(kind('47'), 'task');
    assert.equal(types.itemTypeName('42'), '作業');
    assert.equal(types.statusName('51'), '未着手');
    assert.equal(types.statusName('0'), undefined, '"0" is no status');
  });

  it('without a profile, folders come from the answers\' shape: the root folder\'s type, and items holding folders', () => {
    const types = new ProjectTypes();
    const root = { id: '10', fields: { Id: '10', ItemTypeId: '41' } };
    const level1 = [toRow({ Id: '100', ItemTypeId: '41' }, 1, '10')!, toRow({ Id: '101', ItemTypeId: '42' }, 1, '10')!];
    types.learnLevel(root, 0, level1);
    assert.equal(types.isFolder(root), true, 'the root folder is a folder');
    assert.equal(types.isFolder(level1[0]!), true, 'an item of the root folder\'s type is a folder');
    assert.equal(types.isFolder(level1[1]!), false);
    // A task holding tasks stays a task (service-api.md error 13: a non-folder item may have children).
    types.learnLevel(level1[1]!, 1, [toRow({ Id: '102', ItemTypeId: '42' }, 2, '101')!]);
    assert.equal(types.isFolder(level1[1]!), false);
    // An item holding a folder is a folder, and so is its type.
    const phase = toRow({ Id: '200', ItemTypeId: '45' }, 1, '10')!;
    types.learnLevel(phase, 1, [toRow({ Id: '201', ItemTypeId: '41' }, 2, '200')!]);
    assert.equal(types.isFolder(phase), true);
    assert.equal(types.isFolder(toRow({ Id: '300', ItemTypeId: '45' }, 1, '10')!), true);
  });

  it('the tree asks PlannedTime and LeaderId (service-api.md) only when the catalogue read names them', () => {
    assert.deepEqual(new ProjectTypes().treeFields(), TREE_FIELDS, 'no catalogue: TREE_FIELDS');
    const without = new ProjectTypes({ itemTypes: [{ itemTypeId: '42', name: '作業' }], fieldTypes: [{ name: '名前', systemName: 'Name' }] });
    assert.ok(!without.treeFields().includes('PlannedTime') && !without.treeFields().includes('LeaderId'));
    assert.ok(without.treeFields().includes('PlannedStartDate'), 'official names stay');
    const withThem = new ProjectTypes({ itemTypes: [{ itemTypeId: '42', name: '作業', fields: ['LeaderId', { systemName: 'PlannedTime' }] }] });
    assert.ok(withThem.treeFields().includes('PlannedTime') && withThem.treeFields().includes('LeaderId'));
  });

  it('shows dates without a midnight time part', () => {
    assert.equal(dateOf('2026-03-02T00:00:00'), '2026-03-02');
    assert.equal(dateOf('2026-03-02'), '2026-03-02');
    assert.equal(dateOf('2026-03-02T09:30:00'), '2026-03-02T09:30:00');
    assert.equal(dateOf(null), undefined);
  });

  it('takes the direct children of a subItems answer in the answer\'s order (no DisplayOrder), skipping entries without Id', () => {
    const answer = node({ Id: '100', Level: 7 }, [node({ Id: 'b', DisplayOrder: 2 }), node({ Name: 'no id' }), node({ Id: 'a', DisplayOrder: 1 }, [node({ Id: 'deeper' })])]);
    const { rows, skipped } = childRows(answer, 1);
    assert.deepEqual(
      rows.map((r) => [r.id, r.level, r.parentId]),
      [
        ['b', 2, '100'],
        ['a', 2, '100'],
      ],
    );
    assert.equal(skipped, 1);
    assert.equal('SubItems' in rows[1]!.fields, false, 'nested children are not kept in the row');
    assert.equal(rows[1]!.hasChildren, true);
  });
});

describe('work items model: the depth rule', () => {
  it('asks for the children of an item on level L with depth L + 1 (depth counts from the root folder)', () => {
    assert.deepEqual(levelQuery(0), { depth: 1, fields: TREE_FIELDS });
    assert.equal(levelQuery(2).depth, 3);
    assert.throws(() => levelQuery(-1), RangeError);
    assert.throws(() => levelQuery(1.5), RangeError);
  });

  it('loadLevel makes one call with the parent and depth = level + 1 and returns rows of the next level', async () => {
    const calls: { id: string; q: unknown }[] = [];
    const client = {
      getSubItems: async (id: string, q?: { depth?: number; fields?: readonly string[] }) => {
        calls.push({ id, q });
        return node({ Id: id }, [node({ Id: 'x' })]);
      },
    };
    const rows = await loadLevel(client, { id: '121', level: 2 });
    assert.deepEqual(calls, [{ id: '121', q: { depth: 3, fields: TREE_FIELDS } }]);
    assert.deepEqual(
      rows.map((r) => [r.id, r.level]),
      [['x', 3]],
    );
  });
});

describe('work items model: the index of loaded levels', () => {
  const rows = (parent: string, level: number, ...ids: string[]) => ids.map((id) => toRow({ Id: id, ParentId: parent, Name: id }, level)!);

  it('locates items, forgets a level and what was loaded below it', () => {
    const h = new Hierarchy();
    h.setLevel('root', rows('root', 1, 'a', 'b'));
    h.setLevel('a', rows('a', 2, 'a1', 'a2'));
    assert.deepEqual(h.locate('a2'), { parentId: 'a', index: 1 });
    assert.equal(h.row('b')!.level, 1);
    assert.equal(h.size, 4);
    h.forget('root');
    assert.equal(h.size, 0);
    assert.equal(h.locate('a1'), undefined);
  });

  it('replacing a level drops the items that left it', () => {
    const h = new Hierarchy();
    h.setLevel('root', rows('root', 1, 'a', 'b'));
    h.setLevel('root', rows('root', 1, 'b', 'c'));
    assert.equal(h.locate('a'), undefined);
    assert.deepEqual(h.locate('c'), { parentId: 'root', index: 1 });
  });

  it('the index of where items sit, brought up to date when first asked, answers as one kept up to date at every stored level (random sequences)', () => {
    // The reference: every level indexed as it is stored (drop the items that left, then place the new ones).
    class Eager {
      levels = new Map<string, string[]>();
      where = new Map<string, { parentId: string; index: number }>();
      set(parentId: string, ids: string[]): void {
        for (const id of this.levels.get(parentId) ?? []) if (this.where.get(id)?.parentId === parentId) this.where.delete(id);
        this.levels.set(parentId, ids);
        ids.forEach((id, index) => this.where.set(id, { parentId, index }));
      }
      forget(parentId: string): void {
        const ids = this.levels.get(parentId);
        if (!ids) return;
        this.levels.delete(parentId);
        for (const id of ids) {
          if (this.where.get(id)?.parentId === parentId) this.where.delete(id);
          this.forget(id);
        }
      }
    }
    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pool = Array.from({ length: 30 }, (_, i) => `i${i}`);
    const parents = ['root', 'i1', 'i2', 'i3', 'i4'];
    for (let round = 0; round < 200; round++) {
      const h = new Hierarchy();
      const e = new Eager();
      for (let step = 0; step < 40; step++) {
        const op = rnd(10);
        const parent = parents[rnd(parents.length)]!;
        if (op < 6) {
          const ids = [...new Set(Array.from({ length: rnd(8) }, () => pool[rnd(pool.length)]!))].filter((id) => id !== parent);
          h.setLevel(parent, rows(parent, 1, ...ids));
          e.set(parent, ids);
        } else if (op < 7) {
          h.forget(parent);
          e.forget(parent);
        } else {
          // Asked now and then: the index is brought up to date in between, not only at the end.
          for (const id of pool) assert.deepEqual(h.locate(id), e.where.get(id), `round ${round}, step ${step}: ${id}`);
          assert.equal(h.size, e.where.size);
        }
      }
      for (const id of pool) assert.deepEqual(h.locate(id), e.where.get(id), `round ${round}, end: ${id}`);
      for (const id of pool) assert.equal(h.row(id)?.id, e.where.has(id) ? id : undefined);
    }
  });

  it('applies fresh values in place; a moved or vanished item reloads its level instead', () => {
    const h = new Hierarchy();
    h.setLevel('root', rows('root', 1, 'a', 'b'));
    h.setLevel('a', rows('a', 2, 'a1', 'a2'));
    const level = h.children('a');
    const fresh = new Map<string, WorkItemRecord>([
      ['a1', { fields: { Id: 'a1', ActualProgress: 100 } }],
      ['a2', { fields: { Id: 'a2', ParentId: 'b' } }],
      ['zz', { fields: { Id: 'zz' } }],
    ]);
    const r = h.apply(fresh, ['b']);
    assert.deepEqual(r.updated, ['a1']);
    assert.deepEqual(r.reload.sort(), ['a', 'root']);
    assert.equal(h.children('a'), level, 'the level array is patched, not copied');
    assert.equal(h.row('a1')!.progress, 100);
    assert.equal(h.row('a1')!.name, 'a1', 'fields not in the answer are kept');
  });

  it('compares a level with the order of a fresh answer (the siblings\' order is the answer\'s order)', () => {
    const h = new Hierarchy();
    h.setLevel('root', rows('root', 1, 'a', 'b', 'c'));
    assert.equal(h.sameOrder('root', ['a', 'b', 'c']), true);
    assert.equal(h.sameOrder('root', ['b', 'a', 'c']), false);
    assert.equal(h.sameOrder('root', ['a', 'b']), false);
    assert.equal(h.sameOrder('nope', []), false);
  });
});

describe('work items model: subtrees and lowest-level items', () => {
  const tree = node({ Id: 'f', ItemTypeId: '41' }, [
    node({ Id: 't1', ItemTypeId: '42' }),
    node({ Id: 't2', ItemTypeId: '42' }, [node({ Id: 't2a', ItemTypeId: '42' }), node({ Id: 't2b', ItemTypeId: '42' })]),
    node({ Id: 'empty', ItemTypeId: '41' }),
  ]);
  const profile = new ProjectTypes({ itemTypes: [{ itemTypeId: '41', name: 'フォルダー', systemName: 'Folder' }, { itemTypeId: '42', name: '作業', systemName: 'Task' }] });

  it('flattens a subtree in tree order (the answer\'s order) with levels and parents', () => {
    const flat = flattenSubtree(tree, 1);
    assert.deepEqual(
      flat.map((e) => [e.row.id, e.row.level, e.row.parentId, e.isLeaf]),
      [
        ['t1', 2, 'f', true],
        ['t2', 2, 'f', false],
        ['t2a', 3, 't2', true],
        ['t2b', 3, 't2', true],
        ['empty', 2, 'f', true],
      ],
    );
  });

  it('lowest-level items are the leaves that are not folders (folders from the profile)', () => {
    assert.deepEqual(
      lowestLevel(flattenSubtree(tree, 1), (r) => profile.isFolder(r)).map((r) => r.id),
      ['t1', 't2a', 't2b'],
    );
  });

  it('without a profile, a subtree read from the root teaches which items are folders', () => {
    const types = new ProjectTypes();
    const whole = node({ Id: 'root', ItemTypeId: '41' }, [tree]);
    const flat = flattenSubtree(whole, 0);
    learnSubtree(types, whole, 0, flat);
    assert.deepEqual(
      lowestLevel(flat, (r) => types.isFolder(r)).map((r) => r.id),
      ['t1', 't2a', 't2b'],
      'the empty folder has the root folder\'s type',
    );
  });

  it('flattens a 16-level chain without recursion', () => {
    let n = node({ Id: 'l16' });
    for (let l = 15; l >= 1; l--) n = node({ Id: `l${l}` }, [n]);
    const flat = flattenSubtree(node({ Id: 'root' }, [n]), 0);
    assert.equal(flat.length, 16);
    assert.equal(flat[15]!.row.level, 16);
  });
});

describe('work items model: reveal paths', () => {
  // root ─ 100 ─ 110 ─ 111
  //            └ 120 ─ 121 ─ 122
  const parents: Record<string, string | null> = { root: null, '100': 'root', '110': '100', '111': '110', '120': '100', '121': '120', '122': '121' };
  const fakeRead = () => {
    const batches: string[][] = [];
    const read = async (ids: string[]) => {
      batches.push([...ids]);
      const m = new Map<string, Ancestry>();
      for (const id of ids) if (id in parents) m.set(id, { parentId: parents[id] ?? undefined, projectId: 'p1' });
      return m;
    };
    return { batches, read };
  };

  it('walks up all chains together, one read per level, to the root folder', async () => {
    const { batches, read } = fakeRead();
    const r = await findPaths(['111', '122', 'nope'], read, () => false);
    assert.deepEqual(r.paths.get('111'), ['root', '100', '110', '111']);
    assert.deepEqual(r.paths.get('122'), ['root', '100', '120', '121', '122']);
    assert.deepEqual(r.missing, ['nope']);
    assert.equal(r.projects.get('122'), 'p1');
    assert.deepEqual(batches[0], ['111', '122', 'nope'], 'the items themselves in one read');
    assert.deepEqual(batches[1], ['110', '121'], 'then their parents together');
    assert.equal(r.reads, batches.length);
    assert.ok(r.reads <= 5);
  });

  it('stops at an item already loaded in the tree', async () => {
    const { batches, read } = fakeRead();
    const r = await findPaths(['122'], read, (id) => id === '120');
    assert.deepEqual(r.paths.get('122'), ['120', '121', '122']);
    assert.equal(batches.length, 2);
  });

  it('survives a cycle in ParentId', async () => {
    const read = async (ids: string[]) => new Map(ids.map((id) => [id, { parentId: id === 'a' ? 'b' : 'a' }] as const));
    const r = await findPaths(['a'], read, () => false);
    assert.deepEqual(r.paths.get('a'), ['b', 'a']);
  });
});

describe('work items model: ranges of a large level', () => {
  it('a level of 5,000 items shows 50 ranges of 100; getParent finds an item\'s range', () => {
    const top = rangeChildren(0, 5000);
    assert.equal(top.length, 50);
    assert.deepEqual(top[0], { kind: 'range', start: 0, end: 100 });
    assert.deepEqual(rangePath(5000, 4321), [{ start: 4300, end: 4400 }]);
    assert.deepEqual(rangePath(150, 10), [], 'a small level lists its items');
  });
});

describe('work items model: projects query', () => {
  it('sends the filter and isFinished=false when finished projects are hidden', () => {
    assert.deepEqual(projectsQuery({ filter: { name: 'Web', keyword: '' }, hideFinished: true }, { limit: 100, offset: 200 }), { limit: 100, offset: 200, name: 'Web', isFinished: false });
    assert.deepEqual(projectsQuery({ filter: {}, hideFinished: false }, { limit: 10, offset: 0 }), { limit: 10, offset: 0 });
  });
});

describe('work items model: the IDs an update changed', () => {
  it('collects items then affectedItems of succeeded requests, each once', () => {
    const result = {
      requests: [
        { state: 'succeeded', response: { items: [{ id: '1' }, { id: '2' }], affectedItems: [{ id: '100' }] } },
        { state: 'failed', response: { items: [{ id: '9' }], affectedItems: [] } },
        { state: 'succeeded', response: { items: [{ id: '2' }, { id: '3' }], affectedItems: [{ id: '1' }] } },
      ],
    } as unknown as JobResult;
    assert.deepEqual(appliedIds(result), ['1', '2', '3', '100']);
  });
});

describe('work items model: IDs in a request document', () => {
  it('appends to a multi-line list in its layout, without duplicates, keeping comments', () => {
    const text = '{\n  // picked by hand\n  "workItemIds": [\n    "1",\n    2\n  ],\n  "update": { "setCompleted": true }\n}\n';
    const r = appendIds(text, ['2', '3', '3', '4']);
    assert.ok(r.ok);
    assert.deepEqual(r.added, ['3', '4']);
    assert.equal(r.present, 2);
    assert.equal(r.text, '{\n  // picked by hand\n  "workItemIds": [\n    "1",\n    2,\n    "3",\n    "4"\n  ],\n  "update": { "setCompleted": true }\n}\n');
    assert.deepEqual(documentIds(r.text), ['1', '2', '3', '4']);
  });

  it('appends to a one-line list on the same line, and fills an empty or absent list', () => {
    const one = appendIds('{"workItemIds": ["1"], "update": {}}', ['5']);
    assert.ok(one.ok);
    assert.equal(one.text, '{"workItemIds": ["1", "5"], "update": {}}');
    const empty = appendIds('{"workItemIds": [], "update": {}}', ['5', '6']);
    assert.ok(empty.ok);
    assert.deepEqual(documentIds(empty.text), ['5', '6']);
    const absent = appendIds('{\n  "update": {}\n}', ['7']);
    assert.ok(absent.ok);
    assert.deepEqual(documentIds(absent.text), ['7']);
  });

  it('nothing to add leaves the text as it is', () => {
    const r = appendIds('{"workItemIds": ["1"]}', ['1']);
    assert.ok(r.ok);
    assert.deepEqual(r.edits, []);
    assert.equal(r.present, 1);
  });

  it('refuses broken JSON and a workItemIds that is not a list, saying which', () => {
    assert.deepEqual(appendIds('{"workItemIds": [', ['1']), { ok: false, problem: 'not-json' });
    assert.deepEqual(appendIds('[1]', ['1']), { ok: false, problem: 'not-object' });
    assert.deepEqual(appendIds('{"workItemIds": "1,2"}', ['1']), { ok: false, problem: 'ids-not-array' });
  });

  it('appends 5,000 IDs in one edit', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => String(10_000 + i));
    const r = appendIds('{\n  "workItemIds": [\n    "1"\n  ]\n}', ids);
    assert.ok(r.ok);
    assert.equal(r.edits.length, 1);
    assert.equal(documentIds(r.text)!.length, 5001);
  });
});
