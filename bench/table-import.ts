// Benchmark: CSV import of the work item table (src/table/model importTable) against
// papaparse's parse of the same text (a bench-only devDependency, never bundled).
//
//   import:  the whole model import of an exported table of 100,000 rows (about 29 MiB):
//            parse, header mapping, every cell compared with the table and the edited
//            ones (one row in ten) parsed and checked into edits.
//   parse:   the model's parser alone (parseDelimited: every record as cells), the
//            like-for-like side of papaparse's Papa.parse(text) (no header option, as
//            strings, the delimiter detected).
//   memory:  each side in a fresh child process (the same text read from a file and the
//            same table built first, then a full GC): the peak RSS over the run minus
//            the RSS before it, and the heap the result keeps.
//   1M rows: the same for a 1,000,000-row file (one run per side).
//
// Run: npx tsx bench/table-import.ts   (BENCH_RUNS=n, default 7; BENCH_ROWS=n, default 100000; BENCH_BIG=0 skips the 1M rows)
// Writes bench/results/table-import.md, the earlier runs kept below the new one. Times:
// min / median / max of the runs after one warm-up, the sides interleaved; ratio = median of per-run ratios.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import Papa from 'papaparse';
import { writeKeepingEarlierRuns } from './history';
import type { FieldType } from '../src/schema/catalogue';
import { serviceFieldCatalogue } from '../src/schema/service-fields';
import { seededRandom as rng } from '../src/sandbox/generate';
import { type TableRow, buildColumns, exportTable, importTable, importTableInSlices, parseDelimited, shiftDate, userNames, userResolver } from '../src/table/model';

const PAPA_VERSION = (JSON.parse(fs.readFileSync(require.resolve('papaparse/package.json'), 'utf8')) as { version: string }).version;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BIG = process.env.BENCH_BIG !== '0';

const FIELDS: FieldType[] = [
  { systemName: 'Name', name: 'Name', dataType: 'String', isSystemField: true, maxLength: 256 },
  { systemName: 'PlannedTime', name: 'Planned time', dataType: 'Integer', isSystemField: true, minValue: 0 },
  { systemName: 'ActualProgress', name: 'Progress', dataType: 'Decimal', isSystemField: true, minValue: 0, maxValue: 100 },
  { systemName: 'Custom_Priority', name: '優先度', dataType: 'List', choices: [{ id: '1', name: '高' }, { id: '2', name: '中' }, { id: '3', name: '低' }] },
  { systemName: 'Custom_Points', name: 'ポイント', dataType: 'Decimal' },
  { systemName: 'Custom_Note', name: 'メモ', dataType: 'String' },
];
const CATALOGUE = serviceFieldCatalogue(FIELDS);
const COLUMNS = buildColumns(FIELDS, {
  itemTypes: [{ id: '41', name: 'フォルダー' }, { id: '42', name: 'タスク' }],
  statusTypes: [{ id: '51', name: '未着手' }, { id: '52', name: '進行中' }, { id: '53', name: '完了' }, { id: '54', name: '保留' }],
});
const USERS = Array.from({ length: 200 }, (_, i) => ({ id: String(2101 + i), name: `${['鈴木', '田中', '佐藤', '高橋', '伊藤'][i % 5]} ${i}`, loginName: `user${i}` }));
const WORDS = ['設計', '実装', 'テスト', 'レビュー', '資料作成', 'リリース', 'design', 'build', '調整', '打合せ'];
const userName = userNames(USERS);
const resolveUser = userResolver(USERS);

