// Benchmark: the sandbox's `GET /workitem/workItems/{root}/subItems` of a
// 100,000-item project over real HTTP on loopback (request sent to body read),
// against JSON.stringify of the same answer. Repetitions are interleaved (HTTP,
// then stringify, then HTTP, ...) so both see the same machine load; the ratio is
// taken per repetition. Goal: median ratio ≤ 3.
//
// Two answers: the tree fields (TREE_FIELDS, what a tree row needs) and every field.
// The sandbox runs in its own process (dist/sandbox.js --large-project, as
// `npm run sandbox` runs it); `--in-process` uses createSandbox in this process
// instead (client and server then share one thread and one heap).
//
// Run: npm run bench:subitems [-- --in-process]   (results: bench/results/sandbox-subitems.md)
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createSandbox, generateLargeProject, LARGE_PROJECT } from '../src/sandbox';
import { TREE_FIELDS } from '../src/schema/reads';

const ITEMS = 100_000;
const LEVELS = 16;
const REPS = Number(process.env['BENCH_REPS'] ?? 7);

const agent = new Agent({ connections: 1 });

/** GET, timed from sending the request until the last byte of the answer has arrived (decoding it is the client's work, not the sandbox's). */
async function get(url: string, headers: Record<string, string>): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  // A fresh connection each time: between two GETs the stringify baseline may outlast the server's keep-alive.
  const r = await request(url, { method: 'GET', headers, dispatcher: agent, reset: true });
  const chunks: Buffer[] = [];
  for await (const c of r.body) chunks.push(c as Buffer);
  const ms = performance.now() - started;
  const text = Buffer.concat(chunks).toString('utf8');
  if (r.statusCode !== 200) throw new Error(`GET ${url} -> ${r.statusCode}: ${text.slice(0, 500)}`);
  return { ms, text };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
};
const fmt = (x: { min: number; median: number; max: number }, unit = ' ms', digits = 1) =>
  `${x.min.toFixed(digits)} / ${x.median.toFixed(digits)} / ${x.max.toFixed(digits)}${unit}`;

/** The sandbox CLI (dist/sandbox.js, `npm run build` first) in its own process, as `npm run sandbox -- --large-project` runs it. */
async function startChild(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'sandbox.js'), '--large-project', `items=${ITEMS},levels=${LEVELS}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (\S+)/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
  return { url, close: () => new Promise<void>((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))) };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const separate = !process.argv.includes('--in-process');
  const sb = separate ? await startChild() : await createSandbox({ data: generateLargeProject({ items: ITEMS, levels: LEVELS }) });
  const startMs = performance.now() - t0;
  try {
    const login = await request(`${sb.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginName: 'admin', password: 'password' }),
      dispatcher: agent,
    });
    const { token } = (await login.body.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const rows: string[] = [];
    for (const [label, query] of [
      ['tree fields (TREE_FIELDS)', `?fields=${TREE_FIELDS.join(',')}`],
      ['every field', ''],
    ] as const) {
      const url = `${sb.url}/workitem/workItems/${LARGE_PROJECT.rootFolderId}/subItems${query}`;
      await get(url, auth); // warm-up (builds the read index once, as the first read after start does)
      const http: number[] = [];
      const str: number[] = [];
      const ratios: number[] = [];
      let bytes = 0;
      let nodes = 0;
      for (let i = 0; i < REPS; i++) {
        const { ms: httpMs, text } = await get(url, auth);
        const answer = JSON.parse(text) as unknown;
        const b = performance.now();
        const again = JSON.stringify(answer);
        const strMs = performance.now() - b;
        bytes = Buffer.byteLength(text);
        if (again.length !== text.length) throw new Error('JSON.stringify of the answer differs in length from the answer');
        if (i === 0) nodes = (text.match(/"Id":/g) ?? []).length;
        http.push(httpMs);
        str.push(strMs);
        ratios.push(httpMs / strMs);
      }
      const r = stats(ratios);
      rows.push(
        `| ${label}: ${nodes.toLocaleString('en-US')} nodes, ${(bytes / 1e6).toFixed(1)} MB | ${fmt(stats(http))} | ${fmt(stats(str))} | ${fmt(r, 'x', 2)} | ${r.median <= 3 ? 'met' : 'NOT met'} |`,
      );
    }
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    console.log(`Date: ${new Date().toISOString().slice(0, 16)}Z; ${os.cpus().length} cores (${cpu}), Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);
    console.log(`Project: ${ITEMS.toLocaleString('en-US')} work items over ${LEVELS} levels (generateLargeProject); sandbox ${separate ? 'in its own process (dist/sandbox.js --large-project)' : 'in this process (createSandbox)'}, started in ${startMs.toFixed(0)} ms.`);
    console.log(`${REPS} interleaved repetitions after one warm-up each; min / median / max; ratio per repetition = HTTP / JSON.stringify. Goal: median ratio ≤ 3.\n`);
    console.log('| subItems of the root folder, no depth | HTTP GET (request sent → last byte received) | JSON.stringify of the same answer | Ratio | Goal ≤ 3x |');
    console.log('|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    await sb.close();
    await agent.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
