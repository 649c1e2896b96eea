// The E2E tier's loop for tests that once met a race (a tree row that stayed "Loading…"):
// WIS_E2E_REPEAT=n runs each repeatable suite n times in a row, each run in a fresh
// workbench, and WIS_E2E_LOAD=k keeps k CPU-bound processes busy for the whole run (the
// load a shared or slow machine puts on the workbench). Without them every suite runs once
// and nothing else runs. Example (CONTRIBUTING.md, Development):
//   WIS_VSIX=/tmp/wis.vsix WIS_E2E_REPEAT=20 WIS_E2E_LOAD=2 npm run test:e2e -- \
//     --grep 'New Work Item Update|organizations and users|Filter Users|browses a project'
import { spawn, type ChildProcess } from 'node:child_process';

function count(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 1000) throw new Error(`${name} must be a whole number from 0 to 1000, not "${raw}"`);
  return n;
}

/** How many times each repeatable suite runs (WIS_E2E_REPEAT, default 1). */
export const E2E_REPEAT = Math.max(1, count('WIS_E2E_REPEAT', 1));
/** How many busy processes load the CPU while the tests run (WIS_E2E_LOAD, default 0). */
export const E2E_LOAD = count('WIS_E2E_LOAD', 0);

/** A mocha suite run E2E_REPEAT times in a row ("title (run 3/20)"), each with its own hooks. */
export function repeatedDescribe(title: string, body: (this: Mocha.Suite) => void): void {
  for (let run = 1; run <= E2E_REPEAT; run++) describe(E2E_REPEAT > 1 ? `${title} (run ${run}/${E2E_REPEAT})` : title, body);
}

let busy: ChildProcess[] = [];

/** Starts the CPU load (E2E_LOAD busy loops at normal priority); idempotent. */
export function startCpuLoad(): void {
  if (busy.length > 0 || E2E_LOAD === 0) return;
  for (let i = 0; i < E2E_LOAD; i++) {
    const child = spawn(process.execPath, ['-e', 'for (;;) { Math.sqrt(Math.random()); }'], { stdio: 'ignore' });
    busy.push(child);
  }
  process.stderr.write(`[e2e] CPU load: ${E2E_LOAD} busy process(es) (pids ${busy.map((c) => c.pid).join(', ')}); ${E2E_REPEAT} run(s) of each repeatable suite\n`);
}

/** Ends the busy processes this run started (by their pids). */
export function stopCpuLoad(): void {
  for (const c of busy) c.kill('SIGKILL');
  busy = [];
}

process.once('exit', stopCpuLoad);
