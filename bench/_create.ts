import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { JobJournal, planJob } from '../src/bulk';
async function main() {
  const per = Number(process.env.PER ?? 1000); const n = per === 1 ? 2000 : 20000;
  const ids = Array.from({ length: n }, (_, i) => String(100000 + i));
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-c-'));
  const t: Record<string, number[]> = { plan: [], create: [], lock: [], begin: [], end: [] };
  for (let i = 0; i < 15; i++) {
    const a = performance.now();
    const plan = planJob({ workItemIds: ids, update: { setCompleted: true }, baseUrl: 'http://127.0.0.1:1', maxIdsPerRequest: per });
    const b = performance.now();
    const j = await JobJournal.create(dir, { source: { uri: 'untitled:b', text: JSON.stringify({ workItemIds: ids, update: {} }) }, plan });
    const c = performance.now();
    await j.acquireLock();
    const d = performance.now();
    await j.beginRun('run', j.indexesIn('pending'), new Date(), 10);
    const e = performance.now();
    await j.endRun('succeeded');
    await j.releaseLock();
    const f = performance.now();
    if (i < 3) continue;
    t.plan!.push(b - a); t.create!.push(c - b); t.lock!.push(d - c); t.begin!.push(e - d); t.end!.push(f - e);
  }
  for (const [k, xs] of Object.entries(t)) { const s = [...xs].sort((a, b) => a - b); console.log(k.padEnd(8), s[0]!.toFixed(2), s[s.length >> 1]!.toFixed(2), s[s.length - 1]!.toFixed(2)); }
  await fsp.rm(dir, { recursive: true, force: true });
}
void main();
