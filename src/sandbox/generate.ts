// Deterministic generator of large data sets (seeded PRNG), valid against the
// data-set model, for load tests and benchmarks. No vscode import.
import type { DatasetInput } from './model';
import { DEMO_API_KEYS, DEMO_CUSTOM_FIELDS } from './demo';

export interface GenerateOptions {
  /** Number of users (at least 3: admin, viewer and nocost are always included). Default 1000. */
  users?: number;
  /** Number of organizations (at least 1). Default 20. */
  organizations?: number;
  /** Number of work items, over two projects (at least 2: the projects' root folders). Default 1000. */
  workItems?: number;
  /** Number of process categories. Default 100. */
  processCategories?: number;
  /** PRNG seed; the same options give the same data set. Default 1. */
  seed?: number;
}

export const GENERATE_KEYS = ['users', 'organizations', 'workItems', 'processCategories', 'seed'] as const;
/** Upper bounds that keep a generated data set within memory. */
export const GENERATE_MAX: Record<(typeof GENERATE_KEYS)[number], number> = {
  users: 1_000_000,
  organizations: 100_000,
  workItems: 1_000_000,
  processCategories: 100_000,
  seed: 2 ** 32 - 1,
};

/** mulberry32: a small, fast, seeded PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAMILY = ['佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', '山本', '中村', '小林', '加藤', '吉田', '山田', '佐々木', '山口', '松本', '井上'];
const FAMILY_EN = ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Ito', 'Watanabe', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Yoshida', 'Yamada', 'Sasaki', 'Yamaguchi', 'Matsumoto', 'Inoue'];
const GIVEN = ['花子', '一郎', '健太', '美咲', '翔太', '陽菜', '大輔', '結衣', '拓也', '彩', '直樹', '優子', '亮', '真由美', '誠', '七海'];
const GIVEN_EN = ['Hanako', 'Ichiro', 'Kenta', 'Misaki', 'Shota', 'Hina', 'Daisuke', 'Yui', 'Takuya', 'Aya', 'Naoki', 'Yuko', 'Ryo', 'Mayumi', 'Makoto', 'Nanami'];
const ORG_WORDS = ['本部', '部', '課', 'チーム', 'グループ'];
const COLORS = ['#e53935', '#8e24aa', '#3949ab', '#039be5', '#00897b', '#7cb342', '#fdd835', '#fb8c00'];

type Item = NonNullable<DatasetInput['workItems']>[number];

const LIST_CHOICES = ['高', '中', '低'];

/**
 * Custom field values of the n-th generated task (the demo's custom fields): from its
 * number only, so the PRNG sequence (and every other value) is the same as without them.
 * About half the tasks have some: a customer name, an estimate, a priority; one in
 * seven an acceptance date.
 */
function customValues(n: number, start: string): Record<string, unknown> {
  if (n % 2 === 1) return {};
  const out: Record<string, unknown> = { CustomText1: `顧客 ${(n % 17) + 1}`, CustomNumber1: (n % 40) * 2.5, CustomList1: LIST_CHOICES[n % 3]! };
  if (n % 7 === 0) out['CustomDate1'] = addDays(start, 45);
  return out;
}

/** The item types of generated data sets (the demo's IDs and system names). */
const GENERATED_ITEM_TYPES: NonNullable<DatasetInput['itemTypes']> = [
  { id: '40', name: 'ワークアイテムルート', systemName: 'WorkItemRoot', code: 'ROOT', isFolder: true },
  { id: '41', name: 'フォルダー', systemName: 'Folder', code: 'FOLDER', isFolder: true },
  { id: '42', name: '作業', systemName: 'Task', code: 'TASK', isFolder: false },
];

