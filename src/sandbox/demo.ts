// The built-in demo data set: deterministic (no randomness, no clock), rich enough
// to show every feature. Documented in docs/sandbox.md.
// No vscode import.
import type { DatasetInput } from './model';

type Org = NonNullable<DatasetInput['organizations']>[number];
type User = NonNullable<DatasetInput['users']>[number];
type Item = NonNullable<DatasetInput['workItems']>[number];
type Category = NonNullable<DatasetInput['processCategories']>[number];

/** Organization IDs of the demo (4 levels: company, divisions, departments, teams). */
export const DEMO_ORGANIZATIONS = {
  root: '1001',
  development: '1002',
  sales: '1003',
  administration: '1004',
} as const;

/** Root folders of the demo projects (level 0; a project ID is not a work item ID). */
export const DEMO_ROOT_FOLDERS = { web: '10', mobile: '30', legacy: '50' } as const;

/** Sign-in names of the demo; every demo user's password is `password`. */
export const DEMO_SIGN_IN = {
  admin: 'admin',
  viewer: 'viewer',
  nocost: 'nocost',
  /** A deleted user: cannot sign in. */
  retired: 'retired',
} as const;

export const DEMO_PASSWORD = 'password';

/**
 * API keys of the demo users (sent as `X-TT-ApiKey: <key>`); generated data sets
 * give admin, viewer and nocost the same keys. The deleted user's key is refused.
 */
export const DEMO_API_KEYS = {
  admin: 'demo-api-key-admin',
  viewer: 'demo-api-key-viewer',
  nocost: 'demo-api-key-nocost',
  retired: 'demo-api-key-retired',
} as const;

const ORGS: Org[] = [
  { id: '1001', name: '株式会社サンプル', code: 'C000', parentId: null },
  { id: '1002', name: '開発本部', code: 'D100', parentId: '1001' },
  { id: '1003', name: '営業本部', code: 'D200', parentId: '1001' },
  { id: '1004', name: '管理本部', code: 'D300', parentId: '1001' },
  { id: '1005', name: 'アプリケーション開発部', code: 'D110', parentId: '1002' },
  { id: '1006', name: '基盤技術部', code: 'D120', parentId: '1002' },
  { id: '1007', name: '東日本営業部', code: 'D210', parentId: '1003' },
  { id: '1008', name: '西日本営業部', code: 'D220', parentId: '1003' },
  { id: '1009', name: '人事部', code: 'D310', parentId: '1004' },
  { id: '1010', name: '経理部', code: 'D320', parentId: '1004' },
  { id: '1011', name: 'Webチーム', code: 'T111', parentId: '1005' },
  { id: '1012', name: 'モバイルチーム', code: 'T112', parentId: '1005' },
  { id: '1013', name: 'クラウドチーム', code: 'T121', parentId: '1006' },
  { id: '1014', name: '東京営業課', code: 'T211', parentId: '1007' },
  // No user belongs to these two: they exist only in the organization tree (subOrganizations).
  { id: '1015', name: '新規事業準備室', code: 'D400', parentId: '1001' },
  { id: '1016', name: '旧システム部', code: 'D130', parentId: '1002', isDeleted: true },
];

