// Benchmark: memory and time of sub-organization discovery (operation 2,
// allassignedusers; the view's fallback on a service without subOrganizations, which
// it reads first and which reads no users) on an organization with many users below it, read as the
// Organizations view reads it now (folded batch by batch into the summary of
// organizations below, the users never all held) against reading the whole list
// and summarizing it (as it did before). Like with like: the same request through
// ServiceClient, the same summary (checked equal), each run in a fresh process,
// the kinds alternating, the sandbox in a process of its own.
//
// Run: npx tsx bench/discovery.ts   (BENCH_SIZES=30000,100000,300000, BENCH_RSS_RUNS=3;
// writes bench/results/discovery.md)
import { serveUntilStdinEnds, startChildSandbox } from './child-sandbox';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { ServiceClient } from '../src/api/client';
import { createSandbox, generateDataset } from '../src/sandbox/index';
import { belowFold, summarizeBelow } from '../src/organizations/model/discovery';

const SIZES = (process.env.BENCH_SIZES ?? '30000,100000,300000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RSS_RUNS ?? 3);
const ORGS = 8;

async function serve(users: number): Promise<void> {
  const sandbox = await createSandbox({ port: 0, data: generateDataset({ users, organizations: ORGS, workItems: 2, processCategories: 0, seed: 1 }) });
  serveUntilStdinEnds(sandbox);
}


function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

/** One run in a fresh process: `--run <whole|folded> <url> <token>`; prints the summary's size, the time and the memory. */
async function runChild(kind: string, url: string, token: string): Promise<void> {
  const agent = new Agent({ connections: 1 });
  const client = new ServiceClient({ baseUrl: url, dispatcher: agent, credentials: () => ({ kind: 'bearer', token }) });
  // A warm-up on a small read (the code paths compiled, the connection open), then the peak reset.
  await client.listAllAssignedUsers('2', { code: 'U0000' });
  (globalThis as { gc?: () => void }).gc?.();
  fs.writeFileSync('/proc/self/clear_refs', '5');
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  let below: Map<string, { name: string; users: number }>;
  if (kind === 'whole') below = summarizeBelow('1', (await client.listAllAssignedUsers('1')).data);
  else {
    const fold = belowFold('1');
    await client.foldAllAssignedUsers('1', {}, fold.start);
    below = fold.below();
  }
  const ms = performance.now() - t0;
  const peak = peakRss();
  process.stdout.write(JSON.stringify({ ms, growth: peak - before, summary: [...below].sort() }));
  await client.close();
  await agent.close();
}

function run(kind: string, url: string, token: string): { ms: number; growth: number; summary: unknown } {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename, '--run', kind, url, token], { encoding: 'utf8', env: process.env, timeout: 600_000 });
  if (r.status !== 0) throw new Error(`run: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; growth: number; summary: unknown };
}

function stats(xs: number[], digits = 0): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]!.toFixed(digits)} / ${s[Math.floor(s.length / 2)]!.toFixed(digits)} / ${s[s.length - 1]!.toFixed(digits)}`;
}

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const users of SIZES) {
    const server = await startChildSandbox(__filename, [String(users)], ['--max-old-space-size=8192']);
    try {
      const bare = new ServiceClient({ baseUrl: server.url });
      const token = await bare.signIn('admin', 'password');
      const body = Buffer.byteLength(await (await fetch(`${server.url}/system/organizations/1/allassignedusers`, { headers: { authorization: `Bearer ${token}` } })).text());
      await bare.close();
      const r: Record<string, { ms: number[]; growth: number[] }> = { whole: { ms: [], growth: [] }, folded: { ms: [], growth: [] } };
      let summary: string | undefined;
      for (let i = 0; i < RUNS; i++) {
        for (const kind of i % 2 ? ['folded', 'whole'] : ['whole', 'folded']) {
          const x = run(kind, server.url, token);
          const s = JSON.stringify(x.summary);
          if (summary !== undefined && s !== summary) throw new Error(`${kind}: the summary differs`);
          summary = s;
          r[kind]!.ms.push(x.ms);
          r[kind]!.growth.push(x.growth / 2 ** 20);
        }
      }
      const mib = body / 2 ** 20;
      const ratio = r.folded!.growth.map((g, i) => g / r.whole!.growth[i]!);
      rows.push(
        `| ${users.toLocaleString('en')} | ${mib.toFixed(1)} | ${stats(r.whole!.growth)} | ${stats(r.folded!.growth)} | ${stats(ratio, 2)} | ${stats(r.whole!.ms)} | ${stats(r.folded!.ms)} |`,
      );
      process.stdout.write(`${rows[rows.length - 1]}\n`);
    } finally {
      server.close();
    }
  }
  const cpu = os.cpus();
  const md = `# Discovery benchmark: the organizations below a large organization

Command: \`npx tsx bench/discovery.ts\` (\`BENCH_SIZES\`, \`BENCH_RSS_RUNS\`). ${new Date().toISOString()}; ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, Node ${process.version};
load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} (shared machine: compare ratios).

- Data set: the sandbox's generated data set with ${ORGS} organizations (1 and the ones below it), the users spread over them; operation 2 on 1 answers every user.
- whole: \`listAllAssignedUsers\` (the list decoded as it arrives, every user kept), then \`summarizeBelow\` (as the view did before).
- folded: \`foldAllAssignedUsers\`, each batch of users (about 1 MiB of the answer) checked and summarized, then dropped (as the view does now).
- Each run in a fresh process after a small warm-up read, a full GC and a reset of the peak; ${RUNS} runs of each, alternating; the summaries are checked equal.
- Memory: peak RSS (VmHWM) less RSS before the read, MiB; ratio folded / whole of the same round.

| users | answer MiB | whole: growth MiB min / median / max | folded: growth MiB | folded / whole | whole: ms | folded: ms |
|---:|---:|---|---|---|---|---|
${rows.join('\n')}
`;
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', 'discovery.md'), md);
}

const argv = process.argv;
(argv.includes('--serve') ? serve(Number(argv[argv.indexOf('--serve') + 1])) : argv.includes('--run') ? runChild(argv[argv.indexOf('--run') + 1]!, argv[argv.indexOf('--run') + 2]!, argv[argv.indexOf('--run') + 3]!) : main()).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
