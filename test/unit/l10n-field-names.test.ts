import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { fieldLabel, SYSTEM_FIELD_LABELS } from '../../src/schema/field-labels';
import { buildColumns, SYSTEM_COLUMNS } from '../../src/table/model/columns';
import { changeTableSection, previewTable, renderChangeTable, resultTable, type ChangeTableStrings } from '../../src/webview/changeTable';
import { PostedTable } from '../../src/webview/changeTableData';
import type { ChangeTableHead } from '../../src/webview/protocol';
import type { FieldType } from '../../src/schema/catalogue';
import { ENGLISH_RESULTS, renderResultHtml } from '../../src/changes/model/results';
import { totalsOf } from '../../src/bulk/engine';
import { ModelGrid, postedPage } from './change-page';

// One language at a time in the Before/After view, the result view and the descriptions
// of table edits: each field by its name in the UI's language (the glossary's term, the
// work item table's header; a custom field by the service catalogue's name), its system
// name only on hover; counts with a singular in English. The real strings
// (src/common/changeStrings.ts, src/table/review.ts) run with vscode.l10n.t answering
// from l10n/bundle.l10n.ja.json, or in English.

const root = path.resolve(__dirname, '..', '..');
const readJson = <T>(p: string): T => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8')) as T;
const ja = readJson<Record<string, string>>('l10n/bundle.l10n.ja.json');

interface Glossary {
  terms: { en: string; ja: string; forbidden: string[]; forbiddenPatterns?: string[]; fields?: string[] }[];
}
const glossary = readJson<Glossary>('l10n/glossary.json');

/** The glossary terms a text breaks (forbidden variants and patterns). */
function termProblems(text: string): string[] {
  return glossary.terms.flatMap((t) => [
    ...t.forbidden.filter((f) => text.includes(f)).map((f) => `"${f}" (use "${t.ja}")`),
    ...(t.forbiddenPatterns ?? []).filter((p) => new RegExp(p).test(text)).map((p) => `/${p}/ (use "${t.ja}")`),
  ]);
}

/** The stand-in for vscode: l10n.t from the bundle of `language`, env.language. */
const ui = { language: 'en' };
function t(message: string, ...args: unknown[]): string {
  const template = ui.language === 'ja' ? (ja[message] ?? message) : message;
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)])));
}

/** The custom fields a service describes (the demo sandbox's 優先度 and 見積工数). */
const CATALOGUE = new Map<string, Pick<FieldType, 'name'>>([
  ['CustomList1', { name: '優先度' }],
  ['CustomNumber1', { name: '見積工数' }],
]);

const UPDATE = { fields: { ActualProgress: 30, PlannedFinishDate: '2026-05-25', CustomList1: 'High' } };
const CURRENT = new Map([
  ['120', { Id: '120', Name: '設計', ActualProgress: 10, PlannedStartDate: '2026-05-01T00:00:00', PlannedFinishDate: '2026-05-20T00:00:00', CustomList1: 'Low', TracksProgress: true }],
  ['121', { Id: '121', Name: '実装', ActualProgress: 30, PlannedStartDate: '2026-05-01T00:00:00', PlannedFinishDate: '2026-05-22T00:00:00', CustomList1: 'Low', TracksProgress: true }],
]);

/** The text a person reads in a piece of HTML: without tags and attributes (titles are hovers). */
const visibleText = (html: string): string => html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]*>/g, ' ');