/** [family, given, familyEn, givenEn, organization] */
const PEOPLE: [string, string, string, string, string][] = [
  ['佐藤', '花子', 'Sato', 'Hanako', '1011'],
  ['鈴木', '一郎', 'Suzuki', 'Ichiro', '1011'],
  ['高橋', '健太', 'Takahashi', 'Kenta', '1011'],
  ['田中', '美咲', 'Tanaka', 'Misaki', '1011'],
  ['伊藤', '翔太', 'Ito', 'Shota', '1012'],
  ['渡辺', '陽菜', 'Watanabe', 'Hina', '1012'],
  ['山本', '大輔', 'Yamamoto', 'Daisuke', '1012'],
  ['中村', '結衣', 'Nakamura', 'Yui', '1005'],
  ['小林', '拓也', 'Kobayashi', 'Takuya', '1013'],
  ['加藤', '彩', 'Kato', 'Aya', '1013'],
  ['吉田', '直樹', 'Yoshida', 'Naoki', '1006'],
  ['山田', '優子', 'Yamada', 'Yuko', '1002'],
  ['佐々木', '亮', 'Sasaki', 'Ryo', '1014'],
  ['山口', '真由美', 'Yamaguchi', 'Mayumi', '1014'],
  ['松本', '誠', 'Matsumoto', 'Makoto', '1007'],
  ['井上', '七海', 'Inoue', 'Nanami', '1008'],
  ['木村', '隆', 'Kimura', 'Takashi', '1008'],
  ['林', '恵', 'Hayashi', 'Megumi', '1003'],
  ['斎藤', '浩二', 'Saito', 'Koji', '1009'],
  ['清水', '里奈', 'Shimizu', 'Rina', '1009'],
  ['山崎', '智子', 'Yamazaki', 'Tomoko', '1010'],
  ['森', '悠斗', 'Mori', 'Yuto', '1010'],
  ['池田', '明美', 'Ikeda', 'Akemi', '1004'],
  ['橋本', '大樹', 'Hashimoto', 'Daiki', '1011'],
  ['阿部', '早紀', 'Abe', 'Saki', '1012'],
  ['石川', '蓮', 'Ishikawa', 'Ren', '1013'],
];

/** English-named staff (englishName equals name). [name, login, organization] */
const ENGLISH_STAFF: [string, string, string][] = [
  ['John Smith', 'john.smith', '1011'],
  ['Emily Brown', 'emily.brown', '1013'],
  ['Michael Chen', 'michael.chen', '1014'],
  ['Sarah Wilson', 'sarah.wilson', '1009'],
];

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function demoUsers(): User[] {
  const users: User[] = [
    {
      id: '2001',
      name: '管理者 太郎',
      englishName: 'Taro Kanrisha',
      loginName: 'admin',
      apiKeys: [DEMO_API_KEYS.admin],
      ldapLoginName: 'CORP\\admin',
      email: 'admin@example.com',
      code: 'E0001',
      description: 'Edit and cost permission on every demo project.',
      organizationId: '1001',
      systemRoleId: '1',
      systemRoleName: 'Administrator',
      unitCost: 8000,
      permission: 3,
      aclId: '11',
    },
    {
      id: '2002',
      name: '閲覧 次郎',
      englishName: 'Jiro Etsuran',
      loginName: 'viewer',
      apiKeys: [DEMO_API_KEYS.viewer],
      ldapLoginName: 'CORP\\viewer',
      email: 'viewer@example.com',
      code: 'E0002',
      description: 'View permission only on every demo project.',
      organizationId: '1005',
      canEdit: false,
      permission: 1,
    },
    {
      id: '2003',
      name: '原価 なし子',
      englishName: 'Nashiko Genka',
      loginName: 'nocost',
      apiKeys: [DEMO_API_KEYS.nocost],
      ldapLoginName: 'CORP\\nocost',
      email: 'nocost@example.com',
      code: 'E0003',
      description: 'Edit permission without cost permission on every demo project.',
      organizationId: '1011',
      permission: 2,
    },
    {
      id: '2004',
      name: '退職 三郎',
      englishName: 'Saburo Taishoku',
      loginName: 'retired',
      apiKeys: [DEMO_API_KEYS.retired],
      ldapLoginName: 'CORP\\retired',
      email: 'retired@example.com',
      code: 'E0004',
      description: 'A deleted user: listed with isDeleted true, cannot sign in.',
      organizationId: '1011',
      isDeleted: true,
    },
  ];
  PEOPLE.forEach(([family, given, familyEn, givenEn, org], i) => {
    const login = `${givenEn}.${familyEn}`.toLowerCase();
    users.push({
      id: String(2000 + i + 101),
      name: `${family} ${given}`,
      englishName: `${givenEn} ${familyEn}`,
      loginName: login,
      ldapLoginName: `CORP\\${givenEn[0]!.toLowerCase()}${familyEn.toLowerCase()}`,
      email: `${login}@example.com`,
      code: `E${pad(i + 101, 4)}`,
      description: i % 5 === 0 ? 'チームリーダー' : '',
      organizationId: org,
      avatarUrl: `https://example.com/avatars/${login}.png`,
      unitCost: 4000 + (i % 6) * 500,
      timeEntryLockedDate: i % 4 === 0 ? '2025-12-31T00:00:00' : '2025-09-30T00:00:00',
      createdAt: `2025-0${(i % 9) + 1}-15T00:00:00Z`,
      updatedAt: `2025-10-0${(i % 9) + 1}T00:00:00Z`,
      createdBy: '2001',
      updatedBy: '2001',
      permission: 2,
    });
  });
  ENGLISH_STAFF.forEach(([name, login, org], i) => {
    users.push({
      id: String(2000 + i + 201),
      name,
      englishName: name,
      loginName: login,
      ldapLoginName: `CORP\\${login.replace('.', '')}`,
      email: `${login}@example.com`,
      code: `E${pad(i + 201, 4)}`,
      organizationId: org,
      language: 'en-US',
      timeZone: i % 2 === 0 ? 'America/New_York' : 'Europe/London',
      unitCost: 6000,
      permission: 2,
    });
  });
  return users;
}

