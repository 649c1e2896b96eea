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
// Run: npx tsx bench/api-client.ts   (results: bench/results/api-client.md)
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { ServiceClient } from '../src/api/client';
import { buildUrl, parseBaseUrl, workItemsPath } from '../src/api/paths';

const N = Number(process.env.BENCH_REQUESTS ?? 600);
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

  const client = new ServiceClient({ baseUrl, credentials: () => ({ kind: 'bearer', token: 'bench-token' }) });
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 4000 });
  const raw = async (method: 'GET' | 'PUT', path: string, body?: string) => {
    const r = await request(`${origin}${path}`, { method, body, dispatcher: agent, headers: { authorization: 'Bearer bench-token', 'content-type': 'application/json' } });
    return JSON.parse(await r.body.text()) as unknown;
  };

  // Warm up both paths.
  await pool(50, () => client.listOrganizationUsers('1002'));
  await pool(50, () => raw('GET', '/site/api/system/organizations/1002/users'));

  const getClient = await pool(N, () => client.listOrganizationUsers('1002'));
  const getRaw = await pool(N, () => raw('GET', '/site/api/system/organizations/1002/users'));
  const body = { setCompleted: true };
  const putClient = await pool(N, () => client.updateWorkItems(ids, body));
  const putPath = `/site/api/workitem/workItems/${ids.join(',')}`;
  const putRaw = await pool(N, () => raw('PUT', putPath, JSON.stringify(body)));

  const base = parseBaseUrl(baseUrl);
  const reps = 2000;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) buildUrl(base, workItemsPath(ids));
  const pathMs = (performance.now() - t0) / reps;

  await client.close();
  await agent.close();
  await new Promise<void>((r) => server.close(() => r()));

  const per = (ms: number) => (ms / N).toFixed(3);
  const lines = [
    '# api-client benchmark',
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    `${N} requests per row, ${CONCURRENCY} in flight, loopback node:http server with prebuilt bodies.`,
    '',
    '| what | total ms | ms/request | ratio to plain undici |',
    '|---|---:|---:|---:|',
    `| GET 1000 users, ServiceClient (zod-validated) | ${getClient.toFixed(0)} | ${per(getClient)} | ${(getClient / getRaw).toFixed(2)} |`,
    `| GET 1000 users, undici.request + JSON.parse | ${getRaw.toFixed(0)} | ${per(getRaw)} | 1.00 |`,
    `| PUT 1000 IDs, ServiceClient | ${putClient.toFixed(0)} | ${per(putClient)} | ${(putClient / putRaw).toFixed(2)} |`,
    `| PUT 1000 IDs, undici.request + JSON.parse | ${putRaw.toFixed(0)} | ${per(putRaw)} | 1.00 |`,
    '',
    `Building and checking the path of 1000 IDs alone: ${pathMs.toFixed(3)} ms.`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