function check(name: string, v: number | undefined, def: number, min: number): number {
  const n = v ?? def;
  const max = GENERATE_MAX[name as keyof typeof GENERATE_MAX];
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`generate: ${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Generates a valid data set of the given size. Deterministic for the same options. */
export function generateDataset(options: GenerateOptions = {}): DatasetInput {
  const nUsers = check('users', options.users, 1000, 3);
  const nOrgs = check('organizations', options.organizations, 20, 1);
  const nItems = check('workItems', options.workItems, 1000, 2);
  const nCats = check('processCategories', options.processCategories, 100, 0);
  const seed = check('seed', options.seed, 1, 0);
  const rnd = seededRandom(seed);
  const int = (n: number) => Math.floor(rnd() * n);

  // Organizations: a tree at most 6 levels deep.
  const orgDepth: number[] = [1];
  const organizations: NonNullable<DatasetInput['organizations']> = [{ id: '1', name: '株式会社ジェネレーテッド', code: 'O000001', parentId: null }];
  for (let i = 1; i < nOrgs; i++) {
    let parent = int(i);
    while (orgDepth[parent]! >= 6) parent = int(parent);
    orgDepth.push(orgDepth[parent]! + 1);
    organizations.push({ id: String(i + 1), name: `組織${i + 1}${ORG_WORDS[orgDepth[i]! % ORG_WORDS.length]}`, code: `O${pad(i + 1, 6)}`, parentId: String(parent + 1) });
  }

  // Users: admin, viewer and nocost first (password "password"), then generated people.
  const users: NonNullable<DatasetInput['users']> = [
    { id: '2001', name: '管理者', englishName: 'Administrator', loginName: 'admin', apiKeys: [DEMO_API_KEYS.admin], email: 'admin@example.com', code: 'U0000001', organizationId: '1' },
    { id: '2002', name: '閲覧者', englishName: 'Viewer', loginName: 'viewer', apiKeys: [DEMO_API_KEYS.viewer], email: 'viewer@example.com', code: 'U0000002', organizationId: '1', canEdit: false },
    { id: '2003', name: '原価なし', englishName: 'No Cost', loginName: 'nocost', apiKeys: [DEMO_API_KEYS.nocost], email: 'nocost@example.com', code: 'U0000003', organizationId: '1' },
  ];
  for (let i = 3; i < nUsers; i++) {
    const f = int(FAMILY.length);
    const g = int(GIVEN.length);
    const login = `user${i + 1}`;
    users.push({
      id: String(10000 + i + 1),
      name: `${FAMILY[f]} ${GIVEN[g]}`,
      englishName: `${GIVEN_EN[g]} ${FAMILY_EN[f]}`,
      loginName: login,
      ldapLoginName: `CORP\\${login}`,
      email: `${login}@example.com`,
      code: `U${pad(i + 1, 7)}`,
      organizationId: String(int(nOrgs) + 1),
      unitCost: 3000 + int(10) * 500,
      isDeleted: rnd() < 0.02,
    });
  }

  const memberIds = users.slice(3, 53).filter((u) => !u.isDeleted).map((u) => u.id);
  const members = [
    { userId: '2001', permission: 'edit' as const, costPermission: true },
    { userId: '2002', permission: 'view' as const, costPermission: false },
    { userId: '2003', permission: 'edit' as const, costPermission: false },
    ...memberIds.map((userId) => ({ userId, permission: 'edit' as const, costPermission: true })),
  ];
  const projects: NonNullable<DatasetInput['projects']> = [
    { id: '1', name: '生成プロジェクト 1', code: 'GEN-1', managerId: '2001', workItemRootFolderId: '1', members, allowedDateRange: { min: '2025-01-01', max: '2028-12-31' } },
    { id: '2', name: '生成プロジェクト 2', code: 'GEN-2', managerId: '2001', workItemRootFolderId: '2', members, allowedDateRange: { min: '2025-01-01', max: '2028-12-31' } },
  ];

  // Work items: per project a root folder (level 0); folders up to level 7, tasks under
  // folders, some tasks with sub-tasks (up to level 11), so propagation has children to reach.
  const workItems: Item[] = [];
  const depth = new Map<string, number>();
  const childCount = new Map<string, number>();
  const folders: string[][] = [[], []];
  const tasks: string[][] = [[], []];
  const nextOrder = (parent: string | null) => {
    const key = parent ?? '';
    const n = (childCount.get(key) ?? 0) + 1;
    childCount.set(key, n);
    return n;
  };
  for (let p = 0; p < 2; p++) {
    const id = String(p + 1);
    workItems.push({ id, projectId: String(p + 1), parentId: null, order: nextOrder(null), itemTypeId: '40', name: `ルートフォルダー ${p + 1}` });
    depth.set(id, 1);
    folders[p]!.push(id);
  }
  for (let i = 2; i < nItems; i++) {
    const p = i % 2;
    const id = String(i + 1);
    const r = rnd();
    let parent: string;
    let isFolder = false;
    if (r < 0.08) {
      const f = folders[p]!;
      parent = f[int(f.length)]!;
      if (depth.get(parent)! >= 8) parent = f[0]!;
      isFolder = true;
    } else if (r < 0.3 && tasks[p]!.length > 0) {
      const t = tasks[p]!;
      parent = t[int(t.length)]!;
      if (depth.get(parent)! >= 12) parent = folders[p]![0]!;
    } else {
      const f = folders[p]!;
      parent = f[Math.max(0, f.length - 1 - int(Math.min(f.length, 10)))]!;
    }
    depth.set(id, depth.get(parent)! + 1);
    const start = addDays('2026-01-05', int(600));
    const planned = (1 + int(40)) * 60;
    const assignee = memberIds.length > 0 ? memberIds[int(memberIds.length)]! : '2001';
    workItems.push({
      id,
      projectId: String(p + 1),
      parentId: parent,
      order: nextOrder(parent),
      itemTypeId: isFolder ? '41' : '42',
      name: isFolder ? `フォルダー ${id}` : `作業 ${id}`,
      code: `W${pad(i + 1, 7)}`,
      plannedStartDate: isFolder ? null : start,
      plannedFinishDate: isFolder ? null : addDays(start, int(30)),
      plannedTime: isFolder ? 0 : planned,
      managedPlannedTime: isFolder ? 0 : planned,
      plannedCost: isFolder ? 0 : planned * 100,
      statusTypeId: isFolder ? null : '51',
      assignments: isFolder ? [] : [{ partyId: assignee, partyType: 'User', plannedTime: planned }],
      customFields: isFolder ? {} : customValues(i, start),
    });
    (isFolder ? folders : tasks)[p]!.push(id);
  }

  const processCategories: NonNullable<DatasetInput['processCategories']> = [];
  for (let i = 0; i < nCats; i++) {
    processCategories.push({
      id: String(i + 1),
      name: `工程 ${i + 1}`,
      code: `PC${pad(i + 1, 6)}`,
      description: '',
      color: COLORS[int(COLORS.length)]!,
      groupId: String((i % 5) + 1),
      displayOrder: int(nCats * 10),
      isDeleted: rnd() < 0.1,
    });
  }

  return {
    version: 2,
    organizations,
    users,
    userGroups: [],
    itemTypes: GENERATED_ITEM_TYPES.map((t) => ({ ...t })),
    statusTypes: [{ id: '51', name: '未着手' }, { id: '53', name: '完了' }],
    processClassifications: [],
    workClassifications: [],
    projects,
    workItems,
    scheduleLinks: [],
    processCategories,
    fieldTypes: DEMO_CUSTOM_FIELDS.map((f) => (f.choices ? { ...f, choices: f.choices.map((c) => ({ ...c })) } : { ...f })),
  };
}

/** Parses `users=100000,organizations=50,workItems=20000,processCategories=500,seed=7`. */
export function parseGenerateSpec(spec: string): GenerateOptions {
  const out: GenerateOptions = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]+)=(\d+)$/.exec(part);
    if (!m) throw new Error(`--generate: expected NAME=COUNT, got ${JSON.stringify(part)} (names: ${GENERATE_KEYS.join(', ')})`);
    const key = GENERATE_KEYS.find((k) => k.toLowerCase() === m[1]!.toLowerCase());
    if (!key) throw new Error(`--generate: unknown name ${JSON.stringify(m[1])} (names: ${GENERATE_KEYS.join(', ')})`);
    out[key] = Number(m[2]);
  }
  return out;
}

// ---------------------------------------------------------------------------
// One large project (100,000 work items over 16 levels by default)
// ---------------------------------------------------------------------------

export interface LargeProjectOptions {
  /** Work items below the root folder (the root folder is not counted). Default 100,000. */
  items?: number;
  /** Levels below the root folder used (1 to 16; every level gets items). Default 16. */
  levels?: number;
  /** Items directly below the root folder (level 1). Default 50. */
  topLevelItems?: number;
  /** PRNG seed; the same options give the same data set. Default 1. */
  seed?: number;
}

export const LARGE_PROJECT_KEYS = ['items', 'levels', 'topLevelItems', 'seed'] as const;
/** The large project's ID and root folder (a project ID is not a work item ID). */
export const LARGE_PROJECT = { id: '9', name: '大規模プロジェクト', code: 'LARGE', rootFolderId: '1000000' } as const;

/** The options with defaults filled in; throws an Error naming an option out of range. */
export function checkLargeProjectOptions(options: LargeProjectOptions): Required<LargeProjectOptions> {
  const count = (name: string, v: number | undefined, def: number, min: number, max: number): number => {
    const n = v ?? def;
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`large project: ${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return n;
  };
  const levels = count('levels', options.levels, 16, 1, 16);
  const items = count('items', options.items, 100_000, levels, 1_000_000);
  const topLevelItems = count('topLevelItems', options.topLevelItems, Math.min(50, items - levels + 1), 1, items - levels + 1);
  const seed = count('seed', options.seed, 1, 0, 2 ** 32 - 1);
  return { items, levels, topLevelItems, seed };
}

