// Benchmark: the sandbox end to end over real HTTP on loopback.
// 1. PUT of 1000 work items with propagateToChildren (each a folder with 3 sub-folders
//    of 10 tasks: 30,000 leaves receive the value), answered with every changed item.
// 2. GET allassignedusers answering 100,000 users (generated data set).
// Each time (median of RUNS) is also given as a ratio to JSON.stringify of the same
// data in the same run, so results from different machines compare.
//
// Run: npm run bench:sandbox   (results: bench/results/sandbox.md)
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createSandbox, generateDataset } from '../src/sandbox';
import { folderIds, folderTreeDataset, RUNS, timeAsync, timeSync } from './sandbox-fixtures';

const FOLDERS = 1000;
const SUBFOLDERS = 3;
const TASKS = 10;
const USERS = 100_000;

const agent = new Agent({ connections: 1 });

async function send(url: string, method: 'GET' | 'PUT' | 'POST', headers: Record<string, string>, body?: unknown): Promise<string> {
  const r = await request(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher: agent,
  });
  const text = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`${method} ${url} -> ${r.statusCode}: ${text.slice(0, 500)}`);
  return text;
}

async function signIn(url: string): Promise<Record<string, string>> {
  const { token } = JSON.parse(await send(`${url}/auth/token`, 'POST', {}, { loginName: 'admin', password: 'password' })) as { token: string };
  return { authorization: `Bearer ${token}` };
}

async function benchUpdate(): Promise<string> {
  const sb = await createSandbox({ data: folderTreeDataset({ folders: FOLDERS, subfolders: SUBFOLDERS, tasks: TASKS }) });
  try {
    const auth = await signIn(sb.url);
    const ids = folderIds(FOLDERS);
    const url = `${sb.url}/workitem/workItems/${ids.join(',')}`;
    let affected = 0;
    let responseBytes = 0;
    const updateMs = await timeAsync(async (run) => {
      const text = await send(url, 'PUT', auth, { fields: { Description: `run ${run}` }, propagateToChildren: { fields: 'Description' } });
      const body = JSON.parse(text) as { items: unknown[]; affectedItems: unknown[] };
      affected = body.items.length + body.affectedItems.length;
      responseBytes = text.length;
    });
    // The same data: every stored work item the update reads or changes.
    const touched = sb.data.workItems;
    const stringifyMs = timeSync(() => void JSON.stringify(touched));
    return `| Update of ${FOLDERS} items, propagateToChildren (${affected} items in the answer, ${(responseBytes / 1e6).toFixed(1)} MB) | ${updateMs.toFixed(1)} ms | ${stringifyMs.toFixed(1)} ms (${touched.length} work items) | ${(updateMs / stringifyMs).toFixed(2)}x |`;
  } finally {
    await sb.close();
  }
}

async function benchUsers(): Promise<string[]> {
  const data = generateDataset({ users: USERS, organizations: 50, workItems: 10, processCategories: 0, seed: 1 });
  // Everyone below org-1, so the list answers all USERS users.
  for (const u of data.users ?? []) if (u.organizationId === 'org-1') u.organizationId = 'org-2';
  const t0 = performance.now();
  const sb = await createSandbox({ data });
  const startMs = performance.now() - t0;
  try {
    const auth = await signIn(sb.url);
    let text = '';
    const listMs = await timeAsync(async () => {
      text = await send(`${sb.url}/system/organizations/org-1/allassignedusers`, 'GET', auth);
    });
    const body = JSON.parse(text) as { totalCount: number; data: unknown[] };
    if (body.totalCount !== USERS) throw new Error(`expected ${USERS} users, got ${body.totalCount}`);
    const stringifyMs = timeSync(() => void JSON.stringify(body));
    const keywordMs = await timeAsync(async () => {
      await send(`${sb.url}/system/organizations/org-1/allassignedusers?keyword=${encodeURIComponent('user9999')}`, 'GET', auth);
    });
    return [
      `| List of ${USERS.toLocaleString('en-US')} users (allassignedusers, ${(text.length / 1e6).toFixed(1)} MB) | ${listMs.toFixed(1)} ms | ${stringifyMs.toFixed(1)} ms (the same answer) | ${(listMs / stringifyMs).toFixed(2)}x |`,
      `| Same list with keyword (few matches, ${USERS.toLocaleString('en-US')} users scanned) | ${keywordMs.toFixed(1)} ms | ${stringifyMs.toFixed(1)} ms | ${(keywordMs / stringifyMs).toFixed(2)}x |`,
      `| createSandbox with ${USERS.toLocaleString('en-US')} generated users (zod validation + reference checks), once | ${startMs.toFixed(1)} ms | ${stringifyMs.toFixed(1)} ms | ${(startMs / stringifyMs).toFixed(2)}x |`,
    ];
  } finally {
    await sb.close();
  }
}

async function main(): Promise<void> {
  const rows = [await benchUpdate(), ...(await benchUsers())];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`Date: ${new Date().toISOString().slice(0, 10)}; machine: ${os.cpus().length} cores (${cpu}), Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`Medians of ${RUNS} runs over HTTP on loopback (request sent to body read); ratio = time / JSON.stringify of the same data in this run.\n`);
  console.log('| Operation | Time | JSON.stringify | Ratio |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(r);
  await agent.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
