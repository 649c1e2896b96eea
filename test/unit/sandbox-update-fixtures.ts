// A small data set for the update-engine tests, built in code: two projects, a
// folder hierarchy with tasks, deleted items, Professional-only and retired item
// types, unavailable classifications, users matched by every name, user groups.
import type { DatasetInput } from '../../src/sandbox/model';

type Item = NonNullable<DatasetInput['workItems']>[number];

export const P1_RANGE = { min: '2026-01-01', max: '2026-12-31' };

let order = 0;
function item(id: string, parentId: string | null, itemTypeId: string, extra: Partial<Item> = {}): Item {
  order++;
  return { id, projectId: 'p1', parentId, order, itemTypeId, name: `Item ${id}`, ...extra };
}
export const folder = (id: string, parentId: string | null, extra: Partial<Item> = {}) => item(id, parentId, 'folder', extra);
export const task = (id: string, parentId: string | null, extra: Partial<Item> = {}) => item(id, parentId, 'task', extra);

/** Folders C1..Cn, each under the previous one (C1 is top-level in p1): Cn is on level n. */
export function chain(n: number, prefix = 'C'): Item[] {
  const out: Item[] = [];
  for (let i = 1; i <= n; i++) out.push(folder(`${prefix}${i}`, i === 1 ? null : `${prefix}${i - 1}`));
  return out;
}

/**
 * Base fixture (project p1 unless noted):
 *
 *   F1 folder
 *     F1a folder
 *       T1 task 2026-03-01..03-10, planned 480, alice 480, leader alice
 *       T2 task 2026-12-20..12-28
 *       T3 task
 *     T4 task with actuals
 *       T4a task
 *     D2 folder (deleted)
 *       D2a task (deleted)
 *   F2 folder
 *     D1 task (deleted)
 *   DF folder (deleted)
 *     DX task (deleted)
 *   DR task of the retired type (deleted)
 *   DP task of a Professional-only type (deleted)
 *   NT task that does not track progress
 *   p2: Q1 folder > Q2 task
 * Links: L1 T1->T2, L2 T2->T3, L3 T3->T4a.
 */
export function baseFixture(extraItems: Item[] = []): DatasetInput {
  order = 0;
  return {
    version: 2,
    organizations: [{ id: 'o1', name: 'Head office', parentId: null }],
    users: [
      { id: '2001', name: 'Admin User', loginName: 'admin', ldapLoginName: 'CORP\\admin', email: 'admin@example.com', organizationId: 'o1' },
      { id: '2002', name: 'Viewer', loginName: 'viewer', organizationId: 'o1' },
      { id: '2003', name: 'No Cost', loginName: 'nocost', organizationId: 'o1' },
      { id: 'u-alice', name: 'Alice Smith', loginName: 'alice', ldapLoginName: 'CORP\\asmith', email: 'alice@example.com', organizationId: 'o1' },
      { id: 'u-carol', name: 'Carol Jones', loginName: 'carol', ldapLoginName: 'CORP\\cjones', email: 'carol@example.com', organizationId: 'o1' },
      { id: 'u-bob', name: 'Bob Brown', loginName: 'bob', organizationId: 'o1' },
      { id: 'u-out', name: 'Outsider', loginName: 'outsider', organizationId: 'o1' },
      { id: 'u-twin1', name: 'Taro Yamada', loginName: 'taro1', organizationId: 'o1' },
      { id: 'u-twin2', name: 'Taro Yamada', loginName: 'taro2', organizationId: 'o1' },
      { id: 'u-gone', name: 'Gone', loginName: 'gone', organizationId: 'o1', isDeleted: true },
    ],
    userGroups: [
      { id: 'g-dev', name: 'Developers', memberIds: ['u-alice', 'u-carol'] },
      { id: 'g-ext', name: 'External', memberIds: ['u-bob'] },
    ],
    itemTypes: [
      { id: 'folder', name: 'Folder', isFolder: true },
      { id: 'task', name: 'Task', isFolder: false },
      { id: 'milestone', name: 'Milestone', isFolder: false },
      { id: 'pro-folder', name: 'Program', isFolder: true, professionalOnly: true },
      { id: 'pro-task', name: 'Risk', isFolder: false, professionalOnly: true },
      { id: 'retired', name: 'Retired', isFolder: false, available: false },
    ],
    statusTypes: [
      { id: '51', name: 'Open' },
      { id: '53', name: 'Done' },
      { id: 'st-old', name: 'Old', available: false },
    ],
    processClassifications: [
      { id: 'pc-1', name: 'Design' },
      { id: 'pc-old', name: 'Old process', available: false },
    ],
    workClassifications: [
      { id: 'wc-1', name: 'Development' },
      { id: '73', name: 'Old work', available: false },
    ],
    projects: [
      {
        id: 'p1',
        name: 'Project One',
        allowedDateRange: P1_RANGE,
        userGroupIds: ['g-dev'],
        members: [
          { userId: '2001', permission: 'edit', costPermission: true },
          { userId: '2002', permission: 'view', costPermission: false },
          { userId: '2003', permission: 'edit', costPermission: false },
          { userId: 'u-alice', permission: 'edit' },
          { userId: 'u-carol', permission: 'edit' },
          { userId: 'u-twin1', permission: 'edit' },
          { userId: 'u-twin2', permission: 'edit' },
        ],
      },
      {
        id: 'p2',
        name: 'Project Two',
        allowedDateRange: P1_RANGE,
        members: [
          { userId: '2001', permission: 'edit' },
          { userId: 'u-bob', permission: 'edit' },
        ],
      },
    ],
    workItems: [
      folder('F1', null),
      folder('F1a', 'F1'),
      task('T1', 'F1a', {
        plannedStartDate: '2026-03-01',
        plannedFinishDate: '2026-03-10',
        plannedTime: 480,
        managedPlannedTime: 480,
        plannedCost: 1000,
        leaderId: 'u-alice',
        assignments: [{ partyId: 'u-alice', partyType: 'User', plannedTime: 480 }],
      }),
      task('T2', 'F1a', { plannedStartDate: '2026-12-20', plannedFinishDate: '2026-12-28' }),
      task('T3', 'F1a'),
      task('T4', 'F1', { actualTime: 60 }),
      task('T4a', 'T4'),
      folder('D2', 'F1', { isDeleted: true }),
      task('D2a', 'D2', { isDeleted: true }),
      folder('F2', null),
      task('D1', 'F2', { isDeleted: true }),
      folder('DF', null, { isDeleted: true }),
      task('DX', 'DF', { isDeleted: true }),
      item('DR', null, 'retired', { isDeleted: true }),
      item('DP', null, 'pro-task', { isDeleted: true }),
      task('NT', null, { tracksProgress: false, actualProgress: 10 }),
      { id: 'Q1', projectId: 'p2', parentId: null, order: 1, itemTypeId: 'folder', name: 'Q1' },
      { id: 'Q2', projectId: 'p2', parentId: 'Q1', order: 1, itemTypeId: 'task', name: 'Q2' },
      ...extraItems,
    ],
    scheduleLinks: [
      { id: 'L1', fromId: 'T1', toId: 'T2' },
      { id: 'L2', fromId: 'T2', toId: 'T3' },
      { id: 'L3', fromId: 'T3', toId: 'T4a' },
    ],
  };
}
