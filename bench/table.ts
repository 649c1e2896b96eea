// Benchmark: the work item table model (src/table/model) on 100,000 rows.
//
//   filter: the typed filter of issue 24 (`status:"進行中" leader:suzuki finish<2026-03-01
//           progress<100`), parsed, compiled and counted over 100,000 rows (goal ≤ 50 ms);
//           also "name contains" (text folding) and "mine overdue"; beside each, a plain
//           hand-written loop testing the same fields (the floor), and the ratio.
//   group:  10,000 edits (both planned dates shifted, 3 sizes, for 2,000 items; 5
//           planned-time values for 3,000; 3 statuses for 2,000; distinct names for 1,000)
//           into request documents (goal ≤ 50 ms).
//   sort:   100,000 rows by name (Japanese collation), by planned finish (dates, empty
//           last) and by leader (user names); beside it, a plain Array.sort of the names
//           with the same collator.
//
//   cold:   the first groupEdits call of a fresh process (BENCH_COLD processes, default 7,
//           each building the same rows and edits first, then one full GC so that they are
//           not in the young generation, as rows read long before): wall ms, the process's CPU ms
//           (all threads: the optimizing compiler and the GC run beside the main thread)
//           and, where Node has process.threadCpuUsage (Node 24: the extension host's),
//           the main thread's CPU ms. BENCH_COLD_NODE=<path> runs every other process
//           with that Node binary too (interleaved).
//
// Run: npx tsx bench/table.ts   (BENCH_RUNS=n, default 11; BENCH_ROWS=n, default 100000)
// Writes bench/results/table.md, the earlier runs kept below the new one. Medians (and min / max) of the runs, after one warm-up.
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { writeKeepingEarlierRuns } from './history';
import {
  type CellEdit,
  type TableRow,
  buildColumns,
  compileFilterText,
  countMatches,
  groupEdits,
  shiftDate,
  sortRows,
  userNames,
  userResolver,
} from '../src/table/model';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

/** A small seeded generator (mulberry32), so every run has the same rows. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const USERS = Array.from({ length: 200 }, (_, i) => ({ id: String(2101 + i), name: `${['鈴木', '田中', '佐藤', '高橋', '伊藤'][i % 5]} ${i}`, loginName: i === 0 ? 'suzuki' : `user${i}` }));
const WORDS = ['設計', '実装', 'テスト', 'レビュー', '資料作成', 'リリース', 'design', 'build', '調整', '打合せ'];
const COLUMNS = buildColumns([], {
  itemTypes: [{ id: '41', name: 'フォルダー' }, { id: '42', name: 'タスク' }],
  statusTypes: [{ id: '51', name: '未着手' }, { id: '52', name: '進行中' }, { id: '53', name: '完了' }, { id: '54', name: '保留' }],
});

function makeRows(n: number): TableRow[] {
  const r = rng(24);
  const rows: TableRow[] = [];
  for (let i = 0; i < n; i++) {
    const start = r() < 0.1 ? null : shiftDate('2026-01-01', Math.floor(r() * 120));
    const finish = start === null ? null : shiftDate(start, Math.floor(r() * 30));
    const id = String(100_000 + i);
    rows.push({
      id,
      fields: {
        Id: id,
        Name: `${WORDS[Math.floor(r() * WORDS.length)]} ${i}`,
        Code: `WBS-${i}`,
        ItemTypeId: '42',
        StatusTypeId: ['51', '52', '53', '54'][Math.floor(r() * 4)],
        LeaderId: r() < 0.05 ? '0' : USERS[Math.floor(r() * USERS.length)]!.id,
        Assignments: [{ partyId: USERS[Math.floor(r() * USERS.length)]!.id }],
        PlannedStartDate: start === null ? null : `${start}T00:00:00`,
        PlannedFinishDate: finish === null ? null : `${finish}T00:00:00`,
        PlannedTime: Math.floor(r() * 20) * 60,
        ActualProgress: [0, 0, 20, 50, 80, 100][Math.floor(r() * 6)],
        ParentName: `フォルダー ${Math.floor(i / 100)}`,
      },
    });
  }
  return rows;
}

function makeEdits(rows: readonly TableRow[]): CellEdit[] {
  const edits: CellEdit[] = [];
  const withDates = rows.filter((x) => x.fields.PlannedStartDate && x.fields.PlannedFinishDate).slice(0, 2000);
  for (let i = 0; i < 2000; i++) {
    const row = withDates[i]!;
    const d = [7, 14, -3][i % 3]!;
    const s = (row.fields.PlannedStartDate as string).slice(0, 10);
    const f = (row.fields.PlannedFinishDate as string).slice(0, 10);
    edits.push({ id: row.id, field: 'PlannedStartDate', value: shiftDate(s, d), before: row.fields.PlannedStartDate });
    edits.push({ id: row.id, field: 'PlannedFinishDate', value: shiftDate(f, d), before: row.fields.PlannedFinishDate });
  }
  for (let i = 0; i < 3000; i++) edits.push({ id: rows[10_000 + i]!.id, field: 'PlannedTime', value: [60, 120, 240, 480, 960][i % 5], before: 0 });
  for (let i = 0; i < 2000; i++) edits.push({ id: rows[20_000 + i]!.id, field: 'StatusTypeId', value: ['51', '52', '53'][i % 3], before: '54' });
  for (let i = 0; i < 1000; i++) edits.push({ id: rows[30_000 + i]!.id, field: 'Name', value: `新しい名前 ${i}`, before: 'x' });
  return edits;
}

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const fmt = (x: { min: number; median: number; max: number }) => `${ms(x.min)} / ${ms(x.median)} / ${ms(x.max)}`;

/** CPU ms of this process (all its threads, the GC's included) per run, beside the wall times. */
const cpu: Record<string, number[]> = {};