function makeRows(n: number): TableRow[] {
  const r = rng(31);
  const rows: TableRow[] = [];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  for (let i = 0; i < n; i++) {
    const start = r() < 0.1 ? null : shiftDate('2026-01-01', Math.floor(r() * 120));
    const finish = start === null ? null : shiftDate(start, Math.floor(r() * 30));
    const id = String(100_000 + i);
    const words = Array.from({ length: 3 + Math.floor(r() * 5) }, () => pick(WORDS)).join(' ');
    rows.push({
      id,
      fields: {
        Id: id, Name: `${pick(WORDS)} ${i}`, Code: `WBS-${i}`, ItemTypeId: '42', StatusTypeId: pick(['51', '52', '53', '54']),
        LeaderId: r() < 0.05 ? '0' : pick(USERS).id, Assignments: [{ partyId: pick(USERS).id }, ...(r() < 0.3 ? [{ partyId: pick(USERS).id }] : [])],
        PlannedStartDate: start === null ? null : `${start}T00:00:00`, PlannedFinishDate: finish === null ? null : `${finish}T00:00:00`,
        PlannedTime: Math.floor(r() * 20) * 60, ActualTime: Math.floor(r() * 10) * 30, ActualProgress: pick([0, 0, 20, 50, 80, 100]),
        ParentName: `フォルダー ${Math.floor(i / 100)}`, FolderName: `フォルダー ${Math.floor(i / 1000)}`, ParentId: String(90_000 + Math.floor(i / 100)),
        ProjectName: '基幹システム更改', Custom_Priority: pick(['1', '2', '3', null]), Custom_Points: Math.floor(r() * 100) / 4,
        Description: r() < 0.3 ? `${words}\r\n「${pick(WORDS)}」の"確認", 担当: ${pick(USERS).name}\r\n${words}` : `${words}、${words}`,
        Custom_Note: r() < 0.5 ? `${pick(WORDS)}, ${pick(WORDS)} について` : null,
      },
    });
  }
  return rows;
}

/** The file: the table exported with every column (Japanese headers), one row in ten edited (status, progress, name). */
function makeText(rows: readonly TableRow[]): string {
  const edited = (r: TableRow): Readonly<Record<string, unknown>> => {
    const i = Number(r.id) - 100_000;
    if (i % 10 !== 0) return r.fields;
    return { ...r.fields, StatusTypeId: '53', ActualProgress: 100, Name: `${r.fields['Name'] as string} (済)` };
  };
  return exportTable(rows, COLUMNS, { format: 'csv', language: 'ja', userName, fieldsOf: edited, allColumns: COLUMNS });
}

const options = (rows: readonly TableRow[]) => ({ columns: COLUMNS, rows: new Map(rows.map((r) => [r.id, r])), catalogue: CATALOGUE, resolveUser, userName });
const papa = (text: string) => Papa.parse<string[]>(text, { header: false }).data.length;

type Side = 'import' | 'parse' | 'papaparse';
function runSide(side: Side, text: string, opts: ReturnType<typeof options>): unknown {
  if (side === 'import') return importTable(text, opts);
  if (side === 'parse') return parseDelimited(text);
  return Papa.parse<string[]>(text, { header: false });
}

// ---- child: one side, for its memory ----
if (process.argv[2] === 'child') {
  const [, , , side, file, n] = process.argv as [string, string, string, Side, string, string];
  const rows = makeRows(Number(n));
  const opts = options(rows);
  const text = fs.readFileSync(file, 'utf8');
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  gc();
  const rss0 = process.memoryUsage().rss;
  const heap0 = process.memoryUsage().heapUsed;
  const peak0 = process.resourceUsage().maxRSS * 1024;
  const t = performance.now();
  const result = runSide(side, text, opts);
  const wall = performance.now() - t;
  const peak1 = process.resourceUsage().maxRSS * 1024;
  const heapKept = process.memoryUsage().heapUsed - heap0;
  gc();
  const heapRetained = process.memoryUsage().heapUsed - heap0;
  process.stdout.write(JSON.stringify({ rss0, peak0, peak1, heapKept, heapRetained, wall, keep: typeof result }));
  process.exit(0);
}

