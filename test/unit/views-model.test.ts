import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ServiceClient } from '../../src/api/client';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox/index';
import type { DatasetInput } from '../../src/sandbox/model';
import { OrgDiscovery, summarizeBelow } from '../../src/organizations/model/discovery';
import { groupSize, rangeChildren, rangeLabel, rangePath, sortByName } from '../../src/views/model/ranges';
import { PagedList, PagedLoader } from '../../src/views/model/paging';
import { parseSortText, sortText } from '../../src/views/model/sort';
import {
  allUsersQuery,
  categoriesQuery,
  CATEGORY_FILTER_FIELDS,
  directUsersQuery,
  formatFilter,
  matchesKeyword,
  parseFilter,
  USER_FILTER_FIELDS,
} from '../../src/views/model/filters';
import { swatchSvg, toHexColor } from '../../src/views/model/colors';
import { signedInClient } from './sandbox-client';

/**
 * What discovery can show: organizations that have users of their own, each under its
 * nearest ancestor that also has users (or under the root asked for).
 */
function expectedChildren(data: DatasetInput, rootId: string): Map<string, string[]> {
  const parent = new Map(data.organizations!.map((o) => [o.id, o.parentId]));
  const withUsers = new Set(data.users!.map((u) => u.organizationId));
  const isBelow = (id: string, ancestor: string): boolean => {
    for (let p = parent.get(id); p; p = parent.get(p)) if (p === ancestor) return true;
    return false;
  };
  const out = new Map<string, string[]>();
  for (const id of withUsers) {
    if (id === rootId || !isBelow(id, rootId)) continue;
    let p = parent.get(id)!;
    while (p !== rootId && !withUsers.has(p)) p = parent.get(p)!;
    out.set(p, [...(out.get(p) ?? []), id].sort());
  }
  return out;
}

describe('views: sub-organization discovery from users, the fallback without subOrganizations (against the sandbox)', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    client = await signedInClient(sandbox);
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  const discovery = () =>
    new OrgDiscovery(async (orgId, signal) => summarizeBelow(orgId, (await client.listAllAssignedUsers(orgId, {}, { signal })).data));

  it('tells direct sub-organizations of the demo root from deeper ones', async () => {
    const d = discovery();
    const children = await d.childrenOf('1001');
    assert.deepEqual(children.map((c) => c.id).sort(), ['1002', '1003', '1004']);
    assert.ok(children.every((c) => c.name && c.name !== c.id), 'names come from organizationName');
    const dev = await d.childrenOf('1002');
    assert.deepEqual(dev.map((c) => c.id).sort(), ['1005', '1006']);
    assert.deepEqual((await d.childrenOf('1011')).map((c) => c.id), []);
  });

  it('asks each organization at most once, however the tree is expanded', async () => {
    const d = discovery();
    const walk = async (id: string): Promise<number> => {
      let n = 1;
      for (const c of await d.childrenOf(id)) n += await walk(c.id);
      return n;
    };
    const nodes = await walk('1001');
    assert.equal(d.requests, nodes, 'one operation-2 request per organization shown');
    await d.childrenOf('1001');
    assert.equal(d.requests, nodes, 'a second expansion is served from the cache');
  });

  it('rebuilds the hierarchy of a generated data set, minus organizations without users', async () => {
    const data = generateDataset({ users: 400, organizations: 40, seed: 7 });
    const gen = await createSandbox({ port: 0, data });
    const c = await signedInClient(gen);
    try {
      const d = new OrgDiscovery(async (orgId, signal) => summarizeBelow(orgId, (await c.listAllAssignedUsers(orgId, {}, { signal })).data));
      const expected = expectedChildren(data, '1');
      const seen = new Map<string, string[]>();
      const walk = async (id: string): Promise<void> => {
        const kids = (await d.childrenOf(id)).map((k) => k.id).sort();
        if (kids.length) seen.set(id, kids);
        for (const k of kids) await walk(k);
      };
      await walk('1');
      assert.deepEqual(new Map([...seen].sort()), new Map([...expected].sort()));
    } finally {
      await c.close();
      await gen.close();
    }
  });

  it('a failed request is not cached: the next call asks again', async () => {
    let calls = 0;
    const d = new OrgDiscovery(async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
      return new Map();
    });
    await assert.rejects(d.childrenOf('x'), /boom/);
    assert.deepEqual(await d.childrenOf('x'), []);
    assert.equal(calls, 2);
  });
});

