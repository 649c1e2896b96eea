import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { ServiceClient } from '../src/api/client';
import { JobJournal, planJob, runJob } from '../src/bulk';
import { createSandbox, generateDataset } from '../src/sandbox';
const waits: number[] = [];
const origU = (JobJournal.prototype as any).updateRequest;
(JobJournal.prototype as any).updateRequest = function (this: any, i: number, patch: any, b: any, o: any) {
  const a = performance.now();
  const p = origU.call(this, i, patch, b, o);
  if (patch.state === 'sent') p.then(() => waits.push(performance.now() - a));
  return p;
};
const origE = (JobJournal.prototype as any).endRun;
const ends: number[] = [];
(JobJournal.prototype as any).endRun = function (this: any, ...args: any[]) { const a = performance.now(); const p = origE.apply(this, args); p.then(() => ends.push(performance.now() - a)); return p; };
async function main() {
  const data = generateDataset({ workItems: 20_002, users: 50, organizations: 5, processCategories: 0, seed: 42 });
  const sandbox = await createSandbox({ data });
  const allIds = sandbox.data.workItems.filter((w) => w.parentId !== null && !w.isDeleted).map((w) => w.id);
  const c0 = new ServiceClient({ baseUrl: sandbox.url }); const token = await c0.signIn('admin', 'password'); await c0.close();
  const journalDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-prof-'));
  const agent = new Agent({ connections: 6, keepAliveTimeout: 4000 });
  const client = new ServiceClient({ baseUrl: sandbox.url, dispatcher: agent, credentials: () => ({ kind: 'bearer', token }) });
  const per = Number(process.env.PER ?? 1000); const n = per === 1 ? 2000 : 20000;
  const ids = allIds.slice(0, n);
  let completed = false;
  const rows: Record<string, number[]> = { engine: [], create: [], run: [], total: [] };
  const mode = process.env.MODE ?? 'both';
  for (let round = 0; round < Number(process.env.ROUNDS ?? 10); round++) {
    for (const v of ['engine', 'journal']) {
      if (mode !== 'both' && v !== mode) continue;
      const update = { setCompleted: (completed = !completed) };
      const t0 = performance.now();
      const plan = planJob({ workItemIds: ids, update, baseUrl: sandbox.url, maxIdsPerRequest: per });
      const journal = v === 'journal' ? await JobJournal.create(journalDir, { source: { uri: 'untitled:b', text: JSON.stringify({ workItemIds: ids, update }) }, plan }) : undefined;
      const t1 = performance.now();
      const r = await runJob(plan, { client, journal, concurrency: 2, requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true });
      const t2 = performance.now();
      if (r.outcome !== 'succeeded') throw new Error(r.outcome);
      if (round === 0) continue;
      if (v === 'engine') rows.engine!.push(t2 - t0); else { rows.create!.push(t1 - t0); rows.run!.push(t2 - t1); rows.total!.push(t2 - t0); }
    }
  }
  for (const [k, xs] of Object.entries(rows)) { if (!xs.length) continue; const s = [...xs].sort((a, b) => a - b); console.log(k.padEnd(8), s[0]!.toFixed(1), s[s.length >> 1]!.toFixed(1), s[s.length - 1]!.toFixed(1)); }
  const w = [...waits].sort((a, b) => a - b); console.log('sent waits: n', w.length, 'median', w[w.length >> 1]!.toFixed(2), 'p90', w[Math.floor(w.length * 0.9)]!.toFixed(2), 'sum/job', (w.reduce((a, b) => a + b, 0) / (ends.length || 1)).toFixed(1));
  const e = [...ends].sort((a, b) => a - b); if (e.length) console.log('endRun median', e[e.length >> 1]!.toFixed(2));
  await client.close(); await agent.close(); await sandbox.close(); await fsp.rm(journalDir, { recursive: true, force: true });
}
void main();
