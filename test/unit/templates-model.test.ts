// The model of "Copy Folder as Template" (src/templates/model): the start date as typed,
// the shift of the planned dates, which fields a copy gets, the service's limits and the
// destination project's item types. The add it builds must pass the checks a written
// request document gets.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildTemplate, daysBetween, moveDate, readStartDate, TEMPLATE_MESSAGES, type TemplateOptions, type TemplateResult, type WorkItemTemplate } from '../../src/templates/model';
import type { AddWorkItemRequest } from '../../src/schema/additions';
import type { FieldType, ProjectProfile } from '../../src/schema/catalogue';
import type { SubItemNode } from '../../src/schema/reads';
import { validateRequestDocument } from '../../src/schema/document';

/** A read item (PascalCase fields as the service answers them) with its sub-items. */
function node(fields: Record<string, unknown>, ...children: SubItemNode[]): SubItemNode {
  return { fields: { ...fields, ...(children.length > 0 ? { SubItems: children } : {}) } };
}

const PROFILE: ProjectProfile = {
  id: '3002',
  itemTypes: [
    { itemTypeId: '40', name: 'ワークアイテムルート', systemName: 'WorkItemRoot', isFolder: true },
    { itemTypeId: '41', name: 'フォルダー', systemName: 'Folder', isFolder: true },
    { itemTypeId: '42', name: '作業', systemName: 'Task', isFolder: false },
    { itemTypeId: '43', name: 'マイルストーン', systemName: 'Milestone', isFolder: false },
    { itemTypeId: '46', name: '旧作業種類（利用不可）', systemName: 'LegacyTask', isFolder: false, isAvailable: false } as never,
  ],
};

const FIELD_TYPES = new Map<string, FieldType>([
  ['CustomText1', { name: '顧客名', systemName: 'CustomText1', dataType: 'String', isSystemField: false }],
  ['CustomDate1', { name: '検収日', systemName: 'CustomDate1', dataType: 'Date', isSystemField: false }],
  ['CustomCalc', { name: '計算', systemName: 'CustomCalc', dataType: 'Decimal', isSystemField: false, isReadOnly: true }],
  ['TracksProgress', { name: '進捗管理', systemName: 'TracksProgress', dataType: 'Boolean', isSystemField: true }],
]);

/** The read of folder 110 of the demo: a folder with two tasks (one with a child), a milestone without dates, a deleted task. */
function design(): SubItemNode {
  const common = { ProjectId: '3001', ProjectName: 'Webサイト刷新', FolderId: '100', ParentName: 'x', IsAclInherited: true, CreatedAt: '2025-06-01T09:00:00', UpdatedAt: '2025-11-20T18:30:00', UpdatedBy: '2001', FieldCalcTypes: {}, TracksProgress: true, IsDeleted: false };
  return node(
    { ...common, Id: '110', ParentId: '100', ItemTypeId: '41', Name: '設計', Code: 'WEB-D', Description: '', PlannedStartDate: '2026-01-05T00:00:00', PlannedFinishDate: '2026-02-27T00:00:00', StatusTypeId: '52', ProcessCategoryId: '0', LeaderId: '0', PlannedTime: 14400, ActualTime: 8100, ActualProgress: 55 },
    node({
      ...common, Id: '111', ParentId: '110', ItemTypeId: '42', Name: '要件定義', Code: 'WEB-D-01', PlannedStartDate: '2026-01-05T00:00:00', PlannedFinishDate: '2026-01-23T00:00:00',
      ActualProgress: 100, PlannedTime: 4800, PlannedCost: 400000, ActualTime: 5100, ActualCost: 425000, StatusTypeId: '53', ProcessCategoryId: '61', TimeEntryCategoryId: '71', LeaderId: '2101',
      Assignments: [{ partyId: '2101', partyType: 'User', partyName: '佐藤', plannedTime: 2400 }, { partyId: '81', partyType: 'UserGroup', plannedTime: 2400 }],
      CustomText1: '株式会社ABC商事', CustomDate1: '2026-01-30T00:00:00', CustomCalc: 3, IsTimeEntryLocked: false,
    }, node({ ...common, Id: '118', ParentId: '111', ItemTypeId: '42', Name: '聞き取り', PlannedStartDate: '2026-01-06T00:00:00', PlannedFinishDate: '2026-01-09T00:00:00' })),
    node({ ...common, Id: '112', ParentId: '110', ItemTypeId: '42', Name: '基本設計', PlannedStartDate: '2026-01-26T00:00:00', PlannedFinishDate: '2026-02-20T00:00:00', LeaderId: '2103' }),
    node({ ...common, Id: '113', ParentId: '110', ItemTypeId: '43', Name: '設計レビュー', PlannedStartDate: null, PlannedFinishDate: null, Code: '' }),
    node({ ...common, Id: '115', ParentId: '110', ItemTypeId: '46', Name: '削除された設計メモ', IsDeleted: true }),
  );
}

