// Copy Folder as Template in a real extension host against the demo sandbox: folder 110
// (設計, project 3001: three live tasks and three deleted ones) copied below folder 300 of
// another project (3002) to start on 2026-09-07. One request document with one add opens
// with its Preview (the copies as new rows); one Send adds them below 300 with every planned
// date moved by the same days; Create Undo Document writes the delete of the copy, and its
// Send deletes it. A folder holding an item type the destination cannot use is refused with
// the item type and the item named.
import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { activateExtension, answering, closeUntitledDocuments, waitFor } from './support';

const SOURCE = '110';
const DESTINATION = '300';
const START = '2026-09-07';

interface Stored {
  name: string;
  parentId: string | null;
  isDeleted: boolean;
  itemTypeId: string;
  statusTypeId?: string | null;
  plannedStartDate: string | null;
  plannedFinishDate: string | null;
  actualTime?: number;
  order: number;
}
interface SendOutcome {
  jobId?: string;
  baseUrl: string;
  result: { outcome: string; requests: { state: string; path: string; response?: { items?: { id?: string }[] } }[] };
}
interface CopyOutcome {
  document?: string;
  count?: number;
  shiftDays?: number;
  problem?: string;
}
interface AddDocument {
  description?: string;
  service?: string;
  add: { parentId: string; orderLast?: boolean; fields: Record<string, unknown>; subItems?: { fields: Record<string, unknown> }[] };
}