describe('views: grouping large lists into ranges', () => {
  it('lists up to 200 items directly', () => {
    assert.equal(groupSize(200), 0);
    assert.deepEqual(rangeChildren(0, 3), [{ kind: 'item', index: 0 }, { kind: 'item', index: 1 }, { kind: 'item', index: 2 }]);
  });

  it('never gives a node more than 200 children, for any size up to 10 million', () => {
    for (const n of [201, 999, 1000, 10_001, 100_000, 123_457, 1_000_000, 10_000_000]) {
      const walk = (start: number, end: number, depth: number): number => {
        const kids = rangeChildren(start, end);
        assert.ok(kids.length <= 200, `${kids.length} children for [${start}, ${end})`);
        assert.ok(depth < 6);
        // Ranges are contiguous, cover the span exactly, and only the first one of each level is walked.
        let at = start;
        for (const k of kids) {
          if (k.kind === 'range') {
            assert.equal(k.start, at);
            at = k.end;
          } else {
            assert.equal(k.index, at);
            at++;
          }
        }
        assert.equal(at, end);
        const first = kids[0]!;
        const last = kids[kids.length - 1]!;
        let leaves = 0;
        if (first.kind === 'range') leaves = walk(first.start, first.end, depth + 1);
        if (last.kind === 'range' && last !== first) walk(last.start, last.end, depth + 1);
        return leaves;
      };
      walk(0, n, 0);
    }
  });

  it('100,000 users make 10 ranges of 10,000, each 100 ranges of 100', () => {
    const top = rangeChildren(0, 100_000);
    assert.equal(top.length, 10);
    assert.equal(rangeLabel(top[0] as { start: number; end: number }), '[0..9999]');
    const mid = rangeChildren(10_000, 20_000);
    assert.equal(mid.length, 100);
    assert.deepEqual(mid[1], { kind: 'range', start: 10_100, end: 10_200 });
  });

  it('rangePath leads from the top to the range that lists an index (for getParent)', () => {
    assert.deepEqual(rangePath(150, 42), []);
    assert.deepEqual(rangePath(100_000, 12_345), [
      { start: 10_000, end: 20_000 },
      { start: 12_300, end: 12_400 },
    ]);
    // The last partial range.
    assert.deepEqual(rangePath(1_050, 1_049), [{ start: 1_000, end: 1_050 }]);
    for (const [total, index] of [[250, 0], [99_999, 99_998], [1_000_001, 1_000_000]] as const) {
      const path = rangePath(total, index);
      const leaf = path[path.length - 1]!;
      assert.ok(rangeChildren(leaf.start, leaf.end).some((c) => c.kind === 'item' && c.index === index));
    }
  });
});

describe('views: users in name order', () => {
  it('sorts in place by name, then login name, then ID, with numbers in numeric order', () => {
    const users = [
      { id: '3', name: 'user 10', loginName: 'u10' },
      { id: '1', name: 'User 2', loginName: 'b' },
      { id: '2', name: 'user 2', loginName: 'a' },
      { id: '4', name: 'Abe', loginName: null },
    ];
    const same = sortByName(users, 'en');
    assert.equal(same, users, 'sorted in place, no copy');
    assert.deepEqual(users.map((u) => u.id), ['4', '2', '1', '3']);
  });

  it('orders exactly as comparing name, login name and ID with the collator would (precomputed keys)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.string({ maxLength: 3 }),
            name: fc.constantFrom('Abe', 'abe', 'ABE', 'Åbe', 'user 2', 'User 10', '阿部', 'あべ', 'アベ', ''),
            loginName: fc.option(fc.constantFrom('a', 'A', 'b', 'x2', 'x10'), { nil: null }),
          }),
          { maxLength: 40 },
        ),
        fc.constantFrom('en', 'ja'),
        (list, locale) => {
          const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
          const expected = [...list].sort(
            (a, b) => collator.compare(a.name, b.name) || collator.compare(a.loginName ?? '', b.loginName ?? '') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
          );
          const key = (u: (typeof list)[number]) => [collator.compare(u.name, ''), u.name.toLowerCase(), u.loginName ?? '', u.id].join('|');
          const got = sortByName([...list], locale);
          // Entries that compare equal in every key may come in either order.
          for (let i = 0; i < got.length; i++) {
            const g = got[i]!;
            const e = expected[i]!;
            assert.ok(collator.compare(g.name, e.name) === 0 && collator.compare(g.loginName ?? '', e.loginName ?? '') === 0 && g.id === e.id, `${key(g)} at ${i}, expected ${key(e)}`);
          }
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });

  it('makes range labels read alphabetically for a generated organization', () => {
    const data = generateDataset({ users: 500, organizations: 1, workItems: 2, processCategories: 0, seed: 7 });
    const users = sortByName((data.users ?? []).map((u) => ({ id: u.id, name: u.name, loginName: u.loginName })), 'ja');
    const collator = new Intl.Collator('ja', { numeric: true, sensitivity: 'base' });
    for (let i = 1; i < users.length; i++) assert.ok(collator.compare(users[i - 1]!.name, users[i]!.name) <= 0, `${users[i - 1]!.name} before ${users[i]!.name}`);
  });
});

