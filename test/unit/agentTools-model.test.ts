// The model of the language model tools (src/agentTools/model): inputs checked with every
// problem named, where a find reads (a project's root folder, a folder's level and path),
// a draft checked as the editor checks a request document (problems placed by line and
// member), and the answers (names beside IDs, the count, the cut).
import * as assert from 'node:assert/strict';
import {
  MAX_READ_IDS,
  checkDraftInput,
  checkDraftText,
  checkFindInput,
  checkReadInput,
  draftBaseName,
  draftProblemLine,
  findAnswer,
  folderSource,
  projectSource,
  readAnswer,
  type SourceReads,
} from '../../src/agentTools/model';
import { tableColumns } from '../../src/table/model';
import type { WorkItemRecord } from '../../src/schema/reads';

describe('agent tools: inputs', () => {
  it('a find takes a project or a folder, a filter and a cap (50 when not given)', () => {
    assert.deepEqual(checkFindInput({ projectId: '3001', filter: 'status:完了' }), { ok: true, value: { projectId: '3001', filter: 'status:完了', maxResults: 50 } });
    assert.deepEqual(checkFindInput({ folderId: 121, filter: '', maxResults: 5 }), { ok: true, value: { folderId: '121', filter: '', maxResults: 5 } });
  });

  it('a find refuses both or neither of projectId and folderId, a bad cap, a filter that is not text and unknown members, naming each', () => {
    const r = checkFindInput({ projectId: '1', folderId: '2', filter: 3, maxResults: 500, sort: 'x' });
    assert.equal(r.ok, false);
    const text = r.ok ? '' : r.problems.join('\n');
    assert.match(text, /not both/);
    assert.match(text, /filter: expected the filter text/);
    assert.match(text, /maxResults: expected a whole number from 1 to 200, got 500/);
    assert.match(text, /unknown member "sort"/);
    const none = checkFindInput({ filter: '' });
    assert.ok(!none.ok && /give "projectId"/.test(none.problems.join()));
    assert.ok(!checkFindInput('status:完了').ok);
  });

  it('a find refuses an ID a read would refuse (a path separator)', () => {
    const r = checkFindInput({ folderId: '12/1', filter: '' });
    assert.ok(!r.ok && /^folderId: .*"\/"/.test(r.problems[0]!), JSON.stringify(r));
  });

  it('a read takes a list of IDs or one string of them, duplicates once, and field names', () => {
    assert.deepEqual(checkReadInput({ ids: ['121', 122, '121'] }), { ok: true, value: { ids: ['121', '122'] } });
    assert.deepEqual(checkReadInput({ ids: '121, 122\n123', fields: ['Name', 'Name', 'StatusTypeId'] }), { ok: true, value: { ids: ['121', '122', '123'], fields: ['Name', 'StatusTypeId'] } });
  });

  it(`a read refuses no IDs, more than ${MAX_READ_IDS}, an invalid ID at its place, and bad field names`, () => {
    const empty = checkReadInput({ ids: [] });
    assert.ok(!empty.ok && /at least one/.test(empty.problems[0]!));
    const many = checkReadInput({ ids: Array.from({ length: MAX_READ_IDS + 1 }, (_, i) => String(i)) });
    assert.ok(!many.ok && /at most 200 IDs per call \(got 201\)/.test(many.problems[0]!));
    const bad = checkReadInput({ ids: ['121', 'a,b', null], fields: ['Name', 'bad name'] });
    const text = bad.ok ? '' : bad.problems.join('\n');
    assert.match(text, /ids\[1\]: .*"a,b".*comma/);
    assert.match(text, /ids\[2\]: expected an ID .* got null/);
    assert.match(text, /fields: expected a list of field system names/);
  });

  it('a draft takes the document as an object (written out) or as its JSON text, and a file name made safe', () => {
    const r = checkDraftInput({ document: { workItemIds: ['1'], update: { moveScheduleDays: 1 } }, name: 'Sprint 12: shift.workitems.json' });
    assert.ok(r.ok);
    assert.deepEqual(JSON.parse(r.value.text), { workItemIds: ['1'], update: { moveScheduleDays: 1 } });
    assert.equal(r.value.baseName, 'Sprint-12-shift');
    assert.equal(draftBaseName(undefined), 'agent-draft');
    assert.equal(draftBaseName('../..'), 'agent-draft');
    const bad = checkDraftInput({ document: [1] });
    assert.ok(!bad.ok && /document: expected the request document as a JSON object .* got a list/.test(bad.problems[0]!));
  });
});

