// Benchmark: first paint of the before/after tables with 20,000 rows, in the E2E
// browser (code-server + headless Chromium, test/e2e/workbench.ts): the result view
// of a job that changed 20,000 work items, and the preview of the same document.
//
// Webview time: each table page records `document.body.dataset.firstPaintMs`, the
// webview document's `performance.now()` in the first animation frame after the
// table's rows were put in (from the document's navigation start: HTML and JSON
// parsing, the script, layout). Each repetition shows the view again (its HTML is
// set again, a fresh document), alternating result view and preview.
//
// Run: npx tsx bench/before-after-paint.ts   (BENCH_RUNS=n, default 7; BENCH_ITEMS=n, default 20000)
// Writes bench/results/before-after-paint.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { generateDataset } from '../src/sandbox';
import { Workbench } from '../test/e2e/workbench';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 20_000);

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}

async function main(): Promise<void> {
  const data = generateDataset({ workItems: ITEMS + 50, users: 20, organizations: 3, processCategories: 0, seed: 11 });
  const ids = (data.workItems ?? []).filter((w) => !w.isDeleted && w.parentId !== null).map((w) => w.id).slice(0, ITEMS);
  const wb = await Workbench.start({
    files: { 'bench.workitems.json': { description: 'Benchmark', workItemIds: ids, update: { fields: { Description: 'benchmark' } } } },
    settings: { 'workItemStudio.bulk.requestsPerMinute': 1500, 'workItemStudio.bulk.concurrency': 4, 'workItemStudio.bulk.confirmAboveItems': 1_000_000 },
  });
  try {
    const reset = await fetch(`${wb.sandbox.origin}/_sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) });
    if (!reset.ok) throw new Error(`reset: ${reset.status}`);
    await wb.runCommand('Work Item Studio: Sign In…');
    await wb.signIn('admin', 'password', wb.page.locator('.statusbar-item', { hasText: /admin@127\.0\.0\.1/ }));
    await wb.openFile('bench.workitems.json');
    await wb.runCommand('Work Item Studio: Send Work Item Update');
    await wb.expectVisible(wb.notification(new RegExp(`Updated ${ITEMS} work items`)), 'the end of the send', 10 * 60_000);
    const resultTab = wb.page.locator('.tabs-container .tab', { hasText: /^Results/ });
    await wb.expectVisible(resultTab, 'the result view');

    const painted = async (frame: FrameLocator, previous: string | null): Promise<{ paint: number; script: number; rows: number }> => {
      const body = frame.locator(`body[data-first-paint-ms]${previous ? `:not([data-first-paint-ms="${previous}"])` : ''}`);
      await body.waitFor({ state: 'attached', timeout: 120_000 });
      const [paint, script, rows] = await Promise.all(['data-first-paint-ms', 'data-script-ms', 'data-rows'].map((a) => body.getAttribute(a)));
      return { paint: Number(paint), script: Number(script), rows: Number(rows) };
    };
    const activeFrame = (): FrameLocator => wb.page.frameLocator('.part.editor .editor-instance iframe.webview.ready').frameLocator('iframe#active-frame');

    const result: number[] = [];
    const resultScript: number[] = [];
    const preview: number[] = [];
    const previewScript: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      // The result view again (its HTML is set again: a fresh document).
      await wb.runCommand('Work Item Studio: Show Update Job Results…');
      await wb.pickQuickItem('the job', /Benchmark/);
      await resultTab.first().click();
      const r = await painted(activeFrame(), i === 0 ? null : String(result[result.length - 1]));
      result.push(r.paint);
      resultScript.push(r.script);
      rows = r.rows;
      // The preview of the same document (reads 20,000 items again).
      await wb.openFile('bench.workitems.json');
      await wb.runCommand('Work Item Studio: Preview Work Item Update');
      const tab = wb.page.locator('.tabs-container .tab', { hasText: /^Before\/After/ });
      await wb.expectVisible(tab, 'the Before/After view', 120_000);
      await tab.first().click();
      const p = await painted(activeFrame(), i === 0 ? null : String(preview[preview.length - 1]));
      preview.push(p.paint);
      previewScript.push(p.script);
    }
    const a = stats(result);
    const as = stats(resultScript);
    const b = stats(preview);
    const bs = stats(previewScript);
    const md = `# Before/after tables: first paint of ${rows} rows in the E2E browser

\`npx tsx bench/before-after-paint.ts\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, headless Chromium on code-server, ${RUNS} repetitions, result view and preview alternating).

A job that set the description of ${ITEMS} work items (generated data set in the sandbox);
its result view (before → after) and the preview of the same document (current → expected).
*First paint*: the webview document's \`performance.now()\` in the first animation frame after
the visible rows were put in (from its navigation start: HTML, the embedded JSON, the script,
layout). *Script*: the table script's own part of it (parse the rows, build the visible ones).

| | min ms | median ms | max ms |
|---|---:|---:|---:|
| result view: first paint | ${a.min} | ${a.median} | ${a.max} |
| result view: script | ${as.min} | ${as.median} | ${as.max} |
| preview: first paint | ${b.min} | ${b.median} | ${b.max} |
| preview: script | ${bs.min} | ${bs.median} | ${bs.max} |

Target: the result table's first paint ≤ 300 ms (median). ${a.median <= 300 ? 'Met.' : 'Not met.'}
`;
    fs.writeFileSync(path.join(__dirname, 'results', 'before-after-paint.md'), md);
    process.stdout.write(md);
  } finally {
    await wb.stop();
  }
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