/** The users who are members of every demo project (besides admin, viewer, nocost). */
const MEMBERS = ['2101', '2102', '2103', '2104', '2105', '2106', '2107', '2108', '2124', '2201'];

function demoProjects(): NonNullable<DatasetInput['projects']> {
  const members = [
    { userId: '2001', permission: 'edit' as const, costPermission: true },
    { userId: '2002', permission: 'view' as const, costPermission: false },
    { userId: '2003', permission: 'edit' as const, costPermission: false },
    ...MEMBERS.map((userId) => ({ userId, permission: 'edit' as const, costPermission: true })),
  ];
  return [
    {
      id: '3001',
      name: 'Webサイト刷新',
      code: 'PRJ-WEB',
      description: 'コーポレートサイトの全面刷新',
      managerId: '2001',
      organizationId: '1011',
      plannedStartDate: '2026-01-05',
      plannedFinishDate: '2026-06-30',
      workItemRootFolderId: DEMO_ROOT_FOLDERS.web,
      members,
      userGroupIds: ['81', '82'],
      allowedDateRange: { min: '2025-04-01', max: '2027-03-31' },
      createdAt: '2025-06-01T00:00:00Z',
      updatedAt: '2025-11-20T09:30:00Z',
    },
    {
      id: '3002',
      name: 'モバイルアプリ開発',
      code: 'PRJ-MOB',
      description: 'iOS / Android アプリの新規開発',
      managerId: '2105',
      organizationId: '1012',
      plannedStartDate: '2026-02-02',
      plannedFinishDate: '2026-11-30',
      workItemRootFolderId: DEMO_ROOT_FOLDERS.mobile,
      members: [...members, { userId: '2109', permission: 'edit', costPermission: true }],
      userGroupIds: ['83'],
      allowedDateRange: { min: '2026-01-01', max: '2026-12-31' },
      createdAt: '2025-12-01T00:00:00Z',
      updatedAt: '2025-12-15T09:30:00Z',
    },
    {
      id: '3003',
      name: '旧基幹システム保守',
      code: 'PRJ-OLD',
      description: '終了したプロジェクト',
      managerId: '2001',
      organizationId: '1006',
      plannedStartDate: '2025-04-01',
      plannedFinishDate: '2025-09-30',
      isFinished: true,
      workItemRootFolderId: DEMO_ROOT_FOLDERS.legacy,
      members,
      allowedDateRange: { min: '2025-04-01', max: '2025-09-30' },
      createdAt: '2025-03-01T00:00:00Z',
      updatedAt: '2025-10-01T09:00:00Z',
    },
  ];
}

function item(p: Partial<Item> & Pick<Item, 'id' | 'projectId' | 'parentId' | 'order' | 'itemTypeId' | 'name'>): Item {
  return {
    createdAt: '2025-06-01T09:00:00',
    updatedAt: '2025-11-20T18:30:00',
    updatedBy: '2001',
    userUpdatedAt: '2025-11-20T18:30:00',
    userUpdatedBy: '2001',
    ...p,
  };
}