describe('views: paging state (against the sandbox)', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  before(async () => {
    sandbox = await createSandbox({ port: 0, data: generateDataset({ users: 10, organizations: 2, processCategories: 23, seed: 3 }) });
    client = await signedInClient(sandbox);
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it('Load More walks the list page by page and stops at totalCount', async () => {
    const list = new PagedList<{ id: string }>(10);
    assert.equal(list.hasMore, true);
    assert.deepEqual(list.nextPage(), { limit: 10, offset: 0 });
    let pages = 0;
    while (list.hasMore) {
      list.append(await client.listProcessCategories(list.nextPage()));
      pages++;
      assert.ok(pages < 10);
    }
    const all = await client.listProcessCategories({ limit: 1000 });
    assert.equal(pages, Math.ceil(all.totalCount / 10));
    assert.deepEqual(
      list.loaded.map((c) => c.id),
      all.data.map((c) => c.id),
    );
    assert.equal(list.totalCount, all.totalCount);
  });

  it('a repeated record (the list shifted between pages) is kept once', () => {
    const list = new PagedList<{ id: string }>(2);
    list.append({ totalCount: 4, data: [{ id: 'a' }, { id: 'b' }] });
    assert.equal(list.append({ totalCount: 5, data: [{ id: 'b' }, { id: 'c' }] }), 1);
    assert.deepEqual(list.nextPage(), { limit: 2, offset: 4 });
    list.append({ totalCount: 5, data: [{ id: 'd' }] });
    assert.equal(list.hasMore, false, 'a short page ends the list');
    assert.deepEqual(list.loaded.map((x) => x.id), ['a', 'b', 'c', 'd']);
  });

  it('rejects a page size that is not a positive integer', () => {
    assert.throws(() => new PagedList(0), RangeError);
  });

  /** A loader of the sandbox's process categories that records what it was told. */
  const categoriesLoader = (pageSize: number) => {
    const seen = { fetches: 0, failures: [] as unknown[], changes: 0 };
    const loader = new PagedLoader<{ id: string }>(pageSize, {
      fetch: (page, signal) => {
        seen.fetches++;
        return client.listProcessCategories(page, { signal });
      },
      failed: (e) => seen.failures.push(e),
      changed: () => seen.changes++,
    });
    return { loader, seen };
  };
  const fault = async (spec: Record<string, unknown>): Promise<void> => {
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    assert.equal(r.status, 200, await r.text());
  };
  afterEach(async () => {
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
  });

  it('PagedLoader: one page at a time (a second Load More while one loads asks nothing more), then nothing once all are loaded', async () => {
    const { loader, seen } = categoriesLoader(10);
    const first = loader.loadMore();
    assert.equal(loader.state.kind, 'loading');
    assert.equal(loader.loadMore(), first);
    await first;
    assert.equal(seen.fetches, 1);
    while (loader.list.hasMore) await loader.loadMore();
    const fetches = seen.fetches;
    await loader.loadMore();
    assert.equal(seen.fetches, fetches, 'no request once every page is loaded');
    const all = await client.listProcessCategories({ limit: 1000 });
    assert.deepEqual(
      loader.list.loaded.map((c) => c.id),
      all.data.map((c) => c.id),
    );
    assert.equal(loader.state.kind, 'idle');
    assert.equal(seen.changes, fetches, 'told once per settled page');
  });

  it('PagedLoader: a failed page is kept as the failure (told once); Load More retries only after clearFailure', async () => {
    const { loader, seen } = categoriesLoader(10);
    await fault({ status: 500, pathContains: '/system/processCategories' });
    await loader.loadMore();
    assert.equal(loader.state.kind, 'failed');
    assert.equal(seen.failures.length, 1);
    assert.ok(loader.failure !== undefined);
    assert.equal(loader.list.started, false, 'nothing appended');
    loader.clearFailure();
    await loader.loadMore();
    assert.equal(loader.state.kind, 'idle');
    assert.equal(loader.failure, undefined);
    assert.equal(loader.list.loaded.length, 10);
  });

  it('PagedLoader: reset while a page loads aborts it, drops its answer and is no failure; the caller\'s signal too', async () => {
    const { loader, seen } = categoriesLoader(10);
    await fault({ latencyMs: 2000, pathContains: '/system/processCategories' });
    const pending = loader.loadMore();
    await new Promise((r) => setTimeout(r, 100)); // the request reaches the sandbox (and takes its fault)
    loader.reset(5);
    await pending;
    assert.equal(loader.state.kind, 'idle');
    assert.equal(seen.failures.length, 0);
    assert.equal(loader.list.started, false);
    assert.equal(loader.list.pageSize, 5);
    await loader.loadMore();
    assert.equal(loader.list.loaded.length, 5, 'the new list reads its own first page');

    await fault({ latencyMs: 2000, pathContains: '/system/processCategories' });
    const controller = new AbortController();
    const aborted = loader.loadMore(controller.signal);
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await aborted;
    assert.equal(loader.state.kind, 'idle');
    assert.equal(seen.failures.length, 0, 'a cancel is not a failure');
    assert.equal(loader.list.loaded.length, 5, 'nothing appended');
  });
});

describe('views: filter state', () => {
  it('reads fields, quoted values and bare keywords', () => {
    assert.deepEqual(parseFilter('name:Tanaka code:"E 01" sales', USER_FILTER_FIELDS, 'keyword'), {
      ok: true,
      filter: { name: 'Tanaka', code: 'E 01', keyword: 'sales' },
    });
    assert.deepEqual(parseFilter('  ', USER_FILTER_FIELDS, 'keyword'), { ok: true, filter: {} });
    assert.deepEqual(parseFilter('EnglishName:smith', USER_FILTER_FIELDS, 'keyword'), { ok: true, filter: { englishName: 'smith' } });
  });

  it('names the problem: unknown field, repeated field, empty value', () => {
    assert.deepEqual(parseFilter('email:x', USER_FILTER_FIELDS, 'keyword'), { ok: false, problem: 'unknown-field', field: 'email' });
    assert.deepEqual(parseFilter('name:a name:b', USER_FILTER_FIELDS, 'keyword'), { ok: false, problem: 'duplicate-field', field: 'name' });
    assert.deepEqual(parseFilter('name: x', USER_FILTER_FIELDS, 'keyword'), { ok: false, problem: 'empty-value', field: 'name' });
    assert.deepEqual(parseFilter('englishName:x', CATEGORY_FILTER_FIELDS, 'keyword'), { ok: false, problem: 'unknown-field', field: 'englishName' });
  });

  it('formats a filter back to text that reads the same', () => {
    const f = { name: 'a b', code: 'x"y', keyword: 'k' };
    const text = formatFilter(f, USER_FILTER_FIELDS);
    assert.deepEqual(parseFilter(text, USER_FILTER_FIELDS, 'keyword'), { ok: true, filter: f });
  });

  it('sends keyword to operation 2 only, and the other fields to both', () => {
    const f = { name: 'n', keyword: 'k', code: '' };
    assert.deepEqual(directUsersQuery(f), { name: 'n' });
    assert.deepEqual(allUsersQuery(f), { name: 'n', keyword: 'k' });
  });

  it('applies a keyword to direct users with operation 2\'s fields', () => {
    const u = { id: '1', name: '田中 美咲', englishName: 'Misaki Tanaka', loginName: 'mtanaka', email: 'm@example.com', organizationName: '営業部' };
    assert.equal(matchesKeyword(u, 'TANAKA'), true);
    assert.equal(matchesKeyword(u, '営業'), true);
    assert.equal(matchesKeyword(u, 'zzz'), false);
    assert.equal(matchesKeyword(u, undefined), true);
  });

  it('builds the process-category query: filter, order, deleted mode and page', () => {
    assert.deepEqual(categoriesQuery({ filter: { keyword: 'd' }, deleted: 'hide' }, { limit: 50, offset: 0 }), { keyword: 'd', limit: 50, offset: 0 });
    assert.deepEqual(
      categoriesQuery({ filter: {}, deleted: 'only', orderBy: { field: 'name', direction: 'desc' } }, { limit: 5, offset: 10 }),
      { limit: 5, offset: 10, orderby: 'name desc', includeDeleted: true, isDeleted: true },
    );
    assert.deepEqual(categoriesQuery({ filter: {}, deleted: 'include' }, { limit: 5, offset: 0 }), { limit: 5, offset: 0, includeDeleted: true });
  });

  it('filters process categories on the sandbox as the query says', async () => {
    const sandbox = await createSandbox({ port: 0 });
    const client = await signedInClient(sandbox);
    try {
      const all = await client.listProcessCategories(categoriesQuery({ filter: {}, deleted: 'include' }, { limit: 1000, offset: 0 }));
      const onlyDeleted = await client.listProcessCategories(categoriesQuery({ filter: {}, deleted: 'only' }, { limit: 1000, offset: 0 }));
      assert.ok(onlyDeleted.data.length > 0 && onlyDeleted.data.every((c) => c.isDeleted === true));
      const hidden = await client.listProcessCategories(categoriesQuery({ filter: {}, deleted: 'hide' }, { limit: 1000, offset: 0 }));
      assert.equal(hidden.totalCount + onlyDeleted.totalCount, all.totalCount);
      const sample = hidden.data[0]!;
      const byName = await client.listProcessCategories(categoriesQuery({ filter: { name: sample.name }, deleted: 'hide' }, { limit: 10, offset: 0 }));
      assert.ok(byName.data.some((c) => c.id === sample.id));
    } finally {
      await client.close();
      await sandbox.close();
    }
  });
});

describe('views: colour swatches', () => {
  it('reads the colour shapes a service may use', () => {
    assert.equal(toHexColor('#A1B2C3'), '#a1b2c3');
    assert.equal(toHexColor('a1b2c3'), '#a1b2c3');
    assert.equal(toHexColor('#abc'), '#aabbcc');
    assert.equal(toHexColor('#FFa1b2c3'), '#a1b2c3');
    assert.equal(toHexColor('rgb(255, 0, 16)'), '#ff0010');
    assert.equal(toHexColor({ r: 1, g: 2, b: 255 }), '#0102ff');
    assert.equal(toHexColor({ hex: '#010203' }), '#010203');
    assert.equal(toHexColor(0xff0000), '#ff0000');
  });
  it('gives undefined (fallback icon) for shapes it cannot read', () => {
    for (const v of [undefined, null, '', 'red', '#12345', { r: 300, g: 0, b: 0 }, { name: 'x' }, [1, 2, 3], -1, 1.5]) {
      assert.equal(toHexColor(v), undefined, JSON.stringify(v));
    }
  });
  it('draws a swatch in that colour, never with caller text in the SVG', () => {
    assert.match(swatchSvg('#a1b2c3'), /fill="#a1b2c3"/);
  });
});

describe('views: the sort pick reads a typed order', () => {
  const fields = ['id', 'name', 'code', 'displayOrder'];
  it('reads "code asc", "Code descending", "code", "-code" and "displayorder DESC"', () => {
    assert.deepEqual(parseSortText('code asc', fields), { field: 'code', direction: 'asc' });
    assert.deepEqual(parseSortText('Code descending', fields), { field: 'code', direction: 'desc' });
    assert.deepEqual(parseSortText('  code ', fields), { field: 'code', direction: 'asc' });
    assert.deepEqual(parseSortText('-code', fields), { field: 'code', direction: 'desc' });
    assert.deepEqual(parseSortText('displayorder DESC', fields), { field: 'displayOrder', direction: 'desc' });
    assert.deepEqual(parseSortText('Code, ascending', fields), { field: 'code', direction: 'asc' }, 'the label as shown reads back');
  });
  it('names no field for other text', () => {
    for (const t of ['', 'colour asc', 'code sideways', 'code asc desc', 'name; drop']) assert.equal(parseSortText(t, fields), undefined, t);
  });
  it('writes the orderby text a person types', () => {
    assert.equal(sortText({ field: 'code', direction: 'asc' }), 'code asc');
  });
});
