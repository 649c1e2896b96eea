// Reading the table's rows against the sandbox over real HTTP: a project's first level
// first, then its whole subtree (parent paths, levels, containers), items by ID in
// slices with the missing ones named, cancel; the view (lowest level only, filter, sort).
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { loadByIds, loadSubtree, flattenToRows, type LoadedRow } from '../../src/table/model/load';
import { computeView, folderTest, folderTypeIds, tableColumns, todayOf, userIdsOf } from '../../src/table/model/session';
import { compileFilterText } from '../../src/table/model/filter-text';
import { readAllFieldTypes } from '../../src/api/catalogue';
import { signedInClient } from './sandbox-client';

describe('table rows against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let client: ServiceClient;

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    client = await signedInClient(sandbox);
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  async function rootOf(projectId: string): Promise<string> {
    const [p] = await client.getProjects([projectId]);
    return String(p!.workItemRootFolderId);
  }

  it('sends the first level at once, then the whole subtree replacing it, with levels, parent paths and containers', async () => {
    const root = await rootOf('3001');
    const phases: { n: number; replace: boolean; maxLevel: number }[] = [];
    const rows = await loadSubtree(client, root, 0, { onRows: (r, replace) => phases.push({ n: r.length, replace, maxLevel: Math.max(...r.map((x) => x.level)) }) });
    assert.equal(phases.length, 2, 'first level, then everything');
    assert.equal(phases[0]!.maxLevel, 1);
    assert.ok(phases[1]!.n > phases[0]!.n && phases[1]!.maxLevel >= 3);
    assert.ok(phases.every((p) => p.replace));
    // Tree order: each row's parent comes before it, one level up, and its path is the parent's path + name.
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of rows) {
      assert.ok(!('SubItems' in r.fields), 'no nested children kept');
      if (r.level === 1) {
        assert.equal(r.fields['ParentName'], null);
        continue;
      }
      const parent = byId.get(String(r.fields['ParentId']))!;
      assert.ok(parent, `parent of ${r.id} is a row`);
      assert.equal(parent.level, r.level - 1);
      assert.equal(parent.hasChildren, true);
      const pp = parent.fields['ParentName'];
      assert.equal(r.fields['ParentName'], pp ? `${String(pp)} / ${String(parent.fields['Name'])}` : parent.fields['Name']);
      assert.ok(rows.indexOf(parent) < rows.indexOf(r));
    }
  });

  it('lowest level only leaves folders and containers out; the profile names the folder types', async () => {
    const root = await rootOf('3001');
    const rows = await loadSubtree(client, root, 0, { onRows: () => undefined });
    const profile = await client.getProjectProfile('3001');
    const folders = folderTypeIds(profile);
    assert.ok(folders.size > 0, 'the demo profile names folder types');
    const isFolder = folderTest(folders);
    const lowest = computeView(rows, { lowestOnly: true, isFolder });
    assert.ok(lowest.length > 0 && lowest.length < rows.length);
    assert.ok(lowest.every((r) => !r.hasChildren && !folders.has(String(r.fields['ItemTypeId']))));
  });

  it('filters and sorts what was read: the count of a typed filter, and a stable sort by planned finish', async () => {
    const root = await rootOf('3001');
    const rows = await loadSubtree(client, root, 0, { onRows: () => undefined });
    const profile = await client.getProjectProfile('3001');
    const columns = tableColumns(await readAllFieldTypes(client), profile);
    assert.ok(columns.some((c) => c.field?.isSystemField === false), 'custom fields of the catalogue are columns');
    const ctx = { columns, today: todayOf() };
    const f = compileFilterText('progress<100 finish:notempty', ctx);
    assert.ok(f.ok);
    const expected = rows.filter((r) => typeof r.fields['ActualProgress'] === 'number' && (r.fields['ActualProgress'] as number) < 100 && typeof r.fields['PlannedFinishDate'] === 'string' && r.fields['PlannedFinishDate'] !== '');
    const finish = columns.find((c) => c.key === 'PlannedFinishDate')!;
    const view = computeView(rows, { lowestOnly: false, isFolder: () => false, test: f.test, sort: { column: finish, direction: 'asc' } });
    assert.equal(view.length, expected.length);
    const dates = view.map((r) => String(r.fields['PlannedFinishDate']).slice(0, 10));
    assert.deepEqual(dates, [...dates].sort());
    const bad = compileFilterText('progress<<1', ctx);
    assert.ok(!bad.ok && bad.errors && bad.errors[0]!.start >= 8, 'the error names its position');
    assert.ok(userIdsOf(rows, columns).size > 0, 'leaders and assignees to name');
  });

  it('reads items by ID in slices, rows after each slice, and names the missing', async () => {
    const root = await rootOf('3001');
    const all = await loadSubtree(client, root, 0, { onRows: () => undefined });
    const ids = [...all.slice(0, 5).map((r) => r.id), '999999991'];
    const slices: number[] = [];
    const r = await loadByIds((i, o) => readWorkItems(client, i, o), ids, { onRows: (got) => slices.push(got.length) }, { slice: 2 });
    assert.deepEqual(slices, [2, 2, 1]);
    assert.deepEqual(r.rows.map((x) => x.id), ids.slice(0, 5));
    assert.deepEqual(r.missing, ['999999991']);
  });

  it('stops when cancelled: after the first level no second read; before it, the read fails as cancelled', async () => {
    const root = await rootOf('3001');
    const controller = new AbortController();
    const phases: number[] = [];
    const rows = await loadSubtree(client, root, 0, {
      signal: controller.signal,
      onRows: (r) => {
        phases.push(r.length);
        controller.abort();
      },
    });
    assert.equal(phases.length, 1);
    assert.ok(rows.every((r) => r.level === 1));
    await assert.rejects(loadSubtree(client, root, 0, { signal: controller.signal, onRows: () => assert.fail('no rows after a cancel') }), (e: Error & { kind?: string }) => e.kind === 'cancelled' || e.name === 'AbortError');
  });

  it('flattens deep trees without recursion', () => {
    let node: { fields: Record<string, unknown> } = { fields: { Id: 'leaf', Name: 'leaf' } };
    for (let i = 0; i < 20_000; i++) node = { fields: { Id: `n${i}`, Name: `n${i}`, SubItems: [node] } };
    const rows: LoadedRow[] = flattenToRows({ fields: { Id: 'root', SubItems: [node] } }, 0);
    assert.equal(rows.length, 20_001);
    assert.equal(rows.at(-1)!.level, 20_001);
    assert.equal(rows.at(-1)!.fields['ParentId'], 'n0');
  });
});
