// Responses are parsed tolerantly (unknown members kept, known members checked);
// list queries are strict.
import * as assert from 'node:assert/strict';
import {
  AllAssignedUsersQuery,
  Color,
  OrganizationUsersQuery,
  ProcessCategoriesQuery,
  ProcessCategory,
  ProcessCategoryListResponse,
  UpdateWorkItemsResponse,
  User,
  UserListResponse,
} from '../../src/schema/api';
import { readAnswer } from '../../src/api/answers';
import { isServiceError } from '../../src/api/errors';
import { rawJsonOf } from '../../src/api/rawJson';
import { fastChecker } from '../../src/schema/fast-check';
import { WorkItemsResponse } from '../../src/schema/reads';

const user = (o: Record<string, unknown> = {}) => ({ id: 'u1', name: 'Alice', loginName: 'alice', createdAt: '2025-01-02T03:04:05Z', ...o });
const category = (o: Record<string, unknown> = {}) => ({ id: 'c1', name: 'Design', code: 'D', color: '#ff0000', displayOrder: 1.5, ...o });

describe('schema responses and queries', () => {
  describe('update response', () => {
    it('keeps unknown members on the response and on items', () => {
      const r = UpdateWorkItemsResponse.parse({
        items: [{ id: '1', updatedAt: '2025-04-01T10:00:00', newThing: { a: 1 }, itemWarnings: ['w'] }],
        affectedItems: [],
        addedTimeEntryIds: [5],
        addedScheduleDependencyIds: ['d1'],
        serverVersion: '9',
      });
      assert.equal((r as Record<string, unknown>).serverVersion, '9');
      assert.deepEqual((r.items[0] as Record<string, unknown>).newThing, { a: 1 });
      assert.equal(r.items[0]!.updatedAt, '2025-04-01T10:00:00', 'datetime without zone kept as written');
    });

    it('missing optional lists default to empty', () => {
      const r = UpdateWorkItemsResponse.parse({ items: [{ id: '1' }] });
      assert.deepEqual([r.affectedItems, r.addedTimeEntryIds, r.addedScheduleDependencyIds], [[], [], []]);
    });

    it('rejects known members of the wrong shape', () => {
      assert.equal(UpdateWorkItemsResponse.safeParse({ items: 'none' }).success, false);
      assert.equal(UpdateWorkItemsResponse.safeParse({ items: [{ id: 1 }] }).success, false);
      assert.equal(UpdateWorkItemsResponse.safeParse({ items: [{ id: '1', managedPlannedTime: 1.5 }] }).success, false);
      assert.equal(UpdateWorkItemsResponse.safeParse({ items: [{ id: '1', assignments: [{ plannedTime: 1 }] }] }).success, false);
    });
  });

  describe('users', () => {
    it('keeps unknown members and the createdAt string with Z', () => {
      const u = User.parse(user({ favouriteColour: 'blue' }));
      assert.equal((u as Record<string, unknown>).favouriteColour, 'blue');
      assert.equal(u.createdAt, '2025-01-02T03:04:05Z');
    });

    it('accepts null for optional members', () => {
      assert.equal(User.safeParse(user({ email: null, unitCost: null })).success, true);
    });

    it('rejects wrong known shapes', () => {
      assert.equal(User.safeParse(user({ isDeleted: 'no' })).success, false);
      assert.equal(User.safeParse(user({ id: undefined })).success, false);
      assert.equal(User.safeParse(user({ permission: 1.5 })).success, false);
    });

    it('list response: totalCount and data', () => {
      const r = UserListResponse.parse({ totalCount: 1, data: [user()], page: 1 });
      assert.equal(r.data[0]!.name, 'Alice');
      assert.equal((r as Record<string, unknown>).page, 1);
      assert.equal(UserListResponse.safeParse({ totalCount: -1, data: [] }).success, false);
      assert.equal(UserListResponse.safeParse({ totalCount: 1 }).success, false);
    });
  });

  describe('process categories', () => {
    it('Color is a string or an object (its structure is not shown)', () => {
      assert.equal(Color.safeParse('#ff0000').success, true);
      assert.deepEqual(Color.parse({ r: 255, g: 0, b: 0, a: 1 }), { r: 255, g: 0, b: 0, a: 1 });
      assert.equal(Color.safeParse(255).success, false);
      assert.equal(ProcessCategory.safeParse(category({ color: { name: 'red' } })).success, true);
      assert.equal(ProcessCategory.safeParse(category({ color: null })).success, true);
    });

    it('keeps unknown members; rejects wrong known shapes', () => {
      const c = ProcessCategory.parse(category({ icon: 'x' }));
      assert.equal((c as Record<string, unknown>).icon, 'x');
      assert.equal(ProcessCategory.safeParse(category({ displayOrder: '1' })).success, false);
      assert.equal(ProcessCategoryListResponse.safeParse({ totalCount: 1, data: [category()] }).success, true);
    });
  });

  describe('list queries (strict)', () => {
    it('organization users: name, englishName, code; nothing else', () => {
      assert.equal(OrganizationUsersQuery.safeParse({ name: 'a', englishName: 'b', code: 'c' }).success, true);
      assert.equal(OrganizationUsersQuery.safeParse({ keyword: 'a' }).success, false);
    });

    it('all assigned users also take keyword', () => {
      assert.equal(AllAssignedUsersQuery.safeParse({ keyword: 'a', name: 'b' }).success, true);
      assert.equal(AllAssignedUsersQuery.safeParse({ limit: 5 }).success, false);
    });

    it('process categories: paging, ordering and deleted filters', () => {
      assert.equal(ProcessCategoriesQuery.safeParse({ limit: 50, offset: 0, orderby: 'name desc', includeDeleted: true, isDeleted: true }).success, true);
      assert.equal(ProcessCategoriesQuery.safeParse({ orderby: 'displayOrder' }).success, true);
      for (const bad of [{ limit: -1 }, { offset: 1.5 }, { orderby: 'name; drop' }, { orderby: 'name sideways' }, { page: 1 }]) {
        assert.equal(ProcessCategoriesQuery.safeParse(bad).success, false, JSON.stringify(bad));
      }
      const e = ProcessCategoriesQuery.safeParse({ orderby: 'name up' });
      assert.match(e.error!.issues[0]!.message, /orderby must be a field name, optionally followed by " asc" or " desc"/);
    });
  });

  describe('work-item answers (GET /workitem/workItems/{ids})', () => {
    const good: unknown[] = [
      [],
      [{ fields: { Id: '1', Name: 'A', Assignments: [{ UserId: '2' }], Novel: { x: 1 } }, isWarning: false, warnings: [], aclId: null, permission: 3, extra: 'kept' }],
      [{ fields: {} }, { fields: Object.create(null) as object, isWarning: null }],
    ];
    const bad: unknown[] = [
      {},
      [1],
      [{ isWarning: false }],
      [{ fields: [] }],
      [{ fields: null }],
      [{ fields: 'x' }],
      [{ fields: new Date(0) }],
      [{ fields: {}, isWarning: 'yes' }],
      [{ fields: {}, warnings: 3 }],
      [{ fields: {}, permission: '3' }],
      [{ fields: {}, aclId: 4 }],
    ];

    it('have a compiled checker that agrees with zod on good and bad shapes', () => {
      const check = fastChecker(WorkItemsResponse);
      assert.ok(check, 'a compiled checker, not zod alone');
      for (const v of good) assert.equal(check(v), true, JSON.stringify(v));
      for (const v of bad) {
        assert.equal(check(v), false, JSON.stringify(v));
        assert.equal(WorkItemsResponse.safeParse(v).success, false, JSON.stringify(v));
      }
    });

    const raw = (value: unknown) => {
      const body = Buffer.from(JSON.stringify(value));
      return { status: 200, headers: {}, body, size: body.length };
    };
    const spec = { method: 'GET', path: '/workitem/workItems/1', schema: WorkItemsResponse };

    it('a good answer is checked in place (the compiled path, no zod copy), unknown members kept', () => {
      // A large answer: the compiled path keeps its text beside it (rawJsonOf), which the zod path never does.
      const big = Array.from({ length: 200 }, (_, i) => ({ fields: { Id: String(1000 + i), Name: `Item ${i}`, Novel: [i] }, isWarning: false, extra: 'kept' }));
      const value = readAnswer({ ...spec, keepText: true }, raw(big), []);
      assert.deepEqual(value, big);
      assert.ok(rawJsonOf(value), 'checked by the compiled checker');
      // The same answer with one bad record goes to zod, which refuses it.
      const broken = [...big.slice(0, 199), { fields: 7 }];
      assert.throws(() => readAnswer({ ...spec, keepText: true }, raw(broken), []), /response\[199\]\.fields|invalid/);
    });

    it('a bad answer is an invalid-response error naming the path, as zod words it', () => {
      const cases: [unknown, RegExp][] = [
        [[{ isWarning: false }], /response\[0\]\.fields/],
        [[{ fields: [] }], /response\[0\]\.fields/],
        [[{ fields: {}, permission: '3' }], /response\[0\]\.permission/],
        [{}, /response/],
      ];
      for (const [value, message] of cases) {
        let caught: unknown;
        try {
          readAnswer(spec, raw(value), []);
        } catch (e) {
          caught = e;
        }
        assert.ok(isServiceError(caught), JSON.stringify(value));
        assert.equal(caught.kind, 'invalid-response');
        assert.match(caught.messages.join('\n'), message, JSON.stringify(value));
      }
    });
  });
});
