// What a flush to the disk and a small write cost on this machine, alone (nothing else
// running in the process): the floor under the bulk journal's costs in
// bench/journal-costs.ts. Measures, in one run, interleaved:
// - fdatasync after appending 300 bytes to a file (the change log's case), against
//   fdatasync after writing 300 bytes into a file whose blocks were written and flushed
//   in advance (its size does not change, so the file system commits no metadata);
// - a `writev` of three small pieces of one buffer (a log line's pieces) against one
//   `write` of the same 200 bytes.
// Wall time per call and the busy CPU of the whole machine per call (/proc/stat, Linux).
//
// Run: npx tsx bench/fdatasync.ts   (BENCH_ROUNDS=3; BENCH_DIR: where the files go, default the system temp dir)
// Prints a table; results are quoted in bench/results/bulk.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SYNCS = 3000;
const WRITES = 100_000;

function machineBusyMs(): number {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    return ((f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0)) * 10;
  } catch {
    return NaN;
  }
}

const fdatasync = (fd: number): Promise<void> => new Promise((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())));

async function syncs(dir: string, prewritten: boolean): Promise<{ ms: number; cpu: number }> {
  const file = path.join(dir, prewritten ? 'prewritten.log' : 'appended.log');
  fs.rmSync(file, { force: true });
  const line = Buffer.alloc(300, 0x61);
  const fd = fs.openSync(file, prewritten ? 'w+' : 'a');
  try {
    if (prewritten) {
      fs.writeSync(fd, Buffer.alloc(line.length * SYNCS));
      fs.fsyncSync(fd);
    }
    const cpu0 = machineBusyMs();
    const t0 = performance.now();
    for (let i = 0; i < SYNCS; i++) {
      if (prewritten) fs.writeSync(fd, line, 0, line.length, i * line.length);
      else fs.writeSync(fd, line);
      await fdatasync(fd);
    }
    return { ms: (performance.now() - t0) / SYNCS, cpu: (machineBusyMs() - cpu0) / SYNCS };
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
}

function writes(dir: string, merged: boolean): number {
  const file = path.join(dir, 'writes.log');
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(1 << 20, 0x61);
  const pieces = [block.subarray(0, 60), block.subarray(60, 140), block.subarray(140, 200)];
  try {
    const t0 = performance.now();
    for (let i = 0; i < WRITES; i++) {
      if (merged) fs.writeSync(fd, block.subarray(0, 200));
      else fs.writevSync(fd, pieces);
    }
    return ((performance.now() - t0) / WRITES) * 1000;
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'wis-fdatasync-'));
  const rows: string[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? [false, true] : [true, false];
      const s: Record<string, { ms: number; cpu: number }> = {};
      for (const pre of order) s[String(pre)] = await syncs(dir, pre);
      const w: Record<string, number> = {};
      for (const merged of order) w[String(merged)] = writes(dir, merged);
      rows.push(
        `| ${round} | ${s.false!.ms.toFixed(3)} / ${s.false!.cpu.toFixed(3)} | ${s.true!.ms.toFixed(3)} / ${s.true!.cpu.toFixed(3)} | ${w.false!.toFixed(2)} | ${w.true!.toFixed(2)} |`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(
    [
      `fdatasync and small writes alone, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${new Date().toISOString()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}`,
      '',
      `| round | append 300 B + fdatasync: ms / machine CPU ms, per call (${SYNCS}) | write into a pre-written file + fdatasync: ms / CPU ms | writev of 3 pieces, µs (${WRITES}) | one write of 200 B, µs |`,
      '|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