function demoWorkItems(): Item[] {
  const web = '3001';
  const mob = '3002';
  const items: Item[] = [
    // ---- Root folders (level 0), named like their projects.
    item({ id: DEMO_ROOT_FOLDERS.web, projectId: web, parentId: null, order: 0, itemTypeId: '40', name: 'Webサイト刷新', code: 'PRJ-WEB', tracksProgress: false }),
    item({ id: DEMO_ROOT_FOLDERS.mobile, projectId: mob, parentId: null, order: 0, itemTypeId: '40', name: 'モバイルアプリ開発', code: 'PRJ-MOB', tracksProgress: false }),
    // ---- Project Web: folders, tasks with children, actuals, links, locked, deleted.
    item({ id: '100', projectId: web, parentId: DEMO_ROOT_FOLDERS.web, order: 1, itemTypeId: '41', name: 'Webサイト刷新', code: 'WEB', plannedStartDate: '2026-01-05', plannedFinishDate: '2026-06-30', statusTypeId: '52', leaderId: '2001' }),
    item({ id: '110', projectId: web, parentId: '100', order: 1, itemTypeId: '41', name: '設計', code: 'WEB-D', plannedStartDate: '2026-01-05', plannedFinishDate: '2026-02-27' }),
    item({
      id: '111', projectId: web, parentId: '110', order: 1, itemTypeId: '42', name: '要件定義', code: 'WEB-D-01',
      plannedStartDate: '2026-01-05', plannedFinishDate: '2026-01-23', actualProgress: 100, plannedTime: 4800, managedPlannedTime: 4800, plannedCost: 400000,
      actualTime: 5100, actualCost: 425000, statusTypeId: '53', processCategoryId: '61', timeEntryCategoryId: '71',
      assignments: [{ partyId: '2101', partyType: 'User', plannedTime: 2400 }, { partyId: '2102', partyType: 'User', plannedTime: 2400 }],
      leaderId: '2101', fieldCalcTypes: { PlannedTime: 'Assignments' },
      customFields: { CustomText1: '株式会社ABC商事', CustomNumber1: 80, CustomDate1: '2026-01-30', CustomList1: '高' },
    }),
    item({
      id: '112', projectId: web, parentId: '110', order: 2, itemTypeId: '42', name: '基本設計', code: 'WEB-D-02',
      plannedStartDate: '2026-01-26', plannedFinishDate: '2026-02-20', actualProgress: 40, plannedTime: 9600, managedPlannedTime: 9600, plannedCost: 800000,
      actualTime: 3000, actualCost: 250000, statusTypeId: '52', processCategoryId: '61', timeEntryCategoryId: '71',
      assignments: [{ partyId: '2103', partyType: 'User', plannedTime: 4800 }, { partyId: '81', partyType: 'UserGroup', plannedTime: 4800 }],
      leaderId: '2103', customFields: { CustomText1: '株式会社ABC商事', CustomNumber1: 160.5, CustomList1: '中' },
    }),
    item({ id: '113', projectId: web, parentId: '110', order: 3, itemTypeId: '43', name: '設計レビュー', code: 'WEB-D-MS', plannedStartDate: '2026-02-27', plannedFinishDate: '2026-02-27', tracksProgress: false }),
    item({ id: '120', projectId: web, parentId: '100', order: 2, itemTypeId: '41', name: '実装', code: 'WEB-I', plannedStartDate: '2026-03-02', plannedFinishDate: '2026-05-29' }),
    item({
      id: '121', projectId: web, parentId: '120', order: 1, itemTypeId: '42', name: 'トップページ', code: 'WEB-I-01',
      plannedStartDate: '2026-03-02', plannedFinishDate: '2026-03-27', plannedTime: 7200, managedPlannedTime: 7200, plannedCost: 600000, statusTypeId: '51',
      processCategoryId: '62', description: '子作業を持つ作業', leaderId: '2104',
      customFields: { CustomText1: 'ウェブ商会', CustomNumber1: 120, CustomList1: '低' },
    }),
    item({ id: '122', projectId: web, parentId: '121', order: 1, itemTypeId: '42', name: 'ヘッダー', code: 'WEB-I-01-1', plannedStartDate: '2026-03-02', plannedFinishDate: '2026-03-13', plannedTime: 2400, assignments: [{ partyId: '2104', partyType: 'User', plannedTime: 2400 }] }),
    item({ id: '123', projectId: web, parentId: '121', order: 2, itemTypeId: '42', name: 'フッター', code: 'WEB-I-01-2', plannedStartDate: '2026-03-16', plannedFinishDate: '2026-03-27', plannedTime: 2400, actualProgress: 50 }),
    item({ id: '127', projectId: web, parentId: '121', order: 3, itemTypeId: '42', name: 'ナビゲーション', code: 'WEB-I-01-3', plannedStartDate: '2026-03-16', plannedFinishDate: '2026-03-27', plannedTime: 2400 }),
    item({ id: '128', projectId: web, parentId: '127', order: 1, itemTypeId: '42', name: 'メニュー', code: 'WEB-I-01-3-1', plannedTime: 1200 }),
    item({ id: '129', projectId: web, parentId: '127', order: 2, itemTypeId: '42', name: 'パンくずリスト', code: 'WEB-I-01-3-2', plannedTime: 1200 }),
    item({
      id: '124', projectId: web, parentId: '120', order: 2, itemTypeId: '42', name: '問い合わせフォーム', code: 'WEB-I-02',
      plannedStartDate: '2026-03-30', plannedFinishDate: '2026-04-24', timeEntryLocked: true, actualTime: 600, actualCost: 50000, actualProgress: 10,
      description: '実績入力がロックされた作業',
    }),
    item({ id: '125', projectId: web, parentId: '120', order: 3, itemTypeId: '44', name: 'コードレビュー', code: 'WEB-I-03', plannedStartDate: '2026-04-27', plannedFinishDate: '2026-05-08', description: 'Professional 版でのみ使える種類' }),
    item({ id: '126', projectId: web, parentId: '120', order: 4, itemTypeId: '46', name: '旧形式の作業', code: 'WEB-I-04', description: '利用できない種類' }),
    item({ id: '130', projectId: web, parentId: '100', order: 3, itemTypeId: '41', name: 'テスト', code: 'WEB-T', plannedStartDate: '2026-05-11', plannedFinishDate: '2026-06-30' }),
    item({ id: '150', projectId: web, parentId: '100', order: 4, itemTypeId: '41', name: '旧資料', code: 'WEB-OLD', isDeleted: true, description: '削除済みフォルダー' }),
    item({ id: '151', projectId: web, parentId: '150', order: 1, itemTypeId: '42', name: '旧仕様書', code: 'WEB-OLD-01', isDeleted: true }),
    item({ id: '152', projectId: web, parentId: '150', order: 2, itemTypeId: '41', name: '旧画面', code: 'WEB-OLD-02', isDeleted: true }),
    item({ id: '115', projectId: web, parentId: '110', order: 4, itemTypeId: '42', name: '削除された設計メモ', code: 'WEB-D-X', isDeleted: true }),
    item({ id: '116', projectId: web, parentId: '110', order: 5, itemTypeId: '44', name: '削除されたレビュー', code: 'WEB-D-R', isDeleted: true }),
    item({ id: '117', projectId: web, parentId: '110', order: 6, itemTypeId: '46', name: '削除された旧形式の作業', code: 'WEB-D-L', isDeleted: true }),
  ];
  // Ten test tasks for bulk updates.
  for (let i = 1; i <= 10; i++) {
    const day = pad(10 + i, 2);
    items.push(
      item({
        id: String(130 + i), projectId: web, parentId: '130', order: i, itemTypeId: '42', name: `結合テスト ${i}`, code: `WEB-T-${pad(i, 2)}`,
        plannedStartDate: `2026-05-${day}`, plannedFinishDate: `2026-05-${pad(15 + i, 2)}`, plannedTime: 480 * i, managedPlannedTime: 480 * i, plannedCost: 40000 * i,
        statusTypeId: '51', processCategoryId: '63', timeEntryCategoryId: '71',
        assignments: [{ partyId: MEMBERS[i % MEMBERS.length]!, partyType: 'User', plannedTime: 480 * i }],
        leaderId: '2001',
      }),
    );
  }
  // A chain of folders 16 levels deep: 200 (level 1) ... 215 (level 16, an empty folder);
  // 216 is a task on level 16 (in folder 214, level 15).
  for (let level = 1; level <= 16; level++) {
    const id = String(199 + level);
    items.push(
      item({ id, projectId: web, parentId: level === 1 ? DEMO_ROOT_FOLDERS.web : String(198 + level), order: 1, itemTypeId: '41', name: `階層 ${level}`, code: `DEEP-${pad(level, 2)}` }),
    );
  }
  items.push(item({ id: '216', projectId: web, parentId: '214', order: 2, itemTypeId: '42', name: '第16階層の作業', code: 'DEEP-16-T' }));

  // ---- Project Mobile.
  items.push(
    item({ id: '300', projectId: mob, parentId: DEMO_ROOT_FOLDERS.mobile, order: 1, itemTypeId: '41', name: 'モバイルアプリ', code: 'MOB', plannedStartDate: '2026-02-02', plannedFinishDate: '2026-11-30', leaderId: '2105' }),
    item({
      id: '301', projectId: mob, parentId: '300', order: 1, itemTypeId: '42', name: 'ログイン画面', code: 'MOB-01', plannedStartDate: '2026-02-02', plannedFinishDate: '2026-02-27',
      plannedTime: 4800, managedPlannedTime: 4800, plannedCost: 420000, statusTypeId: '52', actualProgress: 60,
      assignments: [{ partyId: '2105', partyType: 'User', plannedTime: 4800 }], leaderId: '2105',
      customFields: { CustomText1: 'モバイル工房', CustomDate1: '2026-03-06', CustomList1: '高' },
    }),
    item({
      id: '302', projectId: mob, parentId: '300', order: 2, itemTypeId: '42', name: 'プッシュ通知', code: 'MOB-02', plannedStartDate: '2026-03-02', plannedFinishDate: '2026-03-31',
      plannedTime: 3600, actualTime: 1200, actualCost: 100000, actualProgress: 30, description: '実績のある作業（移動先にできない）',
      assignments: [{ partyId: '83', partyType: 'UserGroup', plannedTime: 3600 }],
    }),
    item({ id: '303', projectId: mob, parentId: '300', order: 3, itemTypeId: '42', name: 'オフライン対応', code: 'MOB-03', plannedStartDate: '2026-04-01', plannedFinishDate: '2026-05-29', plannedTime: 9600 }),
    item({ id: '304', projectId: mob, parentId: '300', order: 4, itemTypeId: '41', name: 'リリース', code: 'MOB-R', plannedStartDate: '2026-11-02', plannedFinishDate: '2026-11-30' }),
    item({ id: '305', projectId: mob, parentId: '304', order: 1, itemTypeId: '43', name: 'ストア公開', code: 'MOB-R-MS', plannedStartDate: '2026-11-30', plannedFinishDate: '2026-11-30', tracksProgress: false }),
    item({ id: '306', projectId: mob, parentId: '304', order: 2, itemTypeId: '42', name: 'ストア申請', code: 'MOB-R-01', plannedStartDate: '2026-11-02', plannedFinishDate: '2026-11-20' }),
    item({ id: '310', projectId: mob, parentId: '300', order: 5, itemTypeId: '41', name: '破棄した案', code: 'MOB-X', isDeleted: true }),
    item({ id: '311', projectId: mob, parentId: '310', order: 1, itemTypeId: '42', name: 'タブレット版', code: 'MOB-X-01', isDeleted: true }),
    item({ id: '312', projectId: mob, parentId: '300', order: 6, itemTypeId: '42', name: '削除された調査', code: 'MOB-Y', isDeleted: true }),
  );

  // ---- Project Legacy (finished): every task completed.
  const old = '3003';
  const done = { actualProgress: 100, statusTypeId: '53' } as const;
  items.push(
    item({ id: DEMO_ROOT_FOLDERS.legacy, projectId: old, parentId: null, order: 0, itemTypeId: '40', name: '旧基幹システム保守', code: 'PRJ-OLD', tracksProgress: false }),
    item({ id: '500', projectId: old, parentId: DEMO_ROOT_FOLDERS.legacy, order: 1, itemTypeId: '41', name: '保守作業', code: 'OLD-M', plannedStartDate: '2025-04-01', plannedFinishDate: '2025-09-30' }),
    item({ id: '501', projectId: old, parentId: '500', order: 1, itemTypeId: '42', name: '月次バッチ監視', code: 'OLD-M-01', plannedStartDate: '2025-04-01', plannedFinishDate: '2025-09-30', plannedTime: 6000, actualTime: 5800, ...done, customFields: { CustomDate1: '2025-10-10', CustomNumber1: 100 } }),
    item({ id: '502', projectId: old, parentId: '500', order: 2, itemTypeId: '42', name: '障害対応', code: 'OLD-M-02', plannedStartDate: '2025-05-12', plannedFinishDate: '2025-05-16', plannedTime: 1200, actualTime: 1500, ...done }),
    item({ id: '503', projectId: old, parentId: DEMO_ROOT_FOLDERS.legacy, order: 2, itemTypeId: '43', name: '保守終了', code: 'OLD-MS', plannedStartDate: '2025-09-30', plannedFinishDate: '2025-09-30', tracksProgress: false }),
  );
  return items;
}