const DEST = { id: '300', name: 'モバイルアプリ', level: 1, projectId: '3002', itemTypeId: '41' };

function built(r: TemplateResult): WorkItemTemplate {
  assert.ok(r.ok, r.ok ? '' : `${r.problem.message} ${JSON.stringify(r.problem.args)}`);
  return r.template;
}

function refused(r: TemplateResult): { message: string; args: string[] } {
  assert.ok(!r.ok, 'refused');
  return r.problem;
}

const options = (o: Partial<TemplateOptions> = {}): TemplateOptions => ({ destination: DEST, profile: PROFILE, fieldTypes: FIELD_TYPES, ...o });

/** Every item of the add, depth first. */
function flat(item: AddWorkItemRequest): AddWorkItemRequest[] {
  return [item, ...(item.subItems ?? []).flatMap(flat)];
}

describe('templates model: the start date and the shift', () => {
  it('reads a start date as typed: empty is none, yyyy/m/d and full-width digits are dates, a wrong day says so', () => {
    assert.deepEqual(readStartDate(''), { ok: true });
    assert.deepEqual(readStartDate('  '), { ok: true });
    assert.deepEqual(readStartDate('2026-09-07'), { ok: true, date: '2026-09-07' });
    assert.deepEqual(readStartDate('２０２６/９/７'), { ok: true, date: '2026-09-07' });
    assert.deepEqual(readStartDate('2026-02-30'), { ok: false, problem: { message: '{0} is not a day of the calendar.', args: ['2026-02-30'] } });
    assert.deepEqual(readStartDate('next monday'), { ok: false, problem: { message: '"{0}" is not a date (yyyy-MM-dd).', args: ['next monday'] } });
  });

  it('moves dates by calendar days across months, leap days and years', () => {
    assert.equal(moveDate('2026-02-27', 2), '2026-03-01');
    assert.equal(moveDate('2024-02-28', 1), '2024-02-29');
    assert.equal(moveDate('2026-12-31', 1), '2027-01-01');
    assert.equal(moveDate('2026-01-05', -5), '2025-12-31');
    assert.equal(daysBetween('2024-02-28', '2024-03-01'), 2);
    assert.equal(daysBetween('2026-09-07', '2026-01-05'), -245);
  });

  it('shifts every planned date by the days that make the copy start on the date asked; durations kept; no dates stay none', () => {
    const t = built(buildTemplate(design(), options({ startDate: '2026-09-07' })));
    assert.equal(t.shiftDays, 245);
    assert.equal(t.start, '2026-09-07');
    const items = flat(t.item);
    assert.deepEqual(
      items.map((i) => [i.fields.Name, i.fields.PlannedStartDate ?? null, i.fields.PlannedFinishDate ?? null]),
      [
        ['設計', '2026-09-07', '2026-10-30'],
        ['要件定義', '2026-09-07', '2026-09-25'],
        ['聞き取り', '2026-09-08', '2026-09-11'],
        ['基本設計', '2026-09-28', '2026-10-23'],
        ['設計レビュー', null, null],
      ],
    );
    // A custom date is a calendar day, not moved.
    assert.equal(items[1]!.fields.CustomDate1, '2026-01-30');
    for (const i of items) assert.ok(!('PlannedStartDate' in i.fields) || typeof i.fields.PlannedStartDate === 'string');
    assert.ok(!('PlannedStartDate' in items[4]!.fields), 'an item without dates stays without');
  });

  it('without a start date the dates stay as read (as calendar days); a start date for a subtree without dates is refused', () => {
    const t = built(buildTemplate(design(), options()));
    assert.equal(t.shiftDays, 0);
    assert.equal(t.start, '2026-01-05');
    assert.equal(t.item.fields.PlannedFinishDate, '2026-02-27');
    const undated = node({ Id: '7', ItemTypeId: '41', Name: '空' }, node({ Id: '8', ItemTypeId: '42', Name: 'a' }));
    assert.deepEqual(refused(buildTemplate(undated, options({ startDate: '2026-09-07' }))), {
      message: '"{0}" (ID {1}) and the items below it have no planned dates: leave the start date empty.',
      args: ['空', '7'],
    });
    // Only finish dates: the earliest finish is where the copy starts.
    const finishOnly = node({ Id: '7', ItemTypeId: '42', Name: 'f', PlannedFinishDate: '2026-03-10' });
    assert.equal(built(buildTemplate(finishOnly, options({ startDate: '2026-03-17' }))).item.fields.PlannedFinishDate, '2026-03-17');
  });
});

