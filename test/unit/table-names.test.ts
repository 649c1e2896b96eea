// The table shows people by name, never bare user IDs, when the names are not known
// yet: the people directory is asked, the unknown IDs are read through it, then the rows
// are shown again with names (the ID on hover), and "leader is" / "assigned to" by name
// match the names learned. Against the sandbox over real HTTP: its demo project's rows
// and the people of its root organization read as src/people/read.ts reads them.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { readAllFieldTypes } from '../../src/api/catalogue';
import { readPeople } from '../../src/people/read';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { loadSubtree, type LoadedRow } from '../../src/table/model/load';
import { tableColumns, todayOf, userIdsOf } from '../../src/table/model/session';
import { compileFilterText } from '../../src/table/model/filter-text';
import { TableNames, carriedNames, type PeopleDirectory } from '../../src/table/model/names';
import type { KnownUser } from '../../src/table/model/lookup';
import { shownRow, userTitle } from '../../src/table/model/window';
import type { ColumnDef } from '../../src/table/model/columns';
import { signedInClient } from './sandbox-client';

/** A directory like src/people/directory.ts: knows nothing at first; `resolve` reads the root organization's people. */
function directory(read: (ids: string[]) => Promise<KnownUser[]>): PeopleDirectory & { reads: string[][]; known: Map<string, KnownUser> } {
  const known = new Map<string, KnownUser>();
  const reads: string[][] = [];
  return {
    known,
    reads,
    lookupAll(ids) {
      const out = new Map<string, KnownUser>();
      for (const id of ids) {
        const u = known.get(id);
        if (u) out.set(id, u);
      }
      return out;
    },
    async resolve(ids) {
      const list = [...ids];
      reads.push(list);
      for (const u of await read(list)) known.set(u.id, u);
      return list.some((id) => known.has(id));
    },
  };
}

