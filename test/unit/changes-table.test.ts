// The before/after tables (preview and result) as data and HTML, and the undo summary.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChangeRow } from '../../src/bulk/jobValues';
import { renderChangesPage } from '../../src/changes/model/page';
import { CellState, ENGLISH_CHANGE_TABLE, formatValue, PreviewTableBuilder, previewTable, renderChangeTable, resultTable } from '../../src/webview/changeTable';
import type { UpdateWorkItemsBody } from '../../src/schema/api';
import { PAGE_SCRIPTS } from '../../src/webview/html';
import { undoSummary, type UndoSummaryStrings } from '../../src/changes/model/undoSummary';

const S = ENGLISH_CHANGE_TABLE;

describe('changes: the before/after table', () => {
  it('preview rows: current → expected per field, computed cells, problems flag the row', () => {
    const current = new Map([
      ['A', { Id: 'A', Name: 'Alpha', PlannedStartDate: '2026-01-01T00:00:00', PlannedFinishDate: null }],
      ['B', { Id: 'B', Name: 'Beta', PlannedStartDate: null, PlannedFinishDate: null }],
    ]);
    const t = previewTable(['A', 'B', 'C'], { moveScheduleDays: 2 }, current, S);
    assert.deepEqual(t.fields, ['PlannedStartDate', 'PlannedFinishDate']);
    assert.deepEqual(t.rows[0], { id: 'A', name: 'Alpha', remarks: '', flagged: false, state: [CellState.Changes, CellState.Unchanged], before: ['2026-01-01', null], after: ['2026-01-03', null] });
    assert.equal(t.rows[2]!.flagged, true, 'an item not found is flagged');
    assert.deepEqual(t.counts, [
      { field: 'PlannedStartDate', changes: 1, unchanged: 1, computed: 0, unexpected: 0 },
      { field: 'PlannedFinishDate', changes: 0, unchanged: 2, computed: 0, unexpected: 0 },
    ]);
    assert.deepEqual(t.lines.map((l) => l.level), ['error', 'info'], 'the missing item and the roll-up note');
  });

  it('preview rows of a change set: each item\'s bodies fill their own fields\' cells; a field no body of the item touches shows its current value, unchanged and not counted', () => {
    const current = new Map([
      ['A', { Id: 'A', Name: 'Alpha', Description: 'old', PlannedStartDate: '2026-01-01T00:00:00', PlannedFinishDate: '2026-01-02T00:00:00' }],
      ['B', { Id: 'B', Name: 'Beta', Description: 'b', PlannedStartDate: '2026-02-01T00:00:00', PlannedFinishDate: '2026-02-02T00:00:00' }],
    ]);
    const bodies = new Map<string, UpdateWorkItemsBody[]>([
      ['A', [{ moveScheduleDays: 1 }, { fields: { Description: 'new' } }]],
      ['B', [{ fields: { Description: 'new' } }]],
    ]);
    const t = new PreviewTableBuilder(['A', 'B'], bodies, S).finish(current);
    const at = (f: string) => t.fields.indexOf(f);
    assert.deepEqual([...t.fields].sort(), ['Description', 'PlannedFinishDate', 'PlannedStartDate']);
    const [a, b] = t.rows;
    assert.deepEqual([a!.state[at('PlannedStartDate')], a!.before[at('PlannedStartDate')], a!.after[at('PlannedStartDate')]], [CellState.Changes, '2026-01-01', '2026-01-02']);
    assert.deepEqual([a!.state[at('Description')], a!.before[at('Description')], a!.after[at('Description')]], [CellState.Changes, 'old', 'new']);
    assert.deepEqual([b!.state[at('PlannedStartDate')], b!.before[at('PlannedStartDate')], b!.after[at('PlannedStartDate')]], [CellState.Unchanged, '2026-02-01T00:00:00', null], 'untouched: the current value');
    assert.equal(t.counts[at('PlannedStartDate')]!.changes + t.counts[at('PlannedStartDate')]!.unchanged, 1, 'an untouched field is not counted');
    assert.equal(t.counts[at('Description')]!.changes, 2);
  });

  it('result rows: before → after, marked where the value is not the expected one', () => {
    const rows: ChangeRow[] = [
      { id: 'A', name: 'Alpha', field: 'PlannedCost', before: 10, after: 10, expected: 20, unexpected: true },
      { id: 'A', name: 'Alpha', field: 'Name', before: 'Alpha', after: 'New', expected: 'New', unexpected: false },
      { id: 'B', field: 'Name', before: 'Beta', unexpected: false },
    ];
    const t = resultTable(rows, ['Name', 'PlannedCost'], new Map([['B', ['warning x']]]), S);
    assert.deepEqual(t.rows[0], { id: 'A', name: 'Alpha', remarks: '', flagged: true, state: [CellState.Changes, CellState.Unexpected], before: ['Alpha', 10], after: ['New', 10] });
    assert.deepEqual(t.rows[1], { id: 'B', name: '', remarks: 'warning x', flagged: true, state: [CellState.Computed, CellState.Unchanged], before: ['Beta', undefined], after: [null, null] });
    assert.equal(t.counts[1]!.unexpected, 1);
  });

  it('values: dates by day, assignments as party (planned hours), empty as the empty mark', () => {
    assert.equal(formatValue('PlannedStartDate', '2026-01-05T00:00:00', '-'), '2026-01-05');
    assert.equal(formatValue('Assignments', [{ PartyId: 'u1', PlannedTime: 60 }, { partyId: 'g1' }], '-'), 'u1 (1 h), g1 (0 h)');
    assert.equal(formatValue('LeaderId', null, '-'), '-');
    assert.equal(formatValue('FieldCalcTypes', { PlannedTime: 'Manual' }, '-'), '{"PlannedTime":"Manual"}');
  });

  it('HTML: text is escaped, the data cannot close its script element, the styles are files of media/ and the script the page\'s bundle (nonce\'d, no inline style or script)', () => {
    const t = previewTable(['X'], { fields: { Name: '</script><img src=x onerror=alert(1)>' } }, new Map([['X', { Id: 'X', Name: '<b>old</b>' }]]), S);
    const html = renderChangesPage({ title: 'T <x>', lines: ['a & b'], section: renderChangeTable(t, S), buttons: [{ command: 'refresh', label: 'Refresh' }], nonce: 'N0NCE', cspSource: 'vscode-resource:' });
    assert.ok(!html.includes('<img'), 'no markup from values');
    assert.ok(!/<\/script><img/.test(html));
    assert.match(html, /T &lt;x&gt;/);
    assert.match(html, /script-src 'nonce-N0NCE'/);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    assert.equal(csp, "default-src 'none'; style-src vscode-resource:; script-src 'nonce-N0NCE'; img-src vscode-resource:");
    const scripts = (html.match(/<script[^>]*>/g) ?? []).filter((t) => !t.includes('type="application/json"'));
    assert.deepEqual(scripts, ['<script nonce="N0NCE" src="dist/web/changes.js">'], 'one script: the page\'s bundle');
    assert.deepEqual(html.match(/<link[^>]*>/g), ['media/changes/page.css', 'media/changes/table.css'].map((f) => `<link rel="stylesheet" href="${f}">`));
    assert.ok(!/<style|style="/.test(html), 'no inline style');
    for (const f of ['media/changes/page.css', 'media/changes/table.css', 'src/changes/web/main.ts']) assert.ok(fs.existsSync(path.join(__dirname, '..', '..', f)), f);
    const addressed = renderChangesPage({ title: 'T', lines: [], section: '', buttons: [], nonce: 'N', cspSource: 'c', assets: (f) => `https://file+.vscode-resource.x/ext/${f}` });
    assert.match(addressed, /<script nonce="N" src="https:\/\/file\+\.vscode-resource\.x\/ext\/dist\/web\/changes\.js"><\/script>/);
    const data = /<script type="application\/json" id="wis-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    assert.equal(JSON.parse(data).rows[0].after[0], '</script><img src=x onerror=alert(1)>', 'the JSON data reads back exactly');
  });

  it('20,000 rows make one data block, not 20,000 DOM rows', () => {
    const current = new Map(Array.from({ length: 20_000 }, (_, i) => [`W${i}`, { Id: `W${i}`, Name: `Item ${i}`, ActualProgress: i % 100, TracksProgress: true, HasChildren: false }]));
    const html = renderChangeTable(previewTable([...current.keys()], { setCompleted: true }, current, S), S);
    assert.equal((html.match(/<tr>/g) ?? []).length, 2, 'only the summary rows are HTML rows');
    assert.equal(JSON.parse(/<script type="application\/json" id="wis-data">([\s\S]*?)<\/script>/.exec(html)![1]!).rows.length, 20_000);
  });

  it('the page scripts are TypeScript of the web/ folders, checked with the DOM types and without Node\'s (tsconfig.web.json), and bundled for the browser where the pages load them', () => {
    const root = path.join(__dirname, '..', '..');
    const web = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.web.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { compilerOptions: { lib: string[]; types: string[] }; include: string[] };
    assert.ok(web.compilerOptions.lib.includes('DOM'));
    assert.deepEqual(web.compilerOptions.types, [], 'no Node types in the browser code');
    assert.ok(!fs.existsSync(path.join(root, 'media', 'changes', 'page.js')) && !fs.existsSync(path.join(root, 'media', 'table', 'table.js')), 'no plain JavaScript page scripts left in media/');
    const build = fs.readFileSync(path.join(root, 'esbuild.js'), 'utf8');
    for (const [page, out] of Object.entries(PAGE_SCRIPTS)) {
      const entry = page === 'results' ? 'src/changes/results/web/main.ts' : `src/${page}/web/main.ts`;
      assert.ok(fs.existsSync(path.join(root, entry)), entry);
      assert.ok(build.includes(`webPage('${entry}', '${out}', outdir)`), `esbuild.js bundles ${entry} into ${out}`);
    }
    assert.match(fs.readFileSync(path.join(root, 'package.json'), 'utf8'), /"typecheck": "tsc --noEmit -p \. && tsc --noEmit -p tsconfig\.web\.json"/);
    const tsc = spawnSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', 'tsconfig.web.json'], { cwd: root, encoding: 'utf8' });
    assert.equal(tsc.status, 0, `${tsc.stdout}${tsc.stderr}`);
  });
});

describe('changes: the undo summary', () => {
  const s: UndoSummaryStrings = {
    title: (n, j) => `Undo of ${n} (${j})`,
    notSent: 'not sent',
    documents: 'Documents',
    document: (kind, items) => `${kind} ${items}`,
    cannot: 'Cannot',
    column: { id: 'ID', member: 'Change', reason: 'Reason' },
    partly: '(partly)',
    reason: (r) => r,
    nothing: 'all back',
    more: (n) => `+${n}`,
  };
  it('lists the documents in order, each by its name (which says its order) and what it puts back, and every change that cannot be put back, by item and reason', () => {
    const text = undoSummary(
      {
        name: 'a.workitems.json',
        jobId: 'J1',
        documents: ['undo-1.workitems.json', 'undo-2.workitems.json'],
        plan: {
          documents: [
            { kind: 'schedule', workItemIds: ['A', 'B'], update: { moveScheduleDays: -1 } },
            { kind: 'parent', workItemIds: ['C'], update: { moveParentTo: 'P' } },
          ],
          nonInvertible: [
            { id: 'A', member: 'clearSchedule', reason: 'links-deleted' },
            { id: 'C|x', member: 'moveParentTo', reason: 'order-unknown', partly: true },
          ],
          items: 3,
          unchanged: [],
        },
      },
      s,
    );
    assert.match(text, /\n- undo-1\.workitems\.json: schedule 2\n- undo-2\.workitems\.json: parent 1\n/);
    assert.doesNotMatch(text, /^\d+\. /m, 'no number before a name that carries it');
    assert.match(text, /\| A \| clearSchedule \| links-deleted \|/);
    assert.match(text, /\| C\\\|x \| moveParentTo \| order-unknown \(partly\) \|/);
  });
});
