import * as assert from 'node:assert/strict';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { PROCESS_CATEGORY_ORDER_FIELDS } from '../../src/schema/api';
import { bearer, call, DatasetBuilder, signIn } from './sandbox-server-fixtures';

interface ListBody<T> {
  totalCount: number;
  data: T[];
}
type U = Record<string, unknown> & { id: string };

// Organization tree: A -> B -> C -> D, and A -> E.
function usersDataset() {
  return new DatasetBuilder()
    .org('A', null, 'Head Office')
    .org('B', 'A', 'Engineering')
    .org('C', 'B', 'Platform Team')
    .org('D', 'C', 'Storage Squad')
    .org('E', 'A', 'Sales')
    .user('a1', 'A', { name: '管理 太郎', englishName: 'Taro Kanri', code: 'A-001' })
    .user('b1', 'B', { name: '佐藤 花子', englishName: 'Hanako Sato', code: 'ENG-010', loginName: 'hsato', ldapLoginName: 'CORP\\hanako', email: 'hanako@example.com' })
    .user('b2', 'B', { name: '鈴木 一郎', englishName: 'Ichiro Suzuki', code: 'ENG-020', loginName: 'isuzuki', email: 'ichiro@example.org', isDeleted: true })
    .user('c1', 'C', { name: '高橋 健太', englishName: 'Kenta Takahashi', code: 'PLT-001', loginName: 'ktakahashi', ldapLoginName: 'CORP\\kenta' })
    .user('d1', 'D', { name: 'John Smith', englishName: 'John Smith', code: 'STO-001', loginName: 'jsmith', email: 'john@storage.example.com' })
    .user('e1', 'E', { name: '田中 美咲', englishName: 'Misaki Tanaka', code: 'SAL-001', loginName: 'mtanaka', password: 'secret' })
    .build();
}

function categoriesDataset() {
  const b = new DatasetBuilder().org('A', null).user('a1', 'A', { loginName: 'admin', password: 'password' });
  // 12 categories: displayOrder descending with id, every third deleted.
  for (let i = 1; i <= 12; i++) {
    b.category(`pc${String(i).padStart(2, '0')}`, {
      name: i % 2 === 0 ? `Design ${i}` : `Build ${i}`,
      code: i % 4 === 0 ? `DSN-${i}` : `BLD-${i}`,
      displayOrder: 100 - i,
      isDeleted: i % 3 === 0,
      groupId: `g${i % 2}`,
    });
  }
  return b.build();
}

