// Benchmark: the work item table model (src/table/model) on 100,000 rows, each part beside
// a hand-written baseline doing the same work (bench/table-baselines.ts), in the same run.
//
//   filter: typed filters parsed, compiled and counted over 100,000 rows (goal ≤ 50 ms),
//           beside a plain loop testing the same fields. Name searches: neither side keeps
//           folded names between searches (the model folds at search time), so the plain
//           loop folds each name per search by the rule the model's filter applies (probed:
//           width and case, or NFKC and case), and skips the fold only where that rule
//           cannot change the answer, as the model does; a plain loop over names folded once
//           beforehand is shown beside it (the floor if folded names were kept).
//   group:  10,000 edits (both planned dates shifted, 3 sizes, for 2,000 items; 5
//           planned-time values for 3,000; 3 statuses for 2,000; distinct names for 1,000)
//           into request documents (goal ≤ 50 ms), beside a plain Map grouping giving the
//           very same documents; warm (interleaved) and cold (below).
//   cold:   the first grouping call of a fresh process (BENCH_COLD processes per side,
//           default 7, interleaved, each building the same rows and edits first, then one
//           full GC so that they are not in the young generation, as rows read long
//           before): wall ms, the process's CPU ms (all threads) and, where Node has
//           process.threadCpuUsage (Node 24: the extension host's), the main thread's CPU
//           ms. BENCH_COLD_NODE=<path> runs every process with that Node binary too.
//   sort:   100,000 rows by name (Japanese collation), by planned finish (dates, empty
//           last) and by leader (user names), beside a plain stable sort of the rows by the
//           same key (the same collator; users ranked by name once).
//   csv:    the export of 100,000 rows (11 default columns and the ID, Japanese headers,
//           cells as shown) beside the same cells formatted by hand and written by
//           papaparse's unparse (BOM, CRLF, formulas neutralized as the export does); and
//           the writer alone on the same cells (writeDelimited / Papa.unparse).
//
// Run: npx tsx bench/table.ts   (BENCH_RUNS=n, default 11; BENCH_ROWS=n, default 100000)
// Writes bench/results/table.md, the earlier runs kept below the new one (BENCH_WRITE=0: print only). Medians (and min / max) of the runs, after one warm-up.
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import Papa from 'papaparse';
import { writeKeepingEarlierRuns } from './history';
import { papaCsv, plainGroupEdits, plainRecords } from './table-baselines';
import { COLUMNS, makeEdits, makeRows, USERS } from './table-data';
import {
  type ColumnDef,
  type TableRow,
  DEFAULT_COLUMN_KEYS,
  compileFilterText,
  countMatches,
  exportTable,
  groupEdits,
  pickColumns,
  sortRows,
  userNames,
  userResolver,
  writeDelimited,
} from '../src/table/model';
import type { UpdateWorkItemsBody } from '../src/schema/api';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const COLD = Number(process.env.BENCH_COLD ?? 7);

/** The documents' description, given to both sides (the extension gives groupEdits its own too). */
function describe(update: UpdateWorkItemsBody, itemCount: number): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(update.fields ?? {})) parts.push(`${k} = ${JSON.stringify(v)}`);
  if (update.moveScheduleDays !== undefined) parts.push(`shift the schedule by ${update.moveScheduleDays} days`);
  return `Table edits: ${parts.join(', ')} (${itemCount} work item${itemCount === 1 ? '' : 's'})`;
}