describe('templates model: the fields a copy gets', () => {
  it('ItemTypeId, Name and the settable fields as read; never IDs, read-only or system fields, actuals, progress or status', () => {
    const t = built(buildTemplate(design(), options()));
    const [folder, task] = flat(t.item);
    assert.deepEqual(folder!.fields, { ItemTypeId: '41', Name: '設計', Code: 'WEB-D', PlannedStartDate: '2026-01-05', PlannedFinishDate: '2026-02-27', PlannedTime: 14400 });
    assert.deepEqual(task!.fields, {
      ItemTypeId: '42', Name: '要件定義', Code: 'WEB-D-01', PlannedStartDate: '2026-01-05', PlannedFinishDate: '2026-01-23',
      PlannedTime: 4800, PlannedCost: 400000, ProcessCategoryId: '61', TimeEntryCategoryId: '71', LeaderId: '2101',
      CustomText1: '株式会社ABC商事', CustomDate1: '2026-01-30',
    });
    // Assignments go to the add's own member, without the names the read adds.
    assert.deepEqual(task!.assignments, [{ partyType: 'User', partyId: '2101', plannedTime: 2400 }, { partyType: 'UserGroup', partyId: '81', plannedTime: 2400 }]);
    assert.equal(folder!.assignments, undefined);
  });

  it('copies the children nested in their order, leaves deleted items out, and places the copy last', () => {
    const t = built(buildTemplate(design(), options()));
    assert.deepEqual(t.item.subItems!.map((s) => s.fields.Name), ['要件定義', '基本設計', '設計レビュー']);
    assert.deepEqual(t.item.subItems![0]!.subItems!.map((s) => s.fields.Name), ['聞き取り']);
    assert.equal(t.item.orderLast, true);
    assert.equal(t.item.subItems![0]!.orderLast, undefined);
    assert.equal(t.count, 5);
    assert.equal(t.height, 3);
  });

  it('in another project, leaders and assignees who are not its members are left out and counted', () => {
    const parties = { users: new Set(['2101']), groups: new Set<string>() };
    const t = built(buildTemplate(design(), options({ parties })));
    const items = flat(t.item);
    assert.equal(items[1]!.fields.LeaderId, '2101');
    assert.ok(!('LeaderId' in items[3]!.fields), 'leader 2103 is not a member');
    assert.deepEqual(items[1]!.assignments, [{ partyType: 'User', partyId: '2101', plannedTime: 2400 }]);
    assert.deepEqual(t.leftOut, { leaders: 1, assignments: 1 });
  });

  it('the add passes the checks of a written request document', () => {
    const t = built(buildTemplate(design(), options({ startDate: '2026-09-07' })));
    const v = validateRequestDocument({ add: { parentId: DEST.id, ...t.item } });
    assert.deepEqual(v.issues.filter((i) => i.severity === 'error'), []);
    assert.ok(v.ok);
    assert.equal(v.document!.requests[0]!.kind, 'add');
  });
});