const day = (d: string | null): string | null => (d === null ? null : d.slice(0, 10));
const days = (from: string, to: string): number => (Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000;

describe('Copy Folder as Template: a folder copied with a schedule shift, previewed, sent and undone as one add', function () {
  this.timeout(300_000);
  let origin = '';
  const stored = async (id: string): Promise<Stored> => {
    const res = await fetch(`${origin}/_sandbox/workitems/${encodeURIComponent(id)}`);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Stored;
  };

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });
  after(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('refuses a folder that holds an item type the destination project cannot use, naming the type and the item', async () => {
    // Folder 120 (実装) holds 126 (旧形式の作業) of the item type 46, which no project can use.
    const r = (await vscode.commands.executeCommand('workItemStudio.copyAsTemplate', { sourceId: '120', destinationId: DESTINATION, startDate: '' })) as CopyOutcome;
    assert.ok(r.problem, JSON.stringify(r));
    assert.match(r.problem, /旧作業種類（利用不可）/);
    assert.match(r.problem, /旧形式の作業/);
    assert.match(r.problem, /\b46\b/);
    assert.match(r.problem, /\b126\b/);
  });

  it('refuses a start date that is not a day of the calendar', async () => {
    const r = (await vscode.commands.executeCommand('workItemStudio.copyAsTemplate', { sourceId: SOURCE, destinationId: DESTINATION, startDate: '2026-02-30' })) as CopyOutcome;
    assert.match(r.problem ?? '', /2026-02-30/, JSON.stringify(r));
    assert.equal(r.document, undefined);
  });

  it('the real questions: the clicked folder, its project first, its top level, no start date; Escape opens nothing', async () => {
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    const settle = (ms = 1500) => new Promise((r) => setTimeout(r, ms));
    const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    // Started from the context menu of 110's row: the row is the first argument.
    const copied = Promise.resolve(vscode.commands.executeCommand('workItemStudio.copyAsTemplate', { kind: 'workItem', itemId: SOURCE })) as Promise<CopyOutcome | undefined>;
    await settle(2500); // the subtree is read first
    await accept(); // step 1: the source's project (3001) comes first
    await settle(3000); // its folders and profile are read
    await accept(); // step 2: its top level (the root folder 10) comes first
    await settle();
    await accept(); // the start date: empty, the dates stay
    // A question still open (a step slower than the waits) is closed, so the test fails instead of hanging.
    const r = await Promise.race([copied, settle(20_000).then(async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return { problem: 'a question was still open 20 s after the last answer' } as CopyOutcome;
    })]);
    assert.ok(r?.document, JSON.stringify(r));
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === r.document)!;
    const value = parse(doc.getText()) as AddDocument;
    assert.equal(value.add.parentId, '10');
    assert.equal(r.shiftDays, 0);
    assert.equal(value.add.fields.PlannedStartDate, '2026-01-05');

    // The request documents open (other documents, such as a preview's, may come and go meanwhile).
    const requestDocs = () => vscode.workspace.textDocuments.filter((d) => !d.isClosed && d.uri.path.endsWith('.workitems.json')).map((d) => d.uri.toString());
    const before = new Set(requestDocs());
    const escaped = Promise.resolve(vscode.commands.executeCommand('workItemStudio.copyAsTemplate', { kind: 'workItem', itemId: SOURCE }));
    await settle(2500);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const left = await Promise.race([escaped, settle(20_000).then(async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return 'still asking 20 s after Escape';
    })]);
    assert.equal(left, undefined, 'Escape opens nothing');
    assert.deepEqual(requestDocs().filter((u) => !before.has(u)), [], 'no request document opened');
  });

  it('one add document → Preview shows the copies as new rows → Send adds them below the destination, dates shifted → undo deletes them @errors', async () => {
    const r = (await vscode.commands.executeCommand('workItemStudio.copyAsTemplate', { sourceId: SOURCE, destinationId: DESTINATION, startDate: START })) as CopyOutcome;
    assert.ok(r.document, JSON.stringify(r));
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === r.document)!;
    assert.ok(doc, 'the request document is open');
    const value = parse(doc.getText()) as AddDocument;
    assert.equal(value.add.parentId, DESTINATION);
    assert.equal(value.add.orderLast, true);
    assert.equal(value.add.fields.Name, '設計');
    assert.equal(value.add.fields.PlannedStartDate, START);
    assert.ok(!('StatusTypeId' in value.add.fields) && !('Id' in value.add.fields) && !('ActualTime' in value.add.fields), JSON.stringify(value.add.fields));
    origin = new URL(value.service!).origin;

    // The originals as the sandbox holds them now: the live children of 110, in order.
    const top = await stored(SOURCE);
    const shift = days(top.plannedStartDate!, START);
    assert.equal(r.shiftDays, shift);
    const names = (value.add.subItems ?? []).map((s) => s.fields.Name);
    assert.deepEqual(names, ['要件定義', '基本設計', '設計レビュー'], 'the deleted sub-items are not copied');
    assert.equal(r.count, 4);

    // The Preview opened beside it: the four copies as new rows.
    const state = await waitFor('the Before/After view with the new rows', async () => {
      const s = (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', 'state')) as { document?: string; rows?: { id: string; name: string }[] };
      return s.document === r.document && (s.rows?.length ?? 0) >= 4 ? s : undefined;
    });
    assert.deepEqual(state.rows!.map((row) => row.name.trim()), ['設計', '要件定義', '基本設計', '設計レビュー']);
    assert.ok(state.rows!.every((row) => !/^\d+$/.test(row.id)), `new rows: ${JSON.stringify(state.rows)}`);

    const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', doc.uri)) as SendOutcome[];
    assert.equal(sent.length, 1, 'one job');
    assert.equal(sent[0]!.result.outcome, 'succeeded', JSON.stringify(sent[0]!.result.requests));
    assert.equal(sent[0]!.result.requests.length, 1, 'one request: the add');
    const added = (sent[0]!.result.requests[0]!.response?.items ?? []).map((i) => String(i.id));
    assert.equal(added.length, 4, JSON.stringify(sent[0]!.result.requests[0]));

    // The copy below 300, its sub-items below it, every planned date moved by the same days.
    const copy = await stored(added[0]!);
    assert.equal(copy.parentId, DESTINATION);
    assert.equal(copy.name, '設計');
    assert.equal(day(copy.plannedStartDate), START);
    const originals = ['111', '112', '113'];
    for (let i = 0; i < originals.length; i++) {
      const original = await stored(originals[i]!);
      const c = await stored(added[i + 1]!);
      assert.equal(c.parentId, added[0], `${c.name} is below the copy`);
      assert.equal(c.name, original.name);
      assert.equal(c.itemTypeId, original.itemTypeId);
      assert.equal(c.actualTime ?? 0, 0, 'no actuals');
      for (const k of ['plannedStartDate', 'plannedFinishDate'] as const) {
        if (original[k] === null) assert.equal(c[k], null, `${original.name}: no ${k}`);
        else assert.equal(days(original[k], c[k]!), shift, `${original.name}: ${k} moved by ${shift} days`);
      }
    }

    const undo = (await answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', sent[0]!.jobId))) as { documents: vscode.Uri[] };
    assert.equal(undo.documents.length, 1, 'one undo document');
    const undoText = (await vscode.workspace.openTextDocument(undo.documents[0]!)).getText();
    const undoValue = parse(undoText) as { delete?: { workItemIds: string[] }; requests?: { delete?: { workItemIds: string[] } }[] };
    const deletes = undoValue.delete ? [undoValue.delete] : (undoValue.requests ?? []).map((q) => q.delete).filter((d) => d !== undefined);
    assert.deepEqual(deletes.map((d) => d!.workItemIds), [[added[0]]], undoText);
    const undone = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', undo.documents[0])) as SendOutcome[];
    assert.equal(undone[0]!.result.outcome, 'succeeded', JSON.stringify(undone[0]!.result.requests));
    for (const id of added) assert.equal((await stored(id)).isDeleted, true, `${id} is deleted`);
  });
});