function time(fn: () => unknown, label = ''): number {
  const c = process.cpuUsage();
  const t = performance.now();
  fn();
  const wall = performance.now() - t;
  const u = process.cpuUsage(c);
  (cpu[label] ??= []).push((u.user + u.system) / 1000);
  return wall;
}

/** Runs `a` and `b` RUNS times, interleaved, after one warm-up of each. */
function pair(a: () => unknown, b: () => unknown, label = ''): { a: number[]; b: number[] } {
  a();
  b();
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      out.a.push(time(a, label));
      out.b.push(time(b));
    } else {
      out.b.push(time(b));
      out.a.push(time(a, label));
    }
  }
  return out;
}

const TODAY = '2026-02-15';
const resolveUser = userResolver(USERS);
const userName = userNames(USERS);

function main(): void {
  const loadBefore = os.loadavg();
  const rows = makeRows(ROWS);
  const ctx = { columns: COLUMNS, today: TODAY, currentUserId: '2101', resolveUser, userName };
  const lines: string[] = [];
  const filterRow = (label: string, text: string, plain: () => number) => {
    let count = -1;
    const r = pair(
      () => {
        const f = compileFilterText(text, ctx);
        if (!f.ok) throw new Error(f.errors?.map((e) => e.message).join('; '));
        count = countMatches(rows, f.test);
      },
      plain,
      label,
    );
    if (plain() !== count) throw new Error(`${label}: the plain loop counts ${plain()}, the filter ${count}`);
    const ratio = stats(r.a.map((x, i) => x / r.b[i]!));
    lines.push(`| ${label} | \`${text}\` | ${count.toLocaleString('en')} | ${fmt(stats(r.a))} | ${ms(stats(cpu[label]!).median)} | ${fmt(stats(r.b))} | ${ratio.median.toFixed(1)}× |`);
  };
  filterRow('issue 24 example', 'status:"進行中" leader:suzuki finish<2026-03-01 progress<100', () => {
    let n = 0;
    for (const x of rows) {
      const f = x.fields;
      if (f.StatusTypeId === '52' && f.LeaderId === '2101' && typeof f.PlannedFinishDate === 'string' && f.PlannedFinishDate.slice(0, 10) < '2026-03-01' && (f.ActualProgress as number) < 100) n++;
    }
    return n;
  });
  filterRow('name contains', 'name:レビュー', () => {
    let n = 0;
    for (const x of rows) if ((x.fields.Name as string).toLowerCase().includes('レビュー')) n++;
    return n;
  });
  filterRow('my overdue items', 'mine overdue', () => {
    let n = 0;
    for (const x of rows) {
      const f = x.fields;
      const mine = f.LeaderId === '2101' || (f.Assignments as { partyId: string }[]).some((a) => a.partyId === '2101');
      if (mine && typeof f.PlannedFinishDate === 'string' && f.PlannedFinishDate.slice(0, 10) < TODAY && (f.ActualProgress as number) < 100) n++;
    }
    return n;
  });

  const edits = makeEdits(rows);
  let docs = 0;
  let shifts = 0;
  groupEdits(edits);
  const g: number[] = [];
  for (let i = 0; i < RUNS; i++) g.push(time(() => {
    const out = groupEdits(edits);
    docs = out.length;
    shifts = out.filter((x) => x.document.update.moveScheduleDays !== undefined).length;
  }, 'group'));

  const cold = coldRuns();

  const sortLines: string[] = [];
  const names = rows.map((x) => x.fields.Name as string);
  const collator = new Intl.Collator('ja', { numeric: true });
  for (const [label, key] of [['name (ja collation)', 'Name'], ['planned finish (dates)', 'PlannedFinishDate'], ['leader (user names)', 'LeaderId']] as const) {
    const c = COLUMNS.find((x) => x.key === key)!;
    const r = pair(() => sortRows(rows, c, 'asc', { userName }), () => [...names].sort(collator.compare));
    const ratio = stats(r.a.map((x, i) => x / r.b[i]!));
    sortLines.push(`| ${label} | ${fmt(stats(r.a))} | ${fmt(stats(r.b))} | ${ratio.median.toFixed(2)}× |`);
  }
  const loadAfter = os.loadavg();
  const cores = os.cpus();
  const md = [
    '# table model benchmark: filter, grouping and sort over 100,000 rows',
    '',
    `Command: \`npx tsx bench/table.ts\` (\`BENCH_RUNS\`=${RUNS}, \`BENCH_ROWS\`=${ROWS}). ${new Date().toISOString()}; ${cores.length} × ${cores[0]?.model.trim()}, Node ${process.version};`,
    `load average before ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' / ')} (a shared machine: other work ran at the same time; compare ratios).`,
    'Rows: seeded synthetic work items (the fields the default columns show), dates read with a time part. All times in ms: min / median / max of the runs after one warm-up, the two sides interleaved; ratio = median of per-run ratios. CPU ms: process.cpuUsage over the same run (all threads: the GC\'s parallel work counts, waiting for a core does not).',
    '',
    '## Filter over 100,000 rows (goal ≤ 50 ms): parse + compile + count',
    '',
    '| filter | text | matches | table model ms | its CPU ms, median | plain loop ms | ratio |',
    '|---|---|---:|---|---:|---|---:|',
    ...lines,
    '',
    '## Grouping 10,000 edits into requests (goal ≤ 50 ms)',
    '',
    `${edits.length.toLocaleString('en')} cell edits of ${new Set(edits.map((e) => e.id)).size.toLocaleString('en')} items → ${docs} request documents (${shifts} of them \`moveScheduleDays\`; 1,000 of them the distinct names): ${fmt(stats(g))} ms wall, CPU median ${ms(stats(cpu.group!).median)} ms.`,
    '',
    '### First (cold) call, each in a fresh process',
    '',
    `${COLD} processes per Node, run one after the other (interleaved between the Nodes), each building the same ${ROWS.toLocaleString('en')} rows and ${edits.length.toLocaleString('en')} edits and then timing its first \`groupEdits\` call. Load average before the processes ${cold.loadBefore.map((x) => x.toFixed(2)).join(' / ')}, after ${cold.loadAfter.map((x) => x.toFixed(2)).join(' / ')}.`,
    '',
    '| Node | wall ms | process CPU ms (all threads) | main thread CPU ms |',
    '|---|---|---|---|',
    ...cold.lines,
    '',
    '## Sort 100,000 rows',
    '',
    '| column | sortRows ms | plain sort of the names, same collator, ms | ratio |',
    '|---|---|---|---:|',
    ...sortLines,
    '',
  ].join('\n');
  // The earlier runs stay below the new one (demoted a heading level).
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'table.md'), md);
  process.stdout.write(md);
}