// ---- parent ----
function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
const fmt = (x: { min: number; median: number; max: number }) => `${ms(x.min)} / ${ms(x.median)} / ${ms(x.max)}`;
const mib = (b: number) => (b / 1024 / 1024).toFixed(1);

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** Each of `fns` RUNS times, interleaved (the order turned each round), after one warm-up each. */
function rounds(fns: Record<string, () => unknown>): Record<string, number[]> {
  const names = Object.keys(fns);
  for (const k of names) fns[k]!();
  const out: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? names : [...names].reverse();
    for (const k of order) out[k]!.push(time(fns[k]!));
  }
  return out;
}
const ratio = (a: number[], b: number[]) => stats(a.map((x, i) => x / b[i]!)).median;

/**
 * The import as the command runs it (in slices that yield to the event loop) beside papaparse's
 * parse, RUNS times interleaved after one warm-up each; also the longest slice, i.e. the longest
 * time the extension host's thread is held by the import.
 */
async function sliceRounds(text: string, opts: ReturnType<typeof options>): Promise<{ slices: number[]; papaparse: number[]; longest: number[] }> {
  const longestTurn = async (): Promise<{ ms: number; longest: number }> => {
    let longest = 0;
    let last = performance.now();
    const t0 = last;
    let done = false;
    // A timer that notes how long the thread was away between its turns.
    const tick = (): void => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    await importTableInSlices(text, opts);
    done = true;
    return { ms: performance.now() - t0, longest };
  };
  await longestTurn();
  papa(text);
  const out = { slices: [] as number[], papaparse: [] as number[], longest: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    const first = i % 2 === 0;
    if (!first) out.papaparse.push(time(() => papa(text)));
    const r = await longestTurn();
    out.slices.push(r.ms);
    out.longest.push(r.longest);
    if (first) out.papaparse.push(time(() => papa(text)));
  }
  return out;
}

interface ChildResult { rss0: number; peak0: number; peak1: number; heapKept: number; heapRetained: number; wall: number }
function child(side: Side, file: string, n: number): ChildResult {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename, 'child', side, file, String(n)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as ChildResult;
}
const peakGrowth = (c: ChildResult): string => (c.peak1 > c.peak0 ? mib(c.peak1 - c.rss0) : `≤ ${mib(c.peak0 - c.rss0)} (below the set-up's peak)`);