interface Stats {
  min: number;
  median: number;
  max: number;
}
function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const fmt = (x: Stats) => `${ms(x.min)} / ${ms(x.median)} / ${ms(x.max)}`;
/** Median of the per-run ratios a / b, with their min and max. */
const ratio = (a: number[], b: number[]) => {
  const r = stats(a.map((x, i) => x / b[i]!));
  return `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
};
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

/** CPU ms of this process (all its threads, the GC's included) per run, beside the wall times. */
const cpu: Record<string, number[]> = {};

function time(fn: () => unknown, label: string): number {
  const c = process.cpuUsage();
  const t = performance.now();
  fn();
  const wall = performance.now() - t;
  const u = process.cpuUsage(c);
  (cpu[label] ??= []).push((u.user + u.system) / 1000);
  return wall;
}

/**
 * Runs each of `fns` RUNS times after one warm-up of each, in rounds: every round runs each
 * once, the order turned by one each round (each side goes first in turn). Times per side.
 */
function rounds(fns: readonly (() => unknown)[], labels: readonly string[]): number[][] {
  for (const f of fns) f();
  const out = fns.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) {
    for (let k = 0; k < fns.length; k++) {
      const j = (i + k) % fns.length;
      out[j]!.push(time(fns[j]!, labels[j]!));
    }
  }
  return out;
}

/** Two sides, interleaved: `a` (the model, CPU kept under `label`) and `b` (its baseline). */
function pair(a: () => unknown, b: () => unknown, label: string): { a: number[]; b: number[] } {
  const [x, y] = rounds([a, b], [label, `${label} (plain)`]);
  return { a: x!, b: y! };
}

/** What a side's output check found; listed in the results (a failed check means that row is not like for like). */
const checks: string[] = [];
function check(what: string, ok: boolean, detail = ''): void {
  checks.push(`- ${ok ? 'same output' : '**NOT the same output**'}: ${what}${detail ? ` (${detail})` : ''}`);
}

const TODAY = '2026-02-15';
const resolveUser = userResolver(USERS);
const userName = userNames(USERS);
const userNameMap = new Map(USERS.map((u) => [u.id, u.name]));
const ctx = { columns: COLUMNS, today: TODAY, currentUserId: '2101', resolveUser, userName };

/** The fold the table's filter applies to names, as a plain function: NFKC when the filter matches half-width katakana (ﾃｽﾄ) to テスト, else full-width ASCII → ASCII; then lower case. */
function plainFoldRule(): { nfkc: boolean; fold: (s: string) => string } {
  const probe = compileFilterText('name:テスト', ctx);
  const nfkc = probe.ok && countMatches([{ id: '1', fields: { Name: 'ﾃｽﾄ' } }], probe.test) === 1;
  if (nfkc) return { nfkc, fold: (s) => s.normalize('NFKC').toLowerCase() };
  const wide = /[\uff01-\uff5e\u3000\u201c\u201d\u2212]/g;
  const narrow = (ch: string) => {
    const c = ch.charCodeAt(0);
    return c === 0x3000 ? ' ' : c === 0x201c || c === 0x201d ? '"' : c === 0x2212 ? '-' : String.fromCharCode(c - 0xfee0);
  };
  return { nfkc, fold: (s) => s.replace(wide, narrow).toLowerCase() };
}

function filterSection(rows: readonly TableRow[]): string[] {
  const lines: string[] = [];
  const rule = plainFoldRule();
  const t0 = performance.now();
  const foldedNames = rows.map((x) => rule.fold(x.fields.Name as string));
  const foldOnce = performance.now() - t0;
  const row = (label: string, text: string, plain: () => number, folded?: () => number) => {
    let count = -1;
    const model = () => {
      const f = compileFilterText(text, ctx);
      if (!f.ok) throw new Error(f.errors?.map((e) => e.message).join('; '));
      count = countMatches(rows, f.test);
    };
    const [a, b, c] = rounds(folded ? [model, plain, folded] : [model, plain], [label, `${label} (plain)`, `${label} (folded beforehand)`]);
    const plainCount = plain();
    check(`filter "${label}": the model and the plain loop count the same rows`, plainCount === count, `${count} and ${plainCount}`);
    let floor = '— | —';
    if (folded && c) {
      const foldedCount = folded();
      check(`filter "${label}": the loop over names folded beforehand counts the same rows`, foldedCount === count, `${count} and ${foldedCount}`);
      floor = `${fmt(stats(c))} | ${ratio(a!, c)}`;
    }
    const r = { a: a!, b: b! };
    lines.push(
      `| ${label} | \`${text}\` | ${count.toLocaleString('en')} | ${fmt(stats(r.a))} | ${ms(stats(cpu[label]!).median)} | ${fmt(stats(r.b))} | ${ratio(r.a, r.b)} | ${floor} |`,
    );
  };
  row('status, leader, finish and progress', 'status:"進行中" leader:suzuki finish<2026-03-01 progress<100', () => {
    let n = 0;
    for (const x of rows) {
      const f = x.fields;
      if (
        f.StatusTypeId === '52' &&
        f.LeaderId === '2101' &&
        typeof f.PlannedFinishDate === 'string' &&
        f.PlannedFinishDate.slice(0, 10) < '2026-03-01' &&
        (f.ActualProgress as number) < 100
      )
        n++;
    }
    return n;
  });
  const nameSearch = (query: string): [() => number, () => number] => {
    const search = () => {
      const q = rule.fold(query);
      // Width and case folding cannot change whether a name holds a query with no ASCII and no cased letter: searched as written.
      const asWritten = !rule.nfkc && !/[\x20-\x7e]/.test(q) && q === q.toUpperCase();
      let n = 0;
      for (const x of rows) {
        const name = x.fields.Name;
        if (typeof name === 'string' && (asWritten ? name : rule.fold(name)).includes(q)) n++;
      }
      return n;
    };
    const folded = () => {
      const q = rule.fold(query);
      let n = 0;
      for (const s of foldedNames) if (s.includes(q)) n++;
      return n;
    };
    return [search, folded];
  };
  row('name contains, Japanese', 'name:レビュー', ...nameSearch('レビュー'));
  row('name contains, Latin letters in any case', 'name:design', ...nameSearch('design'));
  row('my overdue items', 'mine overdue', () => {
    let n = 0;
    for (const x of rows) {
      const f = x.fields;
      const mine = f.LeaderId === '2101' || (f.Assignments as { partyId: string }[]).some((a) => a.partyId === '2101');
      if (mine && typeof f.PlannedFinishDate === 'string' && f.PlannedFinishDate.slice(0, 10) < TODAY && (f.ActualProgress as number) < 100) n++;
    }
    return n;
  });
  lines.push(
    '',
    `Name folding of the plain loops: ${rule.nfkc ? 'NFKC and lower case (the filter matched ﾃｽﾄ to テスト)' : 'full-width ASCII and the ideographic space to ASCII, then lower case (the filter did not match ﾃｽﾄ to テスト: no NFKC)'}; folding the ${rows.length.toLocaleString('en')} names once took ${ms(foldOnce)} ms.`,
  );
  return lines;
}