const CATEGORY_NAMES: [string, string, string][] = [
  // [name, code, group]
  ['要件定義', 'REQ', '601'],
  ['基本設計', 'BD', '601'],
  ['詳細設計', 'DD', '601'],
  ['方式設計', 'AD', '601'],
  ['画面設計', 'UI', '601'],
  ['製造', 'IMP', '602'],
  ['単体テスト', 'UT', '602'],
  ['コードレビュー', 'CR', '602'],
  ['結合テスト', 'IT', '603'],
  ['総合テスト', 'ST', '603'],
  ['受入テスト', 'AT', '603'],
  ['性能テスト', 'PT', '603'],
  ['移行', 'MIG', '604'],
  ['リリース', 'REL', '604'],
  ['運用設計', 'OPS', '604'],
  ['保守', 'MNT', '605'],
  ['問い合わせ対応', 'SUP', '605'],
  ['障害対応', 'INC', '605'],
  ['プロジェクト管理', 'PM', '606'],
  ['品質管理', 'QA', '606'],
  ['会議', 'MTG', '606'],
  ['教育', 'EDU', '606'],
  ['調査', 'RES', '601'],
  ['見積もり', 'EST', '606'],
  ['ドキュメント作成', 'DOC', '602'],
  ['旧工程: 仕様調整', 'OLD-SPEC', '601'],
  ['旧工程: 外注管理', 'OLD-OUT', '606'],
  ['旧工程: 紙帳票', 'OLD-PAPER', '605'],
  ['Design Review', 'DR', '601'],
  ['Security Audit', 'SEC', '603'],
  ['旧工程: 手動デプロイ', 'OLD-DEPLOY', '604'],
  ['Performance Tuning', 'TUNE', '602'],
];
const COLORS = ['#e53935', '#d81b60', '#8e24aa', '#5e35b1', '#3949ab', '#1e88e5', '#039be5', '#00acc1', '#00897b', '#43a047', '#7cb342', '#c0ca33', '#fdd835', '#ffb300', '#fb8c00', '#f4511e'];

