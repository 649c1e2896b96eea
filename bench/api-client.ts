// Benchmark: what the ServiceClient costs on top of plain undici.
//   1. GET a list of 1000 users, N times, 6 at a time: ServiceClient (path checks,
//      zod validation of every user, logging to a no-op logger) vs undici.request
//      on an Agent with the same pool settings plus JSON.parse.
//   2. PUT with 1000 IDs in the path and a small body: ServiceClient vs undici.
//   3. Building the path of 1000 IDs alone (validation + encoding + URL check).
// The server is node:http on 127.0.0.1 answering prebuilt bodies, so the numbers
// are client-side cost. Times are also given as a ratio to plain undici in the
// same run, so results from different machines compare.
//
// The client runs on both network paths (bench/network-paths.ts): the extension's own undici
// dispatcher and VS Code's fetch (the default in VS Code; Node's fetch here), with a plain
// fetch + JSON.parse beside the plain undici request; all kinds interleaved in rounds.
//
// Run: npx tsx bench/api-client.ts   (results: bench/results/api-client.md, earlier runs kept below)
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { ServiceClient } from '../src/api/client';
import { buildUrl, parseBaseUrl, workItemsPath } from '../src/api/paths';
import { writeKeepingEarlierRuns } from './history';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';

const N = Number(process.env.BENCH_REQUESTS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = 6;

function users(n: number) {
  return {
    totalCount: n,
    data: Array.from({ length: n }, (_, i) => ({
      id: `u-${i}`,
      name: `ユーザー ${i}`,
      englishName: `User ${i}`,
      loginName: `user${i}`,
      email: `user${i}@example.com`,
      organizationId: '1002',
      organizationName: '開発本部',
      isDeleted: false,
      unitCost: 5000,
      permission: 1,
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-01T00:00:00Z',
    })),
  };
}

async function pool(n: number, f: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < n) await f();
    }),
  );
  return performance.now() - start;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  const list = Buffer.from(JSON.stringify(users(1000)));
  const ids = Array.from({ length: 1000 }, (_, i) => String(100_000 + i));
  const update = Buffer.from(JSON.stringify({ items: ids.map((id) => ({ id, updatedAt: '2026-01-05T09:00:00' })), affectedItems: [], addedTimeEntryIds: [], addedScheduleDependencyIds: [] }));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'PUT' ? update : list);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}/site/api`;

  const credentials = () => ({ kind: 'bearer', token: 'bench-token' }) as const;
  const fetcher = fetchDispatcher();
  const client = new ServiceClient({ baseUrl, credentials });
  const clientFetch = new ServiceClient({ baseUrl, dispatcher: fetcher, credentials });
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 4000 });
  const headers = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
  const raw = async (method: 'GET' | 'PUT', path: string, body?: string) => {
    const r = await request(`${origin}${path}`, { method, body, dispatcher: agent, headers });
    return JSON.parse(await r.body.text()) as unknown;
  };
  const rawFetch = async (method: 'GET' | 'PUT', path: string, body?: string) => {
    const r = await fetch(`${origin}${path}`, { method, body, headers });
    return JSON.parse(await r.text()) as unknown;
  };
  const listPath = '/site/api/system/organizations/1002/users';
  const body = { setCompleted: true };
  const putPath = `/site/api/workitem/workItems/${ids.join(',')}`;
  const kinds = {
    getClient: () => client.listOrganizationUsers('1002'),
    getClientFetch: () => clientFetch.listOrganizationUsers('1002'),
    getRaw: () => raw('GET', listPath),
    getRawFetch: () => rawFetch('GET', listPath),
    putClient: () => client.updateWorkItems(ids, body),
    putClientFetch: () => clientFetch.updateWorkItems(ids, body),
    putRaw: () => raw('PUT', putPath, JSON.stringify(body)),
    putRawFetch: () => rawFetch('PUT', putPath, JSON.stringify(body)),
  };
  type Kind = keyof typeof kinds;
  const names = Object.keys(kinds) as Kind[];

  // Warm up every kind, then rounds of all of them, the order turning by one each round and reversed every other round.
  for (const k of names) await pool(50, kinds[k]);
  const t = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  for (let i = 0; i < ROUNDS; i++) {
    const order = names.map((_, k) => names[(i + k) % names.length]!);
    if (i % 2) order.reverse();
    for (const k of order) t[k].push(await pool(N, kinds[k]));
  }

  const base = parseBaseUrl(baseUrl);
  const reps = 2000;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) buildUrl(base, workItemsPath(ids));
  const pathMs = (performance.now() - t0) / reps;

  await client.close();
  await clientFetch.close();
  await fetcher.close();
  await agent.close();
  await new Promise<void>((r) => server.close(() => r()));

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const spread = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${median(xs).toFixed(2)} (${s[0]!.toFixed(2)}–${s[s.length - 1]!.toFixed(2)})`;
  };
  const ratio = (a: Kind, b: Kind) => spread(t[a].map((x, i) => x / t[b][i]!));
  const row = (what: string, k: Kind, toRaw: string, toRawFetch: string) => `| ${what} | ${median(t[k]).toFixed(0)} | ${(median(t[k]) / N).toFixed(3)} | ${toRaw} | ${toRawFetch} |`;
  const lines = [
    '# api-client benchmark',
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, ${new Date().toISOString()}; load average ${loadBefore.toFixed(2)} at the start, ${os.loadavg()[0]!.toFixed(2)} at the end.`,
    `${N} requests per row and round, ${CONCURRENCY} in flight, loopback node:http server with prebuilt bodies; ${ROUNDS} rounds after a warm-up of every kind, each round`,
    'running every kind once, the order turning by one each round and reversed every other round; times are medians over the rounds, ratios per round',
    '(median, min–max in brackets).',
    '',
    `Two network paths for the ServiceClient: the **${OWN_PATH}** (its own undici Agent: outside VS Code, and in VS Code with`,
    `workItemStudio.network.proxy or caFile set) and **${FETCH_PATH}**: the ServiceClient given`,
    '`new FetchDispatcher(globalThis.fetch)`, what the extension uses in VS Code by default. Beside them the plain baselines:',
    'undici.request on an Agent with the same pool settings + JSON.parse, and the global fetch + JSON.parse.',
    '',
    '| what | total ms | ms/request | ratio to plain undici | ratio to plain fetch |',
    '|---|---:|---:|---:|---:|',
    row(`GET 1000 users, ServiceClient (zod-validated), ${OWN_PATH}`, 'getClient', ratio('getClient', 'getRaw'), ''),
    row("GET 1000 users, ServiceClient (zod-validated), VS Code's fetch", 'getClientFetch', ratio('getClientFetch', 'getRaw'), ratio('getClientFetch', 'getRawFetch')),
    row('GET 1000 users, undici.request + JSON.parse', 'getRaw', '1.00', ''),
    row('GET 1000 users, fetch + JSON.parse', 'getRawFetch', ratio('getRawFetch', 'getRaw'), '1.00'),
    row(`PUT 1000 IDs, ServiceClient, ${OWN_PATH}`, 'putClient', ratio('putClient', 'putRaw'), ''),
    row("PUT 1000 IDs, ServiceClient, VS Code's fetch", 'putClientFetch', ratio('putClientFetch', 'putRaw'), ratio('putClientFetch', 'putRawFetch')),
    row('PUT 1000 IDs, undici.request + JSON.parse', 'putRaw', '1.00', ''),
    row('PUT 1000 IDs, fetch + JSON.parse', 'putRawFetch', ratio('putRawFetch', 'putRaw'), '1.00'),
    '',
    `ServiceClient on VS Code's fetch / on the ${OWN_PATH}, per round: GET ${ratio('getClientFetch', 'getClient')}, PUT ${ratio('putClientFetch', 'putClient')}.`,
    '',
    `Building and checking the path of 1000 IDs alone: ${pathMs.toFixed(3)} ms.`,
    '',
    'Run: `npx tsx bench/api-client.ts` (`BENCH_REQUESTS=n` requests per row and round, `BENCH_ROUNDS=n` rounds).',
    '',
  ];
  const md = lines.join('\n');
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'api-client.md'), md);
  process.stdout.write(md);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