describe('fields by their names in the UI language (Before/After, result view, descriptions of table edits)', () => {
  const modules = ['../../src/common/changeStrings', '../../src/table/review'].map((m) => require.resolve(m));
  const load = (Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown })._load;
  let changeStrings: typeof import('../../src/common/changeStrings');
  let review: typeof import('../../src/table/review');

  before(function () {
    this.timeout(60_000);
    for (const m of modules) delete require.cache[m];
    (Module as unknown as { _load: typeof load })._load = function (request, parent, isMain) {
      return request === 'vscode' ? { l10n: { t }, env: ui } : load.call(this, request, parent, isMain);
    };
    changeStrings = require('../../src/common/changeStrings') as typeof changeStrings;
    review = require('../../src/table/review') as typeof review;
  });

  after(() => {
    (Module as unknown as { _load: typeof load })._load = load;
    for (const m of modules) delete require.cache[m];
    ui.language = 'en';
  });

  it('a field is named by its built-in name in the UI language, a custom field by the catalogue, else by its system name', () => {
    assert.equal(fieldLabel('ActualProgress', 'ja'), '進捗率');
    assert.equal(fieldLabel('PlannedFinishDate', 'ja'), '予定終了日');
    assert.equal(fieldLabel('Name', 'ja'), '名称');
    assert.equal(fieldLabel('ActualProgress', 'en'), 'Progress');
    assert.equal(fieldLabel('PlannedFinishDate', 'en-US'), 'Planned finish');
    assert.equal(fieldLabel('CustomList1', 'ja', CATALOGUE), '優先度');
    assert.equal(fieldLabel('CustomList1', 'en', CATALOGUE), '優先度', 'a custom field has the one name its service gives it');
    assert.equal(fieldLabel('CustomList9', 'ja', CATALOGUE), 'CustomList9');
    assert.equal(fieldLabel('ItemTypeId', 'ja', new Map([['ItemTypeId', { name: 'アイテムタイプ' }]])), '項目タイプ', 'the glossary term wins over the catalogue\'s name of a system field');
    assert.equal(fieldLabel('toString', 'ja'), 'toString', 'no name from the object prototype');
  });

  it('the names agree with the work item table\'s headers (English and Japanese) for every field both name', () => {
    const bad = SYSTEM_COLUMNS.flatMap((c) => {
      const l = SYSTEM_FIELD_LABELS[c.key];
      if (!l) return [`${c.key}: no name in src/schema/field-labels.ts`];
      const out: string[] = [];
      if (!c.label.startsWith(l.en)) out.push(`${c.key}: header "${c.label}", name "${l.en}"`);
      if (c.labelJa && !c.labelJa.startsWith(l.ja)) out.push(`${c.key}: header "${c.labelJa}", name "${l.ja}"`);
      return out;
    });
    assert.deepEqual(bad, []);
  });

  describe('in Japanese', () => {
    let s: ChangeTableStrings;
    before(() => {
      ui.language = 'ja';
      s = changeStrings.changeTableStrings(CATALOGUE);
    });
    after(() => {
      ui.language = 'en';
    });

    it('the Before/After table shows 進捗率, 予定終了日 and a custom field by its name; the system names only on hover', () => {
      const table = previewTable(['120', '121'], UPDATE, CURRENT, s);
      assert.deepEqual(table.labels, ['進捗率', '予定開始日', '予定終了日', '優先度']);
      const section = changeTableSection(table, s, 'posted');
      assert.match(section, /<th title="ActualProgress">進捗率<\/th>/);
      assert.match(section, /<th title="PlannedFinishDate">予定終了日<\/th>/);
      assert.match(section, /<th title="CustomList1">優先度<\/th>/);
      const text = visibleText(section);
      assert.doesNotMatch(text, /ActualProgress|PlannedFinishDate|PlannedStartDate|CustomList1/, 'no system name in the text shown');
      assert.deepEqual(termProblems(text), []);
      // The grid painted by the webview from the posted table: headers by name, system names in their titles.
      const page = postedPage('p');
      page.deliver(new PostedTable('p', table, s).head());
      const head = page.grid()!.header();
      assert.deepEqual(head.map((c) => c.text), ['ID', '名称', '進捗率', '予定開始日', '予定終了日', '優先度', '備考']);
      assert.deepEqual(head.slice(2, 6).map((c) => c.title), ['進捗率 (ActualProgress)', '予定開始日 (PlannedStartDate)', '予定終了日 (PlannedFinishDate)', '優先度 (CustomList1)']);
      assert.equal(head[1]!.title, 'Name');
      assert.deepEqual(head.flatMap((c) => termProblems(c.text)), []);
    });

    it('the counts that follow the last read (a table read batch by batch) name the fields the same way', () => {
      const table = previewTable(['120'], UPDATE, CURRENT, s);
      const posted = new PostedTable('p', table, s);
      const page = postedPage('p');
      page.deliver(posted.head());
      page.deliver(posted.summary({ counts: table.counts, lines: [], status: '' }));
      const rows = page.summary()!.rows;
      assert.deepEqual(rows.map((r) => r.label), ['進捗率', '予定開始日', '予定終了日', '優先度']);
      assert.deepEqual(rows.map((r) => r.field), ['ActualProgress', 'PlannedStartDate', 'PlannedFinishDate', 'CustomList1'], 'the system names on hover');
    });

    it('the result view\'s before → after table shows the same names, the system names on hover', () => {
      const rows = [
        { id: '120', name: '設計', field: 'ActualProgress', before: 10, after: 30, unexpected: false },
        { id: '120', name: '設計', field: 'PlannedFinishDate', before: '2026-05-20', after: '2026-05-25', unexpected: false },
        { id: '120', name: '設計', field: 'Name', before: '設計', after: '基本設計', unexpected: false },
      ];
      const table = resultTable(rows, ['Name', 'ActualProgress', 'PlannedFinishDate'], new Map(), s);
      const html = renderChangeTable(table, s);
      assert.match(html, /<th title="Name">名称<\/th>/);
      assert.match(html, /<th title="ActualProgress">進捗率<\/th>/);
      const text = visibleText(html);
      assert.doesNotMatch(text, /ActualProgress|PlannedFinishDate/);
      assert.deepEqual(termProblems(text), []);
      const json = (id: string) => new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html)![1]!;
      const head = new ModelGrid(JSON.parse(json('wis-head')) as ChangeTableHead).header();
      assert.deepEqual(head.map((c) => c.text), ['ID', '名称', '進捗率', '予定終了日', '備考'], 'the Name field is the item\'s own column, by its glossary term');
      assert.equal(head[2]!.title, '進捗率 (ActualProgress)');
    });

    it('the result view\'s lists of what the service answered name the members by their fields\' names, the member on hover', () => {
      assert.equal(changeStrings.answerMemberLabel('plannedCost'), '予定原価');
      assert.equal(changeStrings.answerMemberLabel('statusTypeId'), 'ステータス');
      assert.equal(changeStrings.answerMemberLabel('itemWarnings'), 'itemWarnings', 'not a field: as the service names it');
      const result = {
        jobId: 'j', outcome: 'succeeded' as const, startedAt: '', finishedAt: '', durationMs: 1,
        requests: [{ index: 0, ids: ['120'], path: '/workitem/workItems/120', state: 'succeeded' as const, attempts: 1, status: 200, response: { items: [{ id: '120', plannedCost: 5, statusTypeId: '3' }], affectedItems: [], addedTimeEntryIds: [], addedScheduleDependencyIds: [] } }],
      };
      const html = renderResultHtml({ result: { ...result, totals: totalsOf(result.requests) }, serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' }, { ...ENGLISH_RESULTS, fieldLabel: changeStrings.answerMemberLabel });
      assert.match(html, /<span class="k" title="plannedCost">予定原価<\/span>: 5/);
      assert.match(html, /<span class="k" title="statusTypeId">ステータス<\/span>: 3/);
    });

    it('a problem with a date names the field in Japanese (予定開始日が…)', () => {
      const text = s.problem({ code: 'shift-out-of-range', field: 'PlannedStartDate', params: { date: '2026-01-01', min: '2026-02-01', max: '2026-12-31' } });
      assert.equal(text, '予定開始日が 2026-01-01 になり、プロジェクトで許可された範囲 2026-02-01 ～ 2026-12-31 の外になります');
    });

    it('the description of a table edit names the fields by the table\'s headers, values as the table shows them', () => {
      const columns = buildColumns();
      assert.equal(review.describeTableEdits({ fields: { ActualProgress: 30 } }, 1, columns), 'テーブルの編集: 進捗率 = 30% (作業項目 1 件)');
      assert.equal(
        review.describeTableEdits({ fields: { PlannedFinishDate: '2026-05-25', PlannedTime: 450, LeaderId: '2101' } }, 3, columns, [{ id: '2101', name: '山田 太郎' }]),
        'テーブルの編集: 予定終了日 = "2026-05-25", 予定工数 (時間) = 7:30, リーダー = 山田 太郎 (作業項目 3 件)',
      );
      assert.equal(review.describeTableEdits({ fields: { Description: null } }, 1, columns), 'テーブルの編集: 説明 = （空） (作業項目 1 件)');
      assert.equal(review.describeTableEdits({ moveScheduleDays: 1 }, 2, columns), 'テーブルの編集: スケジュールを 1 日ずらす (作業項目 2 件)');
      const custom = buildColumns([{ id: '104', name: '優先度', systemName: 'CustomList1', dataType: 'List', choices: [{ id: '1', name: '高' }] } as FieldType]);
      assert.equal(review.describeTableEdits({ fields: { CustomList1: '1' } }, 1, custom), 'テーブルの編集: 優先度 = 高 (作業項目 1 件)');
      assert.doesNotMatch(review.describeTableEdits({ fields: { ActualProgress: 30, PlannedFinishDate: '2026-05-25' } }, 2, columns), /ActualProgress|PlannedFinishDate/);
    });

    it('counts take one form in Japanese', () => {
      assert.equal(s.shown(1, 1), '1 件中 1 件');
      assert.equal(s.shown(2, 5), '5 件中 2 件');
      assert.equal(s.note('roll-up', 1).startsWith('1 件: '), true);
    });
  });

  describe('in English', () => {
    let s: ChangeTableStrings;
    before(() => {
      ui.language = 'en';
      s = changeStrings.changeTableStrings(CATALOGUE);
    });

    it('the Before/After table names the fields in English (a custom field by its one name), the system names on hover', () => {
      const section = changeTableSection(previewTable(['120'], UPDATE, CURRENT, s), s, 'posted');
      assert.match(section, /<th title="ActualProgress">Progress<\/th>/);
      assert.match(section, /<th title="PlannedFinishDate">Planned finish<\/th>/);
      assert.match(section, /<th title="CustomList1">優先度<\/th>/);
    });

    it('the description of a table edit: "Progress = 30%", "1 work item", "by 1 day"', () => {
      const columns = buildColumns();
      assert.equal(review.describeTableEdits({ fields: { ActualProgress: 30 } }, 1, columns), 'Table edits: Progress = 30% (1 work item)');
      assert.equal(review.describeTableEdits({ fields: { PlannedFinishDate: '2026-05-25' } }, 2, columns), 'Table edits: Planned finish = "2026-05-25" (2 work items)');
      assert.equal(review.describeTableEdits({ moveScheduleDays: 1 }, 1, columns), 'Table edits: shift the schedule by 1 day (1 work item)');
      assert.equal(review.describeTableEdits({ moveScheduleDays: -1 }, 1, columns), 'Table edits: shift the schedule by -1 day (1 work item)');
      assert.equal(review.describeTableEdits({ moveScheduleDays: 3 }, 1, columns), 'Table edits: shift the schedule by 3 days (1 work item)');
      assert.equal(review.describeTableEdits({ fields: { Unknown1: 5 } }, 1, columns), 'Table edits: Unknown1 = 5 (1 work item)', 'a field the table has no column for keeps its system name');
    });

    it('counts have a singular: "1 of 1 item", "1 item: …", never "1 items"', () => {
      assert.equal(s.shown(1, 1), '1 of 1 item');
      assert.equal(s.shown(2, 3), '2 of 3 items');
      assert.match(s.note('roll-up', 1), /^1 item: /);
      assert.match(s.problemCount('missing', 2), /^2 items: /);
    });
  });
});