describe('sandbox lists', () => {
  let sb: Sandbox;
  let auth: Record<string, string>;
  const get = async <T>(path: string) => {
    const r = await call(`${sb.url}${path}`, { headers: auth });
    return { ...r, body: r.json as T };
  };
  const ids = (body: ListBody<U>) => body.data.map((u) => u.id).sort();

  describe('operation 2: users who belong to the organizations below a given organization (allassignedusers)', () => {
    before(async () => {
      sb = await createSandbox({ data: usersDataset() });
      auth = { authorization: `Basic ${Buffer.from('login-a1:password').toString('base64')}` };
    });
    after(() => sb.close());

    it('returns the users of every organization below, at any depth, but not the organization\'s own users', async () => {
      const r = await get<ListBody<U>>('/system/organizations/A/allassignedusers');
      assert.equal(r.status, 200);
      assert.deepEqual(ids(r.body), ['b1', 'b2', 'c1', 'd1', 'e1']);
      assert.equal(r.body.totalCount, 5);
      const c = await get<ListBody<U>>('/system/organizations/C/allassignedusers');
      assert.deepEqual(ids(c.body), ['d1']);
    });

    it('returns an empty list for an organization with nothing below it', async () => {
      const r = await get<ListBody<U>>('/system/organizations/D/allassignedusers');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { totalCount: 0, data: [] });
    });

    it('answers an unknown organization with 200 and an empty list (the spec defines no error cases)', async () => {
      const r = await get<ListBody<U>>('/system/organizations/nope/allassignedusers');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { totalCount: 0, data: [] });
    });

    it('name: partial match on user name (case-insensitive)', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>(`/system/organizations/A/allassignedusers?name=${encodeURIComponent('佐藤')}`)).body), ['b1']);
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/A/allassignedusers?name=smi')).body), ['d1']);
    });

    it('code: partial match on user code', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/A/allassignedusers?code=eng-')).body), ['b1', 'b2']);
    });

    it('englishName: partial match on English name', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/A/allassignedusers?englishName=TAKA')).body), ['c1']);
    });

    it('filters combine: every given filter must match', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/A/allassignedusers?code=ENG&englishName=ichiro')).body), ['b2']);
    });

    const keywordCases: [string, string, string[]][] = [
      ['user name', '鈴木', ['b2']],
      ['English name', 'misaki', ['e1']],
      ['code', 'PLT', ['c1']],
      ['organization name', 'storage squad', ['d1']],
      ['login name', 'hsato', ['b1']],
      ['LDAP login name', 'corp\\kenta', ['c1']],
      ['e-mail address', 'example.org', ['b2']],
    ];
    for (const [field, keyword, expected] of keywordCases) {
      it(`keyword matches users whose ${field} contains the keyword`, async () => {
        const r = await get<ListBody<U>>(`/system/organizations/A/allassignedusers?keyword=${encodeURIComponent(keyword)}`);
        assert.deepEqual(ids(r.body), expected);
        assert.equal(r.body.totalCount, expected.length);
      });
    }

    it('keyword matches the organization name of a whole organization', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/A/allassignedusers?keyword=engineering')).body), ['b1', 'b2']);
    });

    it('matches query parameter names case-insensitively', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/A/allassignedusers?KEYWORD=hsato')).body), ['b1']);
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/A/allassignedusers?EnglishName=kenta')).body), ['c1']);
    });

    it('returns every user field of the spec with organizationName derived, and never the password', async () => {
      const r = await get<ListBody<U>>('/system/organizations/A/allassignedusers?keyword=hsato');
      const u = r.body.data[0]!;
      for (const f of [
        'id', 'name', 'englishName', 'loginName', 'ldapLoginName', 'email', 'code', 'description', 'organizationId', 'organizationName', 'avatarUrl', 'language',
        'timeZone', 'isDeleted', 'unitCost', 'timeEntryLockedDate', 'systemRoleId', 'systemRoleName', 'canEdit', 'aclId', 'permission', 'createdAt', 'createdBy',
        'updatedAt', 'updatedBy',
      ]) {
        assert.ok(f in u, `missing ${f}`);
      }
      assert.equal(u.organizationName, 'Engineering');
      assert.ok(!('password' in u));
      assert.ok(!r.text.includes('"password"'));
    });

    it('lists deleted users with isDeleted true', async () => {
      const r = await get<ListBody<U>>('/system/organizations/A/allassignedusers?name=鈴木');
      assert.equal(r.body.data[0]!.isDeleted, true);
    });

    it('answers a repeated query parameter with a 400 naming it', async () => {
      const r = await get<unknown>('/system/organizations/A/allassignedusers?name=a&NAME=b');
      assert.equal(r.status, 400);
      assert.match((r.json as { message: string }[])[0]!.message, /"name" is given more than once/);
    });
  });

  describe('operation 3: users who belong directly to a given organization (users)', () => {
    before(async () => {
      sb = await createSandbox({ data: usersDataset() });
      auth = bearer(await signIn(sb.url, 'login-a1'));
    });
    after(() => sb.close());

    it('returns only the users who belong directly to the organization', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/B/users')).body), ['b1', 'b2']);
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/A/users')).body), ['a1']);
    });

    it('users of the organizations below come from operation 2, not from this one', async () => {
      const direct = ids((await get<ListBody<U>>('/system/organizations/A/users')).body);
      const below = ids((await get<ListBody<U>>('/system/organizations/A/allassignedusers')).body);
      assert.deepEqual(direct.filter((x) => below.includes(x)), []);
    });

    it('name, englishName and code: partial matches', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/B/users?name=花子')).body), ['b1']);
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/B/users?englishName=suzuki')).body), ['b2']);
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/B/users?code=020')).body), ['b2']);
      assert.equal((await get<ListBody<U>>('/system/organizations/B/users?code=zzz')).body.totalCount, 0);
    });

    it('has no keyword parameter: keyword is ignored', async () => {
      assert.deepEqual(ids((await get<ListBody<U>>('/system/organizations/B/users?keyword=hsato')).body), ['b1', 'b2']);
    });

    it('answers an unknown organization with 200 and an empty list', async () => {
      const r = await get<ListBody<U>>('/system/organizations/unknown/users');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { totalCount: 0, data: [] });
    });

    it('needs sign-in', async () => {
      const r = await call(`${sb.url}/system/organizations/B/users`);
      assert.equal(r.status, 401);
    });
  });

  describe('operation 4: process categories', () => {
    type C = { id: string; name: string; code: string; isDeleted: boolean; displayOrder: number; groupId: string };
    before(async () => {
      sb = await createSandbox({ data: categoriesDataset() });
      auth = bearer(await signIn(sb.url));
    });
    after(() => sb.close());
    const cats = (path: string) => get<ListBody<C>>(`/system/processCategories${path}`);
    const idsOf = (b: ListBody<C>) => b.data.map((c) => c.id);
    const live = ['pc01', 'pc02', 'pc04', 'pc05', 'pc07', 'pc08', 'pc10', 'pc11'];

    it('lists non-deleted records by default, in displayOrder', async () => {
      const r = await cats('');
      assert.equal(r.status, 200);
      assert.equal(r.body.totalCount, 8);
      // displayOrder is 100 - i: pc11 (89) first.
      assert.deepEqual(idsOf(r.body), [...live].reverse());
    });

    it('name: name filter (partial, case-insensitive)', async () => {
      const r = await cats('?name=design');
      assert.deepEqual(idsOf(r.body).sort(), ['pc02', 'pc04', 'pc08', 'pc10']);
    });

    it('code: code filter (partial)', async () => {
      const r = await cats('?code=DSN');
      assert.deepEqual(idsOf(r.body).sort(), ['pc04', 'pc08']);
    });

    it('keyword: process categories whose name or code contains the keyword', async () => {
      // "dsn" is only in codes; "build 1" is only in names (Build 1, Build 11).
      assert.deepEqual(idsOf((await cats('?keyword=dsn')).body).sort(), ['pc04', 'pc08']);
      assert.deepEqual(idsOf((await cats('?keyword=build%201')).body).sort(), ['pc01', 'pc11']);
    });

    it('limit: maximum number of records to return; totalCount counts the matches before paging', async () => {
      const r = await cats('?limit=3');
      assert.equal(r.body.totalCount, 8);
      assert.equal(r.body.data.length, 3);
    });

    it('offset: index of the first record to return; default 0 (start from the first record)', async () => {
      const all = idsOf((await cats('')).body);
      assert.deepEqual(idsOf((await cats('?limit=3&offset=0')).body), all.slice(0, 3));
      assert.deepEqual(idsOf((await cats('?limit=3')).body), all.slice(0, 3));
      const r = await cats('?limit=3&offset=6');
      assert.deepEqual(idsOf(r.body), all.slice(6, 9));
      assert.equal(r.body.totalCount, 8);
    });

    it('pages through every record exactly once', async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < 8; offset += 3) seen.push(...idsOf((await cats(`?limit=3&offset=${offset}&orderby=code`)).body));
      assert.deepEqual([...seen].sort(), [...live].sort());
    });

    it('an offset past the end returns no records but the full totalCount', async () => {
      const r = await cats('?offset=100');
      assert.deepEqual(r.body, { totalCount: 8, data: [] });
    });

    it('limit=0 returns no records, only the totalCount', async () => {
      const r = await cats('?limit=0&name=design');
      assert.deepEqual(r.body, { totalCount: 4, data: [] });
    });

    it('totalCount is the number matching the conditions (filters), counted before paging', async () => {
      const r = await cats('?name=design&limit=1&offset=1');
      assert.equal(r.body.totalCount, 4);
      assert.equal(r.body.data.length, 1);
    });

    it('orderby "field" sorts ascending by default', async () => {
      const r = await cats('?orderby=id');
      assert.deepEqual(idsOf(r.body), live);
    });

    it('orderby "field asc" sorts ascending', async () => {
      assert.deepEqual(idsOf((await cats('?orderby=id%20asc')).body), live);
      assert.deepEqual(idsOf((await cats('?orderby=displayOrder+asc')).body), [...live].reverse());
    });

    it('orderby "field desc" sorts descending', async () => {
      assert.deepEqual(idsOf((await cats('?orderby=id%20desc')).body), [...live].reverse());
    });

    it('orderby matches field names and directions case-insensitively', async () => {
      assert.deepEqual(idsOf((await cats('?OrderBy=ID%20DESC')).body), [...live].reverse());
    });

    it('orderby with an unknown field is a 400 naming the allowed fields', async () => {
      const r = await cats('?orderby=colour');
      assert.equal(r.status, 400);
      const [e] = r.json as { message: string; code: string }[];
      assert.equal(e!.code, 'INVALID_ORDERBY');
      assert.match(e!.message, /colour/);
      for (const f of PROCESS_CATEGORY_ORDER_FIELDS) assert.ok(e!.message.includes(f), `allowed field ${f} not named`);
    });

    it('orderby with a direction other than asc or desc is a 400', async () => {
      const r = await cats('?orderby=name%20up');
      assert.equal(r.status, 400);
      assert.match(r.text, /asc or desc/);
    });

    it('orderby sorts before paging', async () => {
      assert.deepEqual(idsOf((await cats('?orderby=id%20desc&limit=2&offset=1')).body), ['pc10', 'pc08']);
    });

    it('includeDeleted=true: deleted records are included', async () => {
      const r = await cats('?includeDeleted=true&orderby=id');
      assert.equal(r.body.totalCount, 12);
      assert.ok(r.body.data.some((c) => c.isDeleted));
    });

    it('includeDeleted=false: only non-deleted records', async () => {
      const r = await cats('?includeDeleted=false&orderby=id');
      assert.deepEqual(idsOf(r.body), live);
    });

    it('isDeleted is effective only when includeDeleted is true: without includeDeleted it is ignored', async () => {
      assert.deepEqual(idsOf((await cats('?isDeleted=true&orderby=id')).body), live);
      assert.deepEqual(idsOf((await cats('?isDeleted=false&orderby=id')).body), live);
    });

    it('isDeleted is ignored when includeDeleted is false', async () => {
      assert.deepEqual(idsOf((await cats('?includeDeleted=false&isDeleted=true&orderby=id')).body), live);
    });

    it('includeDeleted=true and isDeleted=true: only deleted records', async () => {
      const r = await cats('?includeDeleted=true&isDeleted=true&orderby=id');
      assert.deepEqual(idsOf(r.body), ['pc03', 'pc06', 'pc09', 'pc12']);
      assert.equal(r.body.totalCount, 4);
    });

    it('includeDeleted=true and isDeleted=false: only non-deleted records', async () => {
      assert.deepEqual(idsOf((await cats('?includeDeleted=true&isDeleted=false&orderby=id')).body), live);
    });

    it('filters, deleted options, ordering and paging combine', async () => {
      const r = await cats('?includeDeleted=true&isDeleted=true&name=design&orderby=id%20desc&limit=1');
      assert.deepEqual(r.body, { totalCount: 2, data: [r.body.data[0]] });
      assert.equal(r.body.data[0]!.id, 'pc12');
    });

    const badParams: [string, string][] = [
      ['limit', 'ten'],
      ['limit', '-1'],
      ['limit', '1.5'],
      ['limit', '1001'],
      ['offset', '-3'],
      ['offset', 'x'],
      ['includeDeleted', 'yes'],
      ['isDeleted', '1'],
    ];
    for (const [name, value] of badParams) {
      it(`an invalid ${name} (${value}) is a 400 naming the parameter and the value`, async () => {
        const r = await cats(`?${name}=${encodeURIComponent(value)}`);
        assert.equal(r.status, 400);
        const [e] = r.json as { message: string; code: string; parameter: string; value: string }[];
        assert.equal(e!.code, 'INVALID_QUERY_PARAMETER');
        assert.equal(e!.parameter, name);
        assert.equal(e!.value, value);
        assert.ok(e!.message.includes(name) && e!.message.includes(value), e!.message);
      });
    }

    it('accepts limit up to 1000 and boolean values in any case', async () => {
      assert.equal((await cats('?limit=1000&includeDeleted=TRUE')).body.totalCount, 12);
    });

    it('needs no permission beyond sign-in (a viewer may list)', async () => {
      const s2 = await createSandbox();
      try {
        const t = await signIn(s2.url, 'viewer');
        const r = await call(`${s2.url}/system/processCategories`, { headers: bearer(t) });
        assert.equal(r.status, 200);
      } finally {
        await s2.close();
      }
    });
  });

  describe('the demo data set', () => {
    before(async () => {
      sb = await createSandbox();
      auth = bearer(await signIn(sb.url));
    });
    after(() => sb.close());

    it('has at least 25 process categories (so paging shows), some deleted, with colours and groups', async () => {
      const r = await get<ListBody<{ isDeleted: boolean; color: string; groupId: string }>>('/system/processCategories?includeDeleted=true');
      assert.ok(r.body.totalCount >= 25);
      assert.ok(r.body.data.some((c) => c.isDeleted));
      assert.ok(r.body.data.every((c) => /^#[0-9a-f]{6}$/i.test(c.color) && c.groupId));
    });

    it('has dozens of users below the root organization, over several levels', async () => {
      const r = await get<ListBody<U>>('/system/organizations/1001/allassignedusers');
      assert.ok(r.body.totalCount >= 24, String(r.body.totalCount));
      const orgs = new Set(r.body.data.map((u) => u.organizationId));
      assert.ok(orgs.has('1011') && orgs.has('1002') && orgs.has('1014'));
    });
  });
});