describe('table: people by name (names read through the people directory)', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let rows: LoadedRow[];
  let columns: ColumnDef[];

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    client = await signedInClient(sandbox);
    const [p] = await client.getProjects(['3001']);
    rows = await loadSubtree(client, String(p!.workItemRootFolderId), 0, { onRows: () => undefined });
    columns = tableColumns(await readAllFieldTypes(client), await client.getProjectProfile('3001'));
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  const col = (key: string) => columns.find((c) => c.key === key)!;
  const shown = (names: TableNames, id: string, key: string) => {
    const row = rows.find((r) => r.id === id)!;
    const s = shownRow(row, [col(key)], { userName: names.lookup() });
    return { text: s.cells[0], title: s.titles?.[key] };
  };

  it('the Assignees and Leader cells show IDs only until the directory read the names; then names, the IDs on hover', async () => {
    const dir = directory(() => readPeople(client, '1001'));
    let learned = 0;
    const names = new TableNames(dir, () => learned++);
    const ids = userIdsOf(rows, columns);
    const withAssignee = rows.find((r) => Array.isArray(r.fields['Assignments']) && (r.fields['Assignments'] as unknown[]).length > 0)!;
    assert.ok(withAssignee, 'the demo has an assigned item');
    const before = shown(names, withAssignee.id, 'Assignments');
    assert.match(before.text!, /^\d+(, \d+)*$/, 'before the read: IDs');
    assert.equal(before.title, undefined);

    assert.equal(names.note(ids), false, 'the directory knows nobody yet');
    assert.equal(names.missing.size, ids.size);
    assert.equal(shown(names, withAssignee.id, 'Assignments').text, before.text, 'still IDs while the read runs');
    await names.settled();
    assert.equal(learned, 1, 'the table is told once that names were learned (it repaints)');
    assert.equal(dir.reads.length, 1, 'one read for every unknown ID');
    assert.deepEqual(new Set(dir.reads[0]), ids);
    const groups = [...names.missing];
    assert.deepEqual(groups, ['81'], 'only the user group assigned in the demo is not among the users read');
    // A group's name comes with the assignment as read (partyName), where the answer has one.
    names.note(ids, carriedNames(rows, columns));
    assert.equal(names.name('81'), 'Web開発グループ');

    for (const r of rows) {
      for (const key of ['Assignments', 'LeaderId', 'UpdatedBy']) {
        const s = shown(names, r.id, key);
        for (const part of s.text!.split(', ')) assert.doesNotMatch(part, /^\d+$/, `${r.id} ${key} shows names, not IDs: ${s.text}`);
      }
    }
    const after = shown(names, withAssignee.id, 'Assignments');
    const partyIds = (withAssignee.fields['Assignments'] as { partyId: string }[]).map((a) => a.partyId);
    assert.equal(after.title, partyIds.map((id) => `${dir.known.get(id)!.name} (${id})`).join('\n'), 'the hover names each user with the ID');

    // Noted again (a re-read after a send): nothing is read twice.
    assert.equal(names.note(ids), false);
    await names.settled();
    assert.equal(dir.reads.length, 1);
  });

  it('"leader is" and "assigned to" by name match the names learned that way', async () => {
    const dir = directory(() => readPeople(client, '1001'));
    const names = new TableNames(dir, () => undefined);
    const ctx = () => ({ columns, today: todayOf(), resolveUser: names.resolver(), userName: names.lookup() });
    const led = rows.find((r) => typeof r.fields['LeaderId'] === 'string' && r.fields['LeaderId'] !== '0')!;
    const leaderId = String(led.fields['LeaderId']);
    const assigned = rows.find((r) => Array.isArray(r.fields['Assignments']) && (r.fields['Assignments'] as unknown[]).length > 0)!;
    const partyId = (assigned.fields['Assignments'] as { partyId: string }[])[0]!.partyId;

    const leaderName = (await readPeople(client, '1001')).find((u) => u.id === leaderId)!.name;
    names.note(userIdsOf(rows, columns));
    // Before the names are read, a name matches nobody.
    const early = compileFilterText(`leader:"${leaderName}"`, ctx());
    assert.ok(!early.ok || rows.every((r) => !early.test(r)), 'no row matches a name not known yet');
    await names.settled();

    const byLeader = compileFilterText(`leader:"${leaderName}"`, ctx());
    assert.ok(byLeader.ok, 'the name is known now');
    const leaderRows = rows.filter((r) => byLeader.test(r));
    assert.ok(leaderRows.length > 0 && leaderRows.every((r) => r.fields['LeaderId'] === leaderId));
    assert.deepEqual(leaderRows.map((r) => r.id), rows.filter((r) => r.fields['LeaderId'] === leaderId).map((r) => r.id));

    const assigneeName = names.name(partyId)!;
    assert.ok(assigneeName && assigneeName !== partyId);
    const byAssignee = compileFilterText(`assignee:"${assigneeName}"`, ctx());
    assert.ok(byAssignee.ok);
    const matched = rows.filter((r) => byAssignee.test(r)).map((r) => r.id);
    const expected = rows.filter((r) => Array.isArray(r.fields['Assignments']) && (r.fields['Assignments'] as { partyId: string }[]).some((a) => a.partyId === partyId)).map((r) => r.id);
    assert.ok(expected.length > 0);
    assert.deepEqual(matched, expected);
  });

  it('names the directory knows already are taken at once (no read); IDs noted during a read are read after it; a failed read leaves the IDs', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const people: KnownUser[] = [
      { id: '1', name: 'One' },
      { id: '2', name: 'Two' },
      { id: '3', name: 'Three' },
    ];
    const dir = directory(async (ids) => {
      await gate;
      return people.filter((u) => ids.includes(u.id));
    });
    dir.known.set('1', people[0]!);
    let learned = 0;
    const names = new TableNames(dir, () => learned++);
    assert.equal(names.note(['1']), true, 'known at once');
    assert.deepEqual(dir.reads, []);
    names.note(['2']);
    names.note(['3']);
    assert.deepEqual(dir.reads, [['2']], 'one read at a time');
    release();
    await names.settled();
    assert.deepEqual(dir.reads, [['2'], ['3']], 'the ID noted during the read is read after it');
    assert.equal(names.name('3'), 'Three');
    assert.ok(learned >= 1);

    const errors: unknown[] = [];
    const failing = new TableNames({ lookupAll: () => new Map(), resolve: () => Promise.reject(new Error('offline')) }, () => assert.fail('nothing learned'), (e) => errors.push(e));
    failing.note(['9']);
    await failing.settled();
    assert.equal(errors.length, 1);
    assert.equal(failing.name('9'), undefined);
    assert.equal(userTitle(['9'], failing.lookup()), undefined, 'no hover without a name: the cell shows the ID');
  });

  it('a shown row carries the hover text of its user cells through the message to the webview (a structured clone)', () => {
    // The shown row a message carries: the titles survive structured cloning (plain strings).
    const row = shownRow({ id: '5', level: 1, fields: { LeaderId: '7' } }, [{ key: 'LeaderId', label: 'Leader', type: 'user' }], { userName: (id) => (id === '7' ? '鈴木 一郎' : undefined) });
    assert.deepEqual(structuredClone(row), { id: '5', level: 1, container: false, cells: ['鈴木 一郎'], titles: { LeaderId: '鈴木 一郎 (7)' } });
  });
});