/**
 * A data set with one large project (besides the two small projects, users and
 * categories of `generateDataset` at a small size), for benchmarks and tests of
 * large hierarchies. Deterministic for the same options.
 *
 * Shape: the root folder (ID `1000000`, level 0); `topLevelItems` items on level 1;
 * a chain of folders reaching level `levels` (so every level has items); the rest
 * placed below folders picked at random, about one in eight a folder (folders only
 * above the deepest level). Item IDs are `1000001`, `1000002`, ... in creation
 * order (parents before children). About 10 % of the tasks are completed (progress
 * 100, status done) and 2 % are deleted leaves. Times are minutes.
 */
export function generateLargeProject(options: LargeProjectOptions = {}): DatasetInput {
  const { items: nItems, levels, topLevelItems: topLevel, seed } = checkLargeProjectOptions(options);
  const rnd = seededRandom(seed ^ 0x5eed);
  const int = (n: number) => Math.floor(rnd() * n);

  const base = generateDataset({ users: 60, organizations: 5, workItems: 2, processCategories: 20, seed });
  const members = base.projects![0]!.members;
  const memberIds = (members ?? []).filter((m) => m.permission === 'edit').map((m) => m.userId);
  const root = LARGE_PROJECT.rootFolderId;
  const items: Item[] = [
    { id: root, projectId: LARGE_PROJECT.id, parentId: null, order: 0, itemTypeId: '40', name: LARGE_PROJECT.name, code: LARGE_PROJECT.code, tracksProgress: false },
  ];
  const childCount = new Map<string, number>();
  /** Folders that may take children (level < levels), with their level. */
  const folders: { id: string; level: number }[] = [{ id: root, level: 0 }];
  let next = Number(root) + 1;
  const add = (parent: { id: string; level: number }, folder: boolean): { id: string; level: number } => {
    const id = String(next++);
    const level = parent.level + 1;
    const order = (childCount.get(parent.id) ?? 0) + 1;
    childCount.set(parent.id, order);
    if (folder) {
      items.push({ id, projectId: LARGE_PROJECT.id, parentId: parent.id, order, itemTypeId: '41', name: `フォルダー ${id}`, code: `L${id}` });
      if (level < levels) folders.push({ id, level });
    } else {
      const start = addDays('2026-01-05', int(600));
      const planned = (1 + int(40)) * 60;
      const done = rnd() < 0.1;
      const assignee = memberIds.length > 0 ? memberIds[int(memberIds.length)]! : '2001';
      items.push({
        id,
        projectId: LARGE_PROJECT.id,
        parentId: parent.id,
        order,
        itemTypeId: '42',
        name: `作業 ${id}`,
        code: `L${id}`,
        plannedStartDate: start,
        plannedFinishDate: addDays(start, int(30)),
        plannedTime: planned,
        managedPlannedTime: planned,
        plannedCost: planned * 100,
        actualTime: done ? planned : 0,
        actualProgress: done ? 100 : int(4) * 25,
        statusTypeId: done ? '53' : '51',
        leaderId: assignee,
        assignments: [{ partyId: assignee, partyType: 'User', plannedTime: planned }],
        isDeleted: !done && rnd() < 0.02,
        customFields: customValues(next, start),
      });
    }
    return { id, level };
  };
  // Level 1 (the first top-level item starts the chain down to the deepest level).
  const top: { id: string; level: number }[] = [];
  for (let i = 0; i < topLevel; i++) top.push(add(folders[0]!, levels > 1 && i % 3 === 0));
  let chain = top[0]!;
  while (chain.level < levels) chain = add(chain, chain.level + 1 < levels);
  // The rest below random folders (never below the root: level 1 has exactly topLevelItems).
  while (items.length - 1 < nItems) {
    const pool = folders.length > 1 ? folders : [folders[0]!];
    const parent = pool.length > 1 ? pool[1 + int(pool.length - 1)]! : pool[0]!;
    add(parent, parent.level + 1 < levels && rnd() < 0.125);
  }
  return {
    ...base,
    projects: [
      ...base.projects!,
      {
        id: LARGE_PROJECT.id,
        name: LARGE_PROJECT.name,
        code: LARGE_PROJECT.code,
        managerId: '2001',
        plannedStartDate: '2026-01-05',
        plannedFinishDate: '2028-12-31',
        workItemRootFolderId: root,
        members,
        allowedDateRange: { min: '2025-01-01', max: '2028-12-31' },
      },
    ],
    workItems: [...base.workItems!, ...items],
  };
}

/** Parses `items=100000,levels=16,topLevelItems=50,seed=1`. */
export function parseLargeProjectSpec(spec: string): LargeProjectOptions {
  const out: LargeProjectOptions = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]+)=(\d+)$/.exec(part);
    if (!m) throw new Error(`--large-project: expected NAME=COUNT, got ${JSON.stringify(part)} (names: ${LARGE_PROJECT_KEYS.join(', ')})`);
    const key = LARGE_PROJECT_KEYS.find((k) => k.toLowerCase() === m[1]!.toLowerCase());
    if (!key) throw new Error(`--large-project: unknown name ${JSON.stringify(m[1])} (names: ${LARGE_PROJECT_KEYS.join(', ')})`);
    out[key] = Number(m[2]);
  }
  return out;
}