function demoProcessCategories(): Category[] {
  return CATEGORY_NAMES.map(([name, code, groupId], i) => ({
    id: String(5000 + i + 1),
    name,
    code,
    description: name.startsWith('旧工程') ? '廃止された工程（削除済み）' : `${name}の工程`,
    color: COLORS[i % COLORS.length]!,
    groupId,
    // Not in ID order, with a tie and fractions, so ordering is visible.
    displayOrder: ((i * 7) % CATEGORY_NAMES.length) + (i % 3 === 0 ? 0.5 : 0),
    isDeleted: name.startsWith('旧工程'),
    createdAt: `2024-${pad((i % 12) + 1, 2)}-01T00:00:00Z`,
    createdBy: '2001',
    updatedAt: `2025-${pad((i % 12) + 1, 2)}-15T00:00:00Z`,
    updatedBy: i % 2 === 0 ? '2001' : '2101',
  }));
}

/**
 * Custom fields of the demo (one of each kind: text, number, date, list, plus a
 * deleted one). System names `CustomText1`, `CustomNumber1`, `CustomDate1`, `CustomList1`.
 */
export const DEMO_CUSTOM_FIELDS: NonNullable<DatasetInput['fieldTypes']> = [
  { id: '101', name: '顧客名', systemName: 'CustomText1', code: 'CUSTOMER', dataType: 'String', maxLength: 50, description: '発注元の顧客名' },
  { id: '102', name: '見積工数', systemName: 'CustomNumber1', code: 'ESTIMATE', dataType: 'Decimal', minValue: 0, maxValue: 9999, description: '見積もった工数（時間）' },
  { id: '103', name: '検収日', systemName: 'CustomDate1', code: 'ACCEPTED', dataType: 'Date', description: '顧客の検収日' },
  {
    id: '104', name: '優先度', systemName: 'CustomList1', code: 'PRIORITY', dataType: 'List', description: '作業の優先度',
    choices: [{ id: '1', name: '高', code: 'HIGH' }, { id: '2', name: '中', code: 'MID' }, { id: '3', name: '低', code: 'LOW' }],
  },
  { id: '105', name: '旧備考', systemName: 'CustomText2', code: 'OLD-NOTE', dataType: 'MultiLineString', description: '削除された項目', isDeleted: true },
];

