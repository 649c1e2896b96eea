// Named filters of the work item table: the workspace file (.vscode/workitem-filters.json)
// and the user setting, read with per-entry problems and saved keeping comments.
import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { readFilterList, readFiltersFile, upsertFilterInFile, upsertFilterInList, mergeFilters } from '../../src/table/model/filterStore';
import { parseFilterText, formatFilterText } from '../../src/table/model/filter-text';
import { buildColumns } from '../../src/table/model/columns';

const overdue = { name: 'Overdue', filter: { conditions: [{ op: 'overdue' as const }] } };
const suzuki = { name: 'Suzuki', filter: { conditions: [{ op: 'leaderIs' as const, user: 'suzuki' }, { op: 'range' as const, field: 'PlannedFinishDate', max: '2026-03-01', maxExclusive: true }] } };

describe('table: named filters', () => {
  it('reads the workspace file (comments allowed) and tags each filter with its source', () => {
    const r = readFiltersFile(`// shared filters\n{ "filters": [ ${JSON.stringify(overdue)}, ${JSON.stringify(suzuki)}, ] }`);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.filters.map((f) => [f.name, f.source]), [['Overdue', 'workspace'], ['Suzuki', 'workspace']]);
  });
  it('leaves out a bad entry, naming where it is, and keeps the good ones', () => {
    const r = readFiltersFile(JSON.stringify({ filters: [overdue, { name: 'Bad', filter: { conditions: [{ op: 'bigger', field: 'X' }] } }, { name: '' }] }));
    assert.deepEqual(r.filters.map((f) => f.name), ['Overdue']);
    assert.ok(r.problems.some((p) => p.startsWith('.vscode/workitem-filters.json filters[1].filter.conditions[0]')), r.problems.join('\n'));
    assert.ok(r.problems.some((p) => p.startsWith('.vscode/workitem-filters.json filters[2]')), r.problems.join('\n'));
  });
  it('says where a file that is not JSON breaks, and that a list is not the expected object', () => {
    assert.match(readFiltersFile('{\n  "filters": [\n    {,\n  ]\n}').problems[0]!, /line 3/);
    assert.match(readFiltersFile('[]').problems[0]!, /expected an object/);
    assert.deepEqual(readFiltersFile(''), { filters: [], problems: [] });
  });
  it('reads the user setting and lists workspace filters first', () => {
    const user = readFilterList([suzuki, 42], 'user', 'workItemStudio.table.filters');
    assert.equal(user.filters[0]!.source, 'user');
    assert.match(user.problems[0]!, /^workItemStudio\.table\.filters\[1\]/);
    const ws = readFiltersFile(JSON.stringify({ filters: [overdue] }));
    assert.deepEqual(mergeFilters(ws.filters, user.filters).map((f) => `${f.source}:${f.name}`), ['workspace:Overdue', 'user:Suzuki']);
  });
  it('saves into the file keeping its comments, replacing a filter of the same name', () => {
    const start = '{\n  // team filters\n  "filters": [\n    ' + JSON.stringify(overdue) + '\n  ],\n  "owner": "pm"\n}\n';
    const added = upsertFilterInFile(start, suzuki);
    assert.match(added, /\/\/ team filters/);
    assert.deepEqual((parse(added) as { filters: { name: string }[] }).filters.map((f) => f.name), ['Overdue', 'Suzuki']);
    assert.equal((parse(added) as { owner: string }).owner, 'pm');
    const replaced = upsertFilterInFile(added, { name: 'Overdue', filter: { conditions: [{ op: 'notStarted' }] } });
    const list = (parse(replaced) as { filters: { name: string; filter: unknown }[] }).filters;
    assert.deepEqual(list.map((f) => f.name), ['Overdue', 'Suzuki']);
    assert.deepEqual(list[0]!.filter, { conditions: [{ op: 'notStarted' }] });
    assert.deepEqual(readFiltersFile(replaced).problems, []);
  });
  it('creates the file content from nothing, and saves into the setting list', () => {
    const text = upsertFilterInFile('', overdue);
    assert.deepEqual(readFiltersFile(text).filters.map((f) => f.name), ['Overdue']);
    assert.deepEqual(upsertFilterInList(undefined, overdue), [overdue]);
    assert.deepEqual(upsertFilterInList([overdue, suzuki], { ...suzuki, filter: { conditions: [] } }).map((f) => f.filter.conditions.length), [1, 0]);
  });
  it('a typed filter saved and shown again in the bar parses to the same filter', () => {
    const cols = buildColumns();
    const typed = parseFilterText('status="進行中" leader:suzuki finish<2026-03-01 overdue', cols);
    assert.ok(typed.ok);
    const saved = readFiltersFile(upsertFilterInFile('', { name: 'x', filter: typed.filter }));
    const again = parseFilterText(formatFilterText(saved.filters[0]!.filter), cols);
    assert.ok(again.ok);
    assert.deepEqual(again.filter, typed.filter);
  });

  it('a grouped filter (OR, NOT) is saved in the file and read back, next to old flat ones', () => {
    const typed = parseFilterText('(status:未着手 OR status:保留) -leader:suzuki', buildColumns());
    assert.ok(typed.ok);
    const text = upsertFilterInFile(upsertFilterInFile('', suzuki), { name: 'Grouped', filter: typed.filter });
    const back = readFiltersFile(text);
    assert.deepEqual(back.problems, []);
    assert.deepEqual(back.filters.map((f) => f.filter), [suzuki.filter, typed.filter]);
  });

  it('a filter nested thousands of levels deep is a problem (of the file, or of its entry in the setting), never a stack overflow', () => {
    let node = '{"op":"overdue"}';
    for (let i = 0; i < 20_000; i++) node = `{"op":"not","condition":${node}}`;
    const file = readFiltersFile(`{"filters":[${JSON.stringify(overdue)},{"name":"deep","filter":{"conditions":[${node}]}}]}`);
    assert.equal(file.filters.length, 0);
    assert.match(file.problems[0]!, /nested too deeply/);
    const list = readFilterList([overdue, { name: 'deep', filter: { conditions: [JSON.parse(node)] } }], 'user', 'setting');
    assert.deepEqual(list.filters.map((f) => f.name), ['Overdue']);
    assert.match(list.problems[0]!, /^setting\[1\]: nested too deeply/);
  });
});
