// A fixed sequence of requests to the sandbox over real HTTP (updates accepted and
// rejected, list pages, reads), each answer reduced to its status and a SHA-256 of
// its exact bytes, and the data set's dump after each update. Used by
// sandbox-answers.test.ts to show that the sandbox answers byte for byte what it
// answered before its speed-ups (test/unit/fixtures/sandbox-answers.json was written
// by this scenario against the sandbox before them).
import { createHash } from 'node:crypto';
import { request } from 'undici';
import { createSandbox, DEMO_PASSWORD, demoDataset, generateDataset } from '../../src/sandbox';
import type { DatasetInput } from '../../src/sandbox/model';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

async function send(url: string, method: 'GET' | 'PUT' | 'POST', headers: Record<string, string>, body?: unknown): Promise<{ status: number; text: string }> {
  const r = await request(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.statusCode, text: await r.body.text() };
}

/** Shuffle-free pick of every k-th element. */
const every = <T>(xs: readonly T[], k: number, from = 0): T[] => xs.filter((_, i) => i >= from && (i - from) % k === 0);

async function run(data: DatasetInput, password: string, steps: (ctx: { url: string; auth: Record<string, string>; ids: string[]; dump: () => string }) => AsyncGenerator<[string, Promise<{ status: number; text: string }>]>): Promise<Record<string, string>> {
  let tick = Date.UTC(2026, 10, 23, 9, 0, 0);
  const sb = await createSandbox({ data, now: () => new Date((tick += 1000)) });
  const out: Record<string, string> = {};
  try {
    const t = await send(`${sb.url}/auth/token`, 'POST', {}, { loginName: 'admin', password });
    const auth = { authorization: `Bearer ${(JSON.parse(t.text) as { token: string }).token}` };
    const ids = sb.data.workItems.map((w) => w.id);
    for await (const [name, answer] of steps({ url: sb.url, auth, ids, dump: () => JSON.stringify(sb.data) })) {
      const a = await answer;
      out[name] = `${a.status} ${sha(a.text)}`;
    }
    out['final dump'] = sha(JSON.stringify(sb.data));
  } finally {
    await sb.close();
  }
  return out;
}

export async function sandboxAnswers(): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  // Updates on the demo data set: every member kind, accepted and rejected requests.
  const updates = await run(demoDataset(), DEMO_PASSWORD, async function* ({ url, auth, ids, dump }) {
    const put = (list: readonly string[], body: unknown) => send(`${url}/workitem/workItems/${list.map(encodeURIComponent).join(',')}`, 'PUT', auth, body);
    const bodies: unknown[] = [
      { fields: { Description: 'checked' } },
      { fields: { Description: 'to all' }, propagateToChildren: { fields: 'Description' } },
      { fields: { Name: '' } },
      { fields: { Nope: 1 } },
      { moveScheduleDays: 3 },
      { moveScheduleDays: -100000 },
      { clearSchedule: true },
      { setCompleted: true },
      { setTimeEntryLocked: true },
      { fields: { ActualProgress: 50, PlannedTime: 120 } },
      { fields: { PlannedCost: 10.5 } },
      { fields: { PlannedStartDate: '2026-04-01', PlannedFinishDate: '2026-04-10' } },
      { fields: { PlannedStartDate: '2026-04-10', PlannedFinishDate: '2026-04-01' } },
      { moveParentTo: ids[1] },
      { moveParentTo: ids[ids.length - 1] },
      { changeItemTypeTo: 'task' },
      { assignmentChange: { adds: [{ partyId: '2001', partyType: 'User', plannedTime: 60 }] } },
      { fieldCalcTypes: { PlannedTime: 1 } },
      { restore: true },
      { isDeleted: true },
    ];
    for (let b = 0; b < bodies.length; b++) {
      for (const [k, from] of [[7, 0], [3, 1], [1, 2]] as const) {
        const list = every(ids, k, from + b).slice(0, 40);
        if (list.length === 0) continue;
        yield [`update ${b} ${JSON.stringify(bodies[b])} every ${k} from ${from + b}`, put(list, bodies[b])];
        yield [`dump after update ${b} every ${k}`, Promise.resolve({ status: 0, text: dump() })];
      }
      // One item at a time, so most are accepted.
      for (const id of every(ids, 9, b).slice(0, 12)) {
        yield [`update ${b} ${JSON.stringify(bodies[b])} of ${id}`, put([id], bodies[b])];
      }
      yield [`dump after update ${b} one at a time`, Promise.resolve({ status: 0, text: dump() })];
    }
    yield ['read some work items', send(`${url}/workitem/workItems/${every(ids, 5).slice(0, 50).join(',')}`, 'GET', auth)];
  });
  for (const [k, v] of Object.entries(updates)) result[`demo: ${k}`] = v;

  // Lists on a generated data set: users and process categories, filters, order, pages.
  const data = generateDataset({ users: 400, organizations: 12, workItems: 50, processCategories: 700, seed: 9 });
  const lists = await run(data, 'password', async function* ({ url, auth }) {
    const orgs = data.organizations ?? [];
    for (const o of orgs.slice(0, 4)) {
      yield [`allassignedusers ${o.id}`, send(`${url}/system/organizations/${o.id}/allassignedusers`, 'GET', auth)];
      yield [`allassignedusers ${o.id} keyword a`, send(`${url}/system/organizations/${o.id}/allassignedusers?keyword=a`, 'GET', auth)];
      yield [`users ${o.id}`, send(`${url}/system/organizations/${o.id}/users`, 'GET', auth)];
      yield [`users ${o.id} name e`, send(`${url}/system/organizations/${o.id}/users?name=e`, 'GET', auth)];
    }
    yield ['users of an unknown organization', send(`${url}/system/organizations/nope/users`, 'GET', auth)];
    yield ['users with a repeated name', send(`${url}/system/organizations/${orgs[0]!.id}/users?name=a&name=b`, 'GET', auth)];
    const queries = ['', 'includeDeleted=true', 'includeDeleted=true&isDeleted=true', 'orderby=name%20desc', 'orderby=code', 'keyword=1', 'name=a&orderby=displayOrder%20desc', 'limit=0', 'orderby=bad', 'limit=5000'];
    for (const q of queries) {
      for (const [limit, offset] of [[undefined, undefined], [50, 0], [50, 50], [7, 690], [1000, 0]] as const) {
        const params = [q, limit === undefined ? '' : `limit=${limit}`, offset === undefined ? '' : `offset=${offset}`].filter((x) => x !== '').join('&');
        yield [`processcategories ?${params}`, send(`${url}/system/processcategories?${params}`, 'GET', auth)];
      }
    }
  });
  for (const [k, v] of Object.entries(lists)) result[`lists: ${k}`] = v;
  return result;
}