/** The built-in demo data set (a fresh object on each call). */
export function demoDataset(): DatasetInput {
  return {
    version: 2,
    organizations: ORGS.map((o) => ({ ...o })),
    users: demoUsers(),
    userGroups: [
      { id: '81', name: 'Web開発グループ', memberIds: ['2101', '2102', '2103', '2104', '2003'] },
      { id: '82', name: '品質保証グループ', memberIds: ['2108', '2124'] },
      { id: '83', name: 'モバイル開発グループ', memberIds: ['2105', '2106', '2107'] },
    ],
    itemTypes: [
      // The type of the projects' root folders (level 0).
      { id: '40', name: 'ワークアイテムルート', systemName: 'WorkItemRoot', code: 'ROOT', isFolder: true },
      { id: '41', name: 'フォルダー', systemName: 'Folder', code: 'FOLDER', isFolder: true },
      { id: '42', name: '作業', systemName: 'Task', code: 'TASK', isFolder: false },
      { id: '43', name: 'マイルストーン', systemName: 'Milestone', code: 'MS', isFolder: false },
      { id: '44', name: 'レビュー (Professional)', systemName: 'Review', code: 'REVIEW', isFolder: false, professionalOnly: true },
      { id: '45', name: 'フェーズ (Professional)', systemName: 'Phase', code: 'PHASE', isFolder: true, professionalOnly: true },
      { id: '46', name: '旧作業種類（利用不可）', systemName: 'LegacyTask', code: 'LEGACY', isFolder: false, available: false },
    ],
    statusTypes: [
      { id: '51', name: '未着手' },
      { id: '52', name: '進行中' },
      { id: '53', name: '完了' },
      { id: '54', name: '保留（利用不可）', available: false },
    ],
    processClassifications: [
      { id: '61', name: '設計' },
      { id: '62', name: '実装' },
      { id: '63', name: 'テスト' },
      { id: '64', name: '旧分類（利用不可）', available: false },
    ],
    workClassifications: [
      { id: '71', name: '通常作業' },
      { id: '72', name: '打ち合わせ' },
      { id: '73', name: '旧作業分類（利用不可）', available: false },
    ],
    projects: demoProjects(),
    workItems: demoWorkItems(),
    scheduleLinks: [
      { id: '1', fromId: '111', toId: '112' },
      { id: '2', fromId: '112', toId: '113' },
      { id: '3', fromId: '122', toId: '123' },
      { id: '4', fromId: '301', toId: '303' },
    ],
    processCategories: demoProcessCategories(),
    fieldTypes: DEMO_CUSTOM_FIELDS.map((f) => (f.choices ? { ...f, choices: f.choices.map((c) => ({ ...c })) } : { ...f })),
  };
}