/**
 * `--group-cold`: the first groupEdits call of a fresh process (what "Review Changes"
 * meets once per table), after the rows and edits are built; prints {wall, cpu} in ms.
 */
function groupCold(): void {
  const rows = makeRows(ROWS);
  const edits = makeEdits(rows);
  // In the extension the rows were read long before "Review Changes": they sit in the old
  // generation, not in the young one a first scavenge would have to copy (the child runs
  // with --expose-gc; a full collection moves the rows and edits out of the young generation).
  (globalThis as { gc?: () => void }).gc?.();
  const thread = (process as unknown as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.bind(process);
  const t0 = thread?.();
  const c = process.cpuUsage();
  const t = performance.now();
  const out = groupEdits(edits);
  const wall = performance.now() - t;
  const u = process.cpuUsage(c);
  const t1 = thread?.();
  const main = t0 && t1 ? (t1.user + t1.system - t0.user - t0.system) / 1000 : null;
  process.stdout.write(`${JSON.stringify({ wall, cpu: (u.user + u.system) / 1000, main, docs: out.length })}\n`);
}

const COLD = Number(process.env.BENCH_COLD ?? 7);

/** The cold first calls: COLD fresh processes per Node binary, interleaved. */
function coldRuns(): { lines: string[]; loadBefore: number[]; loadAfter: number[] } {
  const nodes = [process.execPath, ...(process.env.BENCH_COLD_NODE ? [process.env.BENCH_COLD_NODE] : [])];
  const results = new Map<string, { wall: number; cpu: number; main: number | null }[]>(nodes.map((n) => [n, []]));
  const loadBefore = os.loadavg();
  for (let i = 0; i < COLD; i++) {
    for (const node of nodes) {
      const text = execFileSync(node, ['--expose-gc', ...process.execArgv, __filename, '--group-cold'], { encoding: 'utf8', env: { ...process.env, BENCH_ROWS: String(ROWS) } });
      results.get(node)!.push(JSON.parse(text.trim().split('\n').pop()!) as { wall: number; cpu: number; main: number | null });
    }
  }
  const loadAfter = os.loadavg();
  const lines = nodes.map((node) => {
    const r = results.get(node)!;
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const mains = r.map((x) => x.main).filter((x): x is number => x !== null);
    return `| ${version}${node === process.execPath ? '' : ` (${node})`} | ${fmt(stats(r.map((x) => x.wall)))} | ${fmt(stats(r.map((x) => x.cpu)))} | ${mains.length ? fmt(stats(mains)) : 'not measurable (no process.threadCpuUsage)'} |`;
  });
  return { lines, loadBefore, loadAfter };
}

if (process.argv.includes('--group-cold')) groupCold();
else main();