describe('templates model: the limits and the destination project', () => {
  /** A chain of `levels` folders, each with `wide` tasks. */
  function chain(levels: number, wide = 0, id = { n: 1000 }): SubItemNode {
    const tasks = Array.from({ length: wide }, () => node({ Id: String(id.n++), ItemTypeId: '42', Name: 't' }));
    const here = { Id: String(id.n++), ItemTypeId: '41', Name: `L${levels}` };
    return levels === 1 ? node(here, ...tasks) : node(here, chain(levels - 1, wide, id), ...tasks);
  }

  it('refuses more than 1000 items in one add, with the numbers', () => {
    const big = node({ Id: '1', ItemTypeId: '41', Name: '大' }, ...Array.from({ length: 1000 }, (_, i) => node({ Id: String(5000 + i), ItemTypeId: '42', Name: `t${i}` })));
    assert.deepEqual(refused(buildTemplate(big, options())).args, ['大', '1001', '1000']);
    const fits = node({ Id: '1', ItemTypeId: '41', Name: '大' }, ...Array.from({ length: 999 }, (_, i) => node({ Id: String(5000 + i), ItemTypeId: '42', Name: `t${i}` })));
    assert.equal(built(buildTemplate(fits, options())).count, 1000);
  });

  it('refuses a copy deeper than 16 levels below the destination, with the numbers', () => {
    const deep = chain(3);
    const at14 = { ...DEST, level: 14 };
    assert.deepEqual(refused(buildTemplate(deep, options({ destination: at14 }))), {
      message: 'The copy of "{0}" is {1} levels deep: below "{2}" (level {3}) the service allows {4} levels, so at most {5} fit.',
      args: ['L3', '3', 'モバイルアプリ', '14', '16', '2'],
    });
    assert.equal(built(buildTemplate(deep, options({ destination: { ...DEST, level: 13 } }))).height, 3);
    assert.deepEqual(refused(buildTemplate(deep, options({ destination: { ...DEST, level: 16 } }))).args, ['モバイルアプリ', '300', '16']);
  });

  it('refuses an item type the destination project cannot use, naming the type and the item', () => {
    const withLegacy = node({ Id: '1', ItemTypeId: '41', Name: 'F' }, node({ Id: '2', ItemTypeId: '46', Name: '旧形式の作業' }));
    assert.deepEqual(refused(buildTemplate(withLegacy, options())), {
      message: 'The item type "{0}" (ID {1}) of "{2}" (ID {3}) cannot be used in the destination project {4}.',
      args: ['旧作業種類（利用不可）', '46', '旧形式の作業', '2', '3002'],
    });
    const otherType = node({ Id: '1', ItemTypeId: '41', Name: 'F' }, node({ Id: '3', ItemTypeId: '44', Name: 'コードレビュー' }));
    const sourceProfile = { itemTypes: [{ itemTypeId: '44', name: 'レビュー (Professional)' }] };
    assert.deepEqual(refused(buildTemplate(otherType, options({ sourceProfile }))), {
      message: 'The item type "{0}" (ID {1}) of "{2}" (ID {3}) is not in the profile of the destination project {4}.',
      args: ['レビュー (Professional)', '44', 'コードレビュー', '3', '3002'],
    });
    assert.equal(refused(buildTemplate(node({ Id: '1', ItemTypeId: '40', Name: 'root' }), options())).message, 'The item type "{0}" (ID {1}) of "{2}" (ID {3}) cannot be used in the destination project {4}.');
    // Without the destination's profile the types are the service's to check.
    assert.equal(built(buildTemplate(otherType, options({ profile: undefined }))).count, 2);
  });

  it('refuses a folder below an item that is not a folder, and a copy below itself', () => {
    assert.deepEqual(refused(buildTemplate(design(), options({ destination: { ...DEST, id: '301', name: 'ログイン画面', itemTypeId: '42' } }))).args, ['設計', 'ログイン画面', '301']);
    assert.deepEqual(refused(buildTemplate(design(), options({ destination: { ...DEST, id: '118', name: '聞き取り', projectId: '3001' } }))).args, ['聞き取り', '118', '設計']);
    assert.equal(refused(buildTemplate(node({ Id: '9', ItemTypeId: '41', Name: 'gone', IsDeleted: true }), options())).message, '"{0}" (ID {1}) is deleted.');
  });

  it('every message of the model has a Japanese translation', () => {
    const ja = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'l10n', 'bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(TEMPLATE_MESSAGES.filter((m) => !ja[m]), []);
  });
});