function memory(sides: Side[], file: string, n: number, times: number): Record<Side, ChildResult[]> {
  const out = Object.fromEntries(sides.map((s) => [s, [] as ChildResult[]])) as Record<Side, ChildResult[]>;
  for (let i = 0; i < times; i++) for (const s of i % 2 === 0 ? sides : [...sides].reverse()) out[s].push(child(s, file, n));
  return out;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const rows = makeRows(ROWS);
  const text = makeText(rows);
  const bytes = Buffer.byteLength(text);
  const opts = options(rows);
  const check = importTable(text, opts);
  const timesOf = rounds({ import: () => importTable(text, opts), parse: () => parseDelimited(text), papaparse: () => papa(text) });
  const sliced = await sliceRounds(text, opts);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'table-import-'));
  const file = path.join(dir, 'table.csv');
  fs.writeFileSync(file, text);
  const mem = memory(['import', 'parse', 'papaparse'], file, ROWS, 3);
  let big = '';
  if (BIG) {
    const bigRows = makeRows(1_000_000);
    const bigText = makeText(bigRows);
    const bigFile = path.join(dir, 'big.csv');
    fs.writeFileSync(bigFile, bigText);
    const bigOpts = options(bigRows);
    const t = { import: time(() => importTable(bigText, bigOpts)), parse: time(() => parseDelimited(bigText)), papaparse: time(() => papa(bigText)) };
    const bm = memory(['import', 'papaparse'], bigFile, 1_000_000, 1);
    big = [
      `## 1,000,000 rows (${mib(Buffer.byteLength(bigText))} MiB), one run each`,
      '',
      '| side | ms | peak RSS growth in a fresh process, MiB | heap kept by the result, MiB |',
      '|---|---:|---:|---:|',
      `| model import | ${ms(t.import)} | ${peakGrowth(bm.import[0]!)} | ${mib(bm.import[0]!.heapRetained)} |`,
      `| model parse alone | ${ms(t.parse)} | | |`,
      `| papaparse | ${ms(t.papaparse)} | ${peakGrowth(bm.papaparse[0]!)} | ${mib(bm.papaparse[0]!.heapRetained)} |`,
      '',
    ].join('\n');
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const loadAfter = os.loadavg();
  const cores = os.cpus();
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const memRow = (label: string, cs: ChildResult[]) => {
    const peaks = cs.map((c) => c.peak1 - c.rss0);
    const shown = cs.every((c) => c.peak1 > c.peak0) ? `${mib(stats(peaks).median)} (${(stats(peaks).median / bytes).toFixed(2)}× the file)` : cs.map(peakGrowth).join(', ');
    return `| ${label} | ${shown} | ${mib(stats(cs.map((c) => c.heapRetained)).median)} | ${fmt(stats(cs.map((c) => c.wall)))} |`;
  };
  const md = [
    `# table CSV import benchmark: ${ROWS.toLocaleString('en')} rows against papaparse`,
    '',
    `Command: \`npx tsx bench/table-import.ts\` (\`BENCH_RUNS\`=${RUNS}, \`BENCH_ROWS\`=${ROWS}). ${new Date().toISOString()}; ${cores.length} × ${cores[0]?.model ?? 'CPU'}, Node ${process.version}, papaparse ${PAPA_VERSION};`,
    `load average before ${load(loadBefore)}, after ${load(loadAfter)} (a shared machine: other work ran at the same time; compare ratios).`,
    '',
    `The file: the table exported with all ${COLUMNS.length} columns and Japanese headers (${mib(bytes)} MiB as UTF-8, ${text.length.toLocaleString('en')} characters; 30% of the descriptions with CRLF, quotes and commas), one row in ten edited (status, progress, name). The import gives ${check.changes.length.toLocaleString('en')} edits, ${check.problems.length} problems.`,
    '"Model import" is the whole import: parse, header mapping, every cell compared with the table, the edited ones parsed and checked into edits. "Model parse" is the parser alone (every record as cells), the like-for-like side of papaparse (`Papa.parse(text)`, strings, delimiter detected).',
    '',
    `## Time, ms (min / median / max of ${RUNS} runs after one warm-up, interleaved)`,
    '',
    '| side | ms | ratio to papaparse (median of per-run ratios) |',
    '|---|---|---:|',
    `| model import | ${fmt(stats(timesOf['import']!))} | ${ratio(timesOf['import']!, timesOf['papaparse']!).toFixed(2)}× |`,
    `| model parse alone | ${fmt(stats(timesOf['parse']!))} | ${ratio(timesOf['parse']!, timesOf['papaparse']!).toFixed(2)}× |`,
    `| papaparse | ${fmt(stats(timesOf['papaparse']!))} | 1× |`,
    '',
    `The import as Import CSV/TSV into Table runs it, in slices that yield to the event loop (importTableInSlices), in its own ${RUNS} interleaved rounds beside papaparse: ${fmt(stats(sliced.slices))} ms, ${ratio(sliced.slices, sliced.papaparse).toFixed(2)}× papaparse (${fmt(stats(sliced.papaparse))} ms in those rounds); the longest the thread was held between two turns of a timer: ${fmt(stats(sliced.longest))} ms.`,
    '',
    '## Memory, each side in a fresh process (3 each, interleaved; the same text and table set up first, then a full GC)',
    '',
    '| side | peak RSS growth over the run, MiB (median) | heap kept by the result, MiB | ms in that process |',
    '|---|---:|---:|---|',
    memRow('model import', mem.import),
    memRow('model parse alone', mem.parse),
    memRow('papaparse', mem.papaparse),
    '',
    big,
  ].join('\n');
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'table-import.md'), md);
  process.stdout.write(md);
}

void main();
