// The data of the table bench (bench/table.ts): 100,000 rows made by a seeded generator, so
// that every run reads the same rows (Japanese and Latin names, 2 % of them names that the
// export must quote or neutralize and that folding must match, dates, statuses, leaders and
// assignees among 200 users), the table's columns, and 10,000 edits of four kinds.
import { seededRandom } from '../src/sandbox/generate';
import { buildColumns, shiftDate, type CellEdit, type TableRow } from '../src/table/model';

export const USERS = Array.from({ length: 200 }, (_, i) => ({
  id: String(2101 + i),
  name: `${['鈴木', '田中', '佐藤', '高橋', '伊藤'][i % 5]} ${i}`,
  loginName: i === 0 ? 'suzuki' : `user${i}`,
}));
const WORDS = ['設計', '実装', 'テスト', 'レビュー', '資料作成', 'リリース', 'design', 'build', '調整', '打合せ'];
/** Names of 2 % of the rows: what the export must quote or neutralize, and what folding must match (case, full and half width). */
const SPECIAL = [
  '設計, 第2版',
  '"至急" レビュー',
  '行1\n行2',
  '=HYPERLINK("https://example.com","開く")',
  '+81 3 0000',
  '-調整',
  '@担当',
  'Design Review',
  'ＤＥＳＩＧＮ 資料',
  'ﾚﾋﾞｭｰ 半角',
  '\u3000全角空白',
];
export const COLUMNS = buildColumns([], {
  itemTypes: [
    { id: '41', name: 'フォルダー' },
    { id: '42', name: 'タスク' },
  ],
  statusTypes: [
    { id: '51', name: '未着手' },
    { id: '52', name: '進行中' },
    { id: '53', name: '完了' },
    { id: '54', name: '保留' },
  ],
});

export function makeRows(n: number): TableRow[] {
  const r = seededRandom(24);
  const rows: TableRow[] = [];
  for (let i = 0; i < n; i++) {
    const start = r() < 0.1 ? null : shiftDate('2026-01-01', Math.floor(r() * 120));
    const finish = start === null ? null : shiftDate(start, Math.floor(r() * 30));
    const id = String(100_000 + i);
    const word = WORDS[Math.floor(r() * WORDS.length)];
    rows.push({
      id,
      fields: {
        Id: id,
        Name: `${i % 50 === 7 ? SPECIAL[Math.floor(i / 50) % SPECIAL.length] : word} ${i}`,
        Code: `WBS-${i}`,
        ItemTypeId: '42',
        StatusTypeId: ['51', '52', '53', '54'][Math.floor(r() * 4)],
        LeaderId: r() < 0.05 ? '0' : USERS[Math.floor(r() * USERS.length)]!.id,
        Assignments: [{ partyId: USERS[Math.floor(r() * USERS.length)]!.id }],
        PlannedStartDate: start === null ? null : `${start}T00:00:00`,
        PlannedFinishDate: finish === null ? null : `${finish}T00:00:00`,
        PlannedTime: Math.floor(r() * 20) * 60,
        ActualProgress: [0, 0, 20, 50, 80, 100][Math.floor(r() * 6)],
        ParentName: `フォルダー ${Math.floor(i / 100)}`,
      },
    });
  }
  return rows;
}

export function makeEdits(rows: readonly TableRow[]): CellEdit[] {
  const edits: CellEdit[] = [];
  const withDates = rows.filter((x) => x.fields.PlannedStartDate && x.fields.PlannedFinishDate).slice(0, 2000);
  for (let i = 0; i < 2000; i++) {
    const row = withDates[i]!;
    const d = [7, 14, -3][i % 3]!;
    const s = (row.fields.PlannedStartDate as string).slice(0, 10);
    const f = (row.fields.PlannedFinishDate as string).slice(0, 10);
    edits.push({ id: row.id, field: 'PlannedStartDate', value: shiftDate(s, d), before: row.fields.PlannedStartDate });
    edits.push({ id: row.id, field: 'PlannedFinishDate', value: shiftDate(f, d), before: row.fields.PlannedFinishDate });
  }
  for (let i = 0; i < 3000; i++) edits.push({ id: rows[10_000 + i]!.id, field: 'PlannedTime', value: [60, 120, 240, 480, 960][i % 5], before: 0 });
  for (let i = 0; i < 2000; i++) edits.push({ id: rows[20_000 + i]!.id, field: 'StatusTypeId', value: ['51', '52', '53'][i % 3], before: '54' });
  for (let i = 0; i < 1000; i++) edits.push({ id: rows[30_000 + i]!.id, field: 'Name', value: `新しい名前 ${i}`, before: 'x' });
  return edits;
}