function sortSection(rows: readonly TableRow[]): string[] {
  const out: string[] = [];
  const collator = new Intl.Collator('ja', { numeric: true });
  const empty = (v: unknown) => typeof v !== 'string' || v === '';
  const byName = () =>
    [...rows].sort((a, b) => {
      const x = a.fields.Name;
      const y = b.fields.Name;
      if (empty(x) || empty(y)) return Number(empty(x)) - Number(empty(y));
      return collator.compare(x as string, y as string);
    });
  const byKey = <K extends string | number>(key: (r: TableRow) => K | null) => {
    const keyed = rows.map((r) => ({ r, k: key(r) }));
    keyed.sort((a, b) => (a.k === null || b.k === null ? Number(a.k === null) - Number(b.k === null) : a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
    return keyed.map((x) => x.r);
  };
  const byFinish = () =>
    byKey((r) => {
      const v = r.fields.PlannedFinishDate;
      return typeof v === 'string' && /^\d{4}-\d\d-\d\d/.test(v) ? v.slice(0, 10) : null;
    });
  const byLeader = () => {
    const leaderName = (r: TableRow) => {
      const id = r.fields.LeaderId;
      return typeof id === 'string' && id !== '' && id !== '0' ? (userNameMap.get(id) ?? id) : null;
    };
    // The users' names sorted once; the rows by rank.
    const names = new Set<string>();
    for (const r of rows) {
      const n = leaderName(r);
      if (n !== null) names.add(n);
    }
    const rank = new Map([...names].sort(collator.compare).map((n, i) => [n, i]));
    return byKey((r) => {
      const n = leaderName(r);
      return n === null ? null : rank.get(n)!;
    });
  };
  for (const [label, key, plain] of [
    ['name (ja collation)', 'Name', byName],
    ['planned finish (dates)', 'PlannedFinishDate', byFinish],
    ['leader (user names)', 'LeaderId', byLeader],
  ] as const) {
    const c = COLUMNS.find((x) => x.key === key)!;
    const model = () => sortRows(rows, c, 'asc', { userName });
    const r = pair(model, plain, `sort ${label}`);
    check(
      `sort by ${label}: the same row order`,
      isDeepStrictEqual(
        model().map((x) => x.id),
        plain().map((x) => x.id),
      ),
    );
    out.push(`| ${label} | ${fmt(stats(r.a))} | ${fmt(stats(r.b))} | ${ratio(r.a, r.b)} |`);
  }
  return out;
}

/** The leading characters the writer neutralizes (a `'` put before the cell), found by writing one cell of each. */
function formulaStarts(write: (cell: string) => string): string {
  let starts = '';
  for (const ch of ['=', '+', '-', '@', '\t', '\r', '\0']) {
    const text = write(`${ch}x`).replace(/^\ufeff/, '');
    const cells = Papa.parse<string[]>(text, { newline: '\r\n' }).data.flat();
    if (cells.includes(`'${ch}x`)) starts += ch;
  }
  return starts;
}

/** Cells that differ between two CSV texts, read back with papaparse (quoting may differ where both mean the same cells). */
function differingCells(a: string, b: string): { count: number; example: string } {
  const read = (t: string) => Papa.parse<string[]>(t.replace(/^\ufeff/, ''), { newline: '\r\n' }).data;
  const x = read(a);
  const y = read(b);
  let count = Math.abs(x.length - y.length);
  let example = '';
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const n = Math.max(x[i]!.length, y[i]!.length);
    for (let k = 0; k < n; k++) {
      if (x[i]![k] === y[i]![k]) continue;
      count++;
      example ||= `record ${i + 1}, cell ${k + 1}: ${JSON.stringify(x[i]![k] ?? null).slice(0, 40)} and ${JSON.stringify(y[i]![k] ?? null).slice(0, 40)}`;
    }
  }
  return { count, example };
}

function csvSection(rows: readonly TableRow[]): { lines: string[]; note: string } {
  const shown = pickColumns(COLUMNS, DEFAULT_COLUMN_KEYS);
  const idColumn: ColumnDef = { key: 'Id', label: 'ID', labelJa: 'ID', type: 'text' };
  const columns = [idColumn, ...shown];
  const header = columns.map((c) => c.labelJa ?? c.label);
  const nameColumn = COLUMNS.find((c) => c.key === 'Name')!;
  const exportStarts = formulaStarts((cell) => exportTable([{ id: '1', fields: { Name: cell } }], [nameColumn], { format: 'csv' }));
  const writerStarts = formulaStarts((cell) => writeDelimited([[cell]], { format: 'csv' }));
  const model = () => exportTable(rows, shown, { format: 'csv', language: 'ja', userName });
  const plain = () => papaCsv(plainRecords(rows, columns, header, userNameMap), exportStarts);
  const out: string[] = [];
  const r = pair(model, plain, 'csv export');
  const text = model();
  const d = differingCells(text, plain());
  check(
    `CSV export of ${rows.length.toLocaleString('en')} rows: the same cells read back`,
    d.count === 0,
    d.count ? `${d.count} cells differ; ${d.example}` : `${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB`,
  );
  out.push(
    `| export: cells formatted as shown and written (exportTable) | ${fmt(stats(r.a))} | ${ms(stats(cpu['csv export']!).median)} | ${fmt(stats(r.b))} | ${ratio(r.a, r.b)} |`,
  );
  const records = plainRecords(rows, columns, header, userNameMap);
  const w = pair(
    () => writeDelimited(records, { format: 'csv' }),
    () => papaCsv(records, writerStarts),
    'csv writer',
  );
  const dw = differingCells(writeDelimited(records, { format: 'csv' }), papaCsv(records, writerStarts));
  check('CSV writer alone on the same cells: the same cells read back', dw.count === 0, dw.count ? `${dw.count} cells differ; ${dw.example}` : '');
  out.push(
    `| the writer alone, on the same ${records.length.toLocaleString('en')} records of strings (writeDelimited) | ${fmt(stats(w.a))} | ${ms(stats(cpu['csv writer']!).median)} | ${fmt(stats(w.b))} | ${ratio(w.a, w.b)} |`,
  );
  const note = `Formulas: the export neutralizes cells starting with ${exportStarts ? [...exportStarts].map((c) => JSON.stringify(c)).join(' ') : 'nothing (no neutralization)'}, writeDelimited ${writerStarts ? [...writerStarts].map((c) => JSON.stringify(c)).join(' ') : 'nothing'}; papaparse's \`escapeFormulae\` is given the same characters on each side.`;
  return { lines: out, note };
}

function main(): void {
  const loadBefore = os.loadavg();
  const rows = makeRows(ROWS);
  const filterLines = filterSection(rows);

  const edits = makeEdits(rows);
  const model = () => groupEdits(edits, { describe });
  const plain = () => plainGroupEdits(edits, describe);
  const g = pair(model, plain, 'group');
  const grouped = model();
  check(
    `grouping of ${edits.length.toLocaleString('en')} edits: the plain Map grouping gives the same documents and edits`,
    isDeepStrictEqual(grouped, plain()),
    `${grouped.length} documents`,
  );
  const docs = grouped.length;
  const shifts = grouped.filter((x) => x.document.update.moveScheduleDays !== undefined).length;
  const loadGroup = os.loadavg();

  const cold = coldRuns();
  const sortLines = sortSection(rows);
  const csv = csvSection(rows);
  const loadAfter = os.loadavg();
  const cores = os.cpus();
  const md = [
    `# table model benchmark: filter, grouping, sort and CSV export over ${ROWS.toLocaleString('en')} rows, each beside a plain baseline`,
    '',
    `Command: \`npx tsx bench/table.ts\` (\`BENCH_RUNS\`=${RUNS}, \`BENCH_ROWS\`=${ROWS}). ${new Date().toISOString()}; ${cores.length} × ${cores[0]?.model.trim()}, Node ${process.version};`,
    `load average before ${load(loadBefore)}, after the grouping ${load(loadGroup)}, at the end ${load(loadAfter)} (a shared machine: other work ran at the same time; compare ratios).`,
    "Rows: seeded synthetic work items (the fields the default columns show), dates read with a time part, 2 % of the names with commas, quotes, line breaks, formula-like starts, Latin letters in full width and katakana in half width. All times in ms: min / median / max of the runs after one warm-up, the two sides interleaved (each first every other round); ratio = median of the per-run ratios (their min–max in brackets). CPU ms: process.cpuUsage over the same run (all threads: the GC's parallel work counts, waiting for a core does not). Baselines: bench/table-baselines.ts and the loops in bench/table.ts; every baseline's output is checked against the model's (list at the end).",
    '',
    `## Filter over ${ROWS.toLocaleString('en')} rows (goal ≤ 50 ms): parse + compile + count`,
    '',
    '| filter | text | matches | table model ms | its CPU ms, median | plain loop ms (folds at search time, as the model) | ratio | plain loop over names folded once beforehand ms | ratio to it |',
    '|---|---|---:|---|---:|---|---:|---|---:|',
    ...filterLines,
    '',
    '## Grouping 10,000 edits into requests (goal ≤ 50 ms)',
    '',
    `${edits.length.toLocaleString('en')} cell edits of ${new Set(edits.map((e) => e.id)).size.toLocaleString('en')} items → ${docs} request documents (${shifts} of them \`moveScheduleDays\`; 1,000 of them the distinct names). Baseline: the same grouping written with Maps and string keys (JSON of each value), giving the same documents and edits.`,
    '',
    '| what | groupEdits ms | its CPU ms, median | plain Map grouping ms | ratio |',
    '|---|---|---:|---|---:|',
    `| warm (the same process, after one warm-up) | ${fmt(stats(g.a))} | ${ms(stats(cpu.group!).median)} | ${fmt(stats(g.b))} | ${ratio(g.a, g.b)} |`,
    '',
    '### First (cold) call, each in a fresh process',
    '',
    `${COLD} processes per side and Node, run one after the other (the sides interleaved, each first every other time), each building the same ${ROWS.toLocaleString('en')} rows and ${edits.length.toLocaleString('en')} edits, one full GC, then timing its first grouping call. Load average before the processes ${load(cold.loadBefore)}, after ${load(cold.loadAfter)}. Ratio: median of the ratios of the two processes of each round.`,
    '',
    '| Node | side | wall ms | process CPU ms (all threads) | main thread CPU ms | ratio, wall | ratio, main thread CPU |',
    '|---|---|---|---|---|---:|---:|',
    ...cold.lines,
    '',
    `## Sort ${ROWS.toLocaleString('en')} rows`,
    '',
    '| column | sortRows ms | plain stable sort of the rows by the same key, ms | ratio |',
    '|---|---|---|---:|',
    ...sortLines,
    '',
    `## CSV export of ${ROWS.toLocaleString('en')} rows (12 columns, Japanese headers)`,
    '',
    "| what | table model ms | its CPU ms, median | baseline: papaparse's unparse (cells formatted by hand for the export row) ms | ratio |",
    '|---|---|---:|---|---:|',
    ...csv.lines,
    '',
    csv.note,
    '',
    '## Checks of the baselines (run once after the timed rounds)',
    '',
    ...checks,
    '',
  ].join('\n');
  // The earlier runs stay below the new one (demoted a heading level).
  if (process.env.BENCH_WRITE !== '0') writeKeepingEarlierRuns(path.join(__dirname, 'results', 'table.md'), md);
  process.stdout.write(md);
}

interface ColdResult {
  wall: number;
  cpu: number;
  main: number | null;
  docs: number;
}

/**
 * `--group-cold model|plain`: the first grouping call of a fresh process (what "Review
 * Changes" meets once per table), after the rows and edits are built; prints {wall, cpu, main} in ms.
 */
function groupCold(side: string): void {
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
  const out = side === 'plain' ? plainGroupEdits(edits, describe) : groupEdits(edits, { describe });
  const wall = performance.now() - t;
  const u = process.cpuUsage(c);
  const t1 = thread?.();
  const main = t0 && t1 ? (t1.user + t1.system - t0.user - t0.system) / 1000 : null;
  process.stdout.write(`${JSON.stringify({ wall, cpu: (u.user + u.system) / 1000, main, docs: out.length })}\n`);
}

/** The cold first calls: COLD fresh processes per side and Node binary, interleaved. */
function coldRuns(): { lines: string[]; loadBefore: number[]; loadAfter: number[] } {
  const nodes = [process.execPath, ...(process.env.BENCH_COLD_NODE ? [process.env.BENCH_COLD_NODE] : [])];
  const results = new Map<string, ColdResult[]>();
  const loadBefore = os.loadavg();
  for (let i = 0; i < COLD; i++) {
    for (const node of nodes) {
      for (const side of i % 2 === 0 ? ['model', 'plain'] : ['plain', 'model']) {
        const text = execFileSync(node, ['--expose-gc', ...process.execArgv, __filename, '--group-cold', side], {
          encoding: 'utf8',
          env: { ...process.env, BENCH_ROWS: String(ROWS) },
        });
        const key = `${node}\n${side}`;
        results.set(key, [...(results.get(key) ?? []), JSON.parse(text.trim().split('\n').pop()!) as ColdResult]);
      }
    }
  }
  const loadAfter = os.loadavg();
  const lines: string[] = [];
  for (const node of nodes) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const m = results.get(`${node}\nmodel`)!;
    const p = results.get(`${node}\nplain`)!;
    check(
      `cold grouping (${version}): both sides make the same number of documents`,
      m.every((x, i) => x.docs === p[i]!.docs),
      `${m[0]!.docs}`,
    );
    const mains = (r: ColdResult[]) => r.map((x) => x.main).filter((x): x is number => x !== null);
    const hasMain = mains(m).length === m.length && mains(p).length === p.length;
    for (const [side, r] of [
      ['groupEdits', m],
      ['plain Map grouping', p],
    ] as const) {
      const first = side === 'groupEdits';
      lines.push(
        `| ${first ? `${version}${node === process.execPath ? '' : ` (${node})`}` : ''} | ${side} | ${fmt(stats(r.map((x) => x.wall)))} | ${fmt(stats(r.map((x) => x.cpu)))} | ${hasMain ? fmt(stats(mains(r))) : 'not measurable (no process.threadCpuUsage)'} | ${
          first
            ? ratio(
                m.map((x) => x.wall),
                p.map((x) => x.wall),
              )
            : ''
        } | ${first && hasMain ? ratio(mains(m), mains(p)) : ''} |`,
      );
    }
  }
  return { lines, loadBefore, loadAfter };
}

const coldAt = process.argv.indexOf('--group-cold');
if (coldAt >= 0) groupCold(process.argv[coldAt + 1] ?? 'model');
else main();