describe('agent tools: a draft checked as the editor checks a request document', () => {
  it('a valid document passes, with its value', () => {
    const r = checkDraftText('{ "workItemIds": ["121"], "update": { "moveScheduleDays": 7 } }');
    assert.ok(r.ok);
    assert.deepEqual(JSON.parse(JSON.stringify(r.value)), { workItemIds: ['121'], update: { moveScheduleDays: 7 } });
  });

  it('a rule broken is placed by line, column and member', () => {
    const text = '{\n  "workItemIds": ["121"],\n  "update": { "moveScheduleDays": "seven" }\n}\n';
    const r = checkDraftText(text);
    assert.ok(!r.ok);
    const p = r.problems.find((x) => x.path === 'update.moveScheduleDays');
    assert.ok(p, JSON.stringify(r.problems));
    assert.equal(p.line, 3);
    assert.match(draftProblemLine(p), /^line 3, column \d+ \(update\.moveScheduleDays\): /);
  });

  it('an unknown member of a change set names the request it is in', () => {
    const r = checkDraftText(JSON.stringify({ requests: [{ workItemIds: ['1'], update: { moveScheduleDays: 1 } }, { workItemIds: ['2'], updat: {} }] }, null, 2));
    assert.ok(!r.ok && r.problems.some((p) => p.path.startsWith('requests[1]')), JSON.stringify(r));
  });

  it('a syntax error is refused before any rule, with its place', () => {
    const r = checkDraftText('{\n  "workItemIds": ["1"],,\n}');
    assert.ok(!r.ok && r.problems[0]!.line === 2 && /JSON syntax error/.test(r.problems[0]!.message), JSON.stringify(r));
    const empty = checkDraftText('');
    assert.ok(!empty.ok);
  });
});

describe('agent tools: where a find reads', () => {
  const items: Record<string, Record<string, unknown>> = {
    '10': { Name: 'Web', ParentId: null, ProjectId: '3001' },
    '120': { Name: '実装', ParentId: '10', ProjectId: '3001' },
    '121': { Name: 'トップページ', ParentId: '120', ProjectId: '3001' },
  };
  const reads: SourceReads = {
    getProjects: async (ids) => (ids[0] === '3001' ? [{ id: '3001', name: 'Web', workItemRootFolderId: '10' } as never] : []),
    getWorkItems: async (ids) => ids.flatMap((id): WorkItemRecord[] => (items[id] ? [{ fields: { Id: id, ...items[id] } } as WorkItemRecord] : [])),
  };

  it("a project reads its root folder's tree (level 0, no path)", async () => {
    assert.deepEqual(await projectSource(reads, '3001'), { rootId: '10', level: 0, basePath: '', projectId: '3001', name: 'Web' });
    await assert.rejects(projectSource(reads, '9'), /project 9 was not found/);
  });

  it('a folder on level 2 has its level and the path the table shows', async () => {
    assert.deepEqual(await folderSource(reads, '121'), { rootId: '121', level: 2, basePath: '実装 / トップページ', projectId: '3001', name: 'トップページ' });
    assert.deepEqual(await folderSource(reads, '10'), { rootId: '10', level: 0, basePath: '', projectId: '3001', name: 'Web' });
    await assert.rejects(folderSource(reads, '404'), /work item 404 was not found/);
  });
});

describe('agent tools: answers', () => {
  const columns = tableColumns(undefined, { itemTypes: [{ itemTypeId: '42', name: 'タスク' }], statusTypes: [{ statusTypeId: '3', name: '完了' }] } as never);
  const row = (id: string, fields: Record<string, unknown>) => ({ id, fields });
  const rows = [
    row('122', { Name: 'ヘッダー', Code: 'WEB-1', ItemTypeId: '42', StatusTypeId: '3', LeaderId: '2104', PlannedStartDate: '2026-03-02T00:00:00', PlannedFinishDate: '2026-03-13', ParentName: 'トップページ' }),
    row('123', { Name: 'フッター' }),
    row('127', { Name: 'ナビ' }),
  ];

  it('an item by name and ID: type and status by name, the leader by name where known, dates yyyy-MM-dd', () => {
    const a = findAnswer({ searched: { projectId: '3001' }, filter: '', read: 3, matched: rows, maxResults: 50, columns, format: { userName: (id) => (id === '2104' ? '鈴木' : undefined) } });
    assert.deepEqual(a.items[0], {
      id: '122', name: 'ヘッダー', code: 'WEB-1', type: 'タスク', typeId: '42', status: '完了', statusId: '3',
      plannedStart: '2026-03-02', plannedFinish: '2026-03-13', leader: '鈴木', leaderId: '2104', parent: 'トップページ',
    });
    assert.deepEqual(a.items[1], { id: '123', name: 'フッター' });
    assert.equal(a.truncated, false);
  });

  it('the list is cut at maxResults, the count is of every match, and the note says so', () => {
    const a = findAnswer({ searched: { folderId: '121' }, filter: 'x', read: 10, matched: rows, maxResults: 2, columns });
    assert.equal(a.listed, 2);
    assert.equal(a.matched, 3);
    assert.equal(a.truncated, true);
    assert.match(a.note ?? '', /first 2 of 3/);
    assert.match(findAnswer({ searched: {}, filter: 'x', read: 3, matched: [], maxResults: 2, columns }).note ?? '', /No item matched/);
  });

  it('a read answers in the order asked, without sub-items, and names the IDs not read', () => {
    const items = new Map<string, WorkItemRecord>([['2', { fields: { Id: '2', Name: 'b', SubItems: [] } } as WorkItemRecord], ['1', { fields: { Id: '1', Name: 'a' } } as WorkItemRecord]]);
    const a = readAnswer({ ids: ['1', '2', '3'], items, missing: ['3'] });
    assert.deepEqual(a.items, [{ id: '1', fields: { Id: '1', Name: 'a' } }, { id: '2', fields: { Id: '2', Name: 'b' } }]);
    assert.deepEqual(a.missing, ['3']);
    assert.match(a.note ?? '', /1 ID was not read/);
  });
});
