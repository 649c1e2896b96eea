// A request document that adds work items, in a real extension host against the sandbox:
// a change set of an add below a folder (a folder with two sub-items) and an update of
// another item. Its Preview shows the items to be added as new rows beside the updated
// item; one Send adds them (one POST) and updates; the new items exist; Create Undo
// Document writes one document whose delete takes back the add (and whose update puts
// the other item back); its Send deletes them (deleted items stay, marked deleted). An add
// whose answer is lost is found again by Resume (Look for Added Items), never sent twice.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { activateExtension, answering, closeUntitledDocuments, revertDirtyDocuments, waitFor, workspaceFolder } from './support';

/** The demo's root folder of project 3001, its folder and task item types, and an item to update. */
const ROOT = '10';
const FOLDER = '41';
const TASK = '42';
const UPDATED = '121';

interface SendOutcome {
  jobId?: string;
  result: { outcome: string; requests: { state: string; ids: string[]; path: string; response?: { items?: { id?: string; name?: string; parentId?: string }[] } }[] };
}
interface ButtonState {
  document?: string;
  rows?: { id: string; name: string }[];
}

async function stored(baseUrl: string, id: string): Promise<{ name: string; isDeleted: boolean; code: string; parentId: string | null }> {
  const res = await fetch(`${new URL(baseUrl).origin}/_sandbox/workitems/${encodeURIComponent(id)}`);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as { name: string; isDeleted: boolean; code: string; parentId: string | null };
}

describe('a request document that adds work items: previewed, sent and undone as one change', function () {
  this.timeout(300_000);
  const dir = path.join(workspaceFolder().uri.fsPath, '.integration-add-items');
  const uri = vscode.Uri.file(path.join(dir, `add-${process.pid}.workitems.json`));
  const NAME = `Release ${process.pid}`;

  before(async () => {
    fs.mkdirSync(dir, { recursive: true });
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });
  after(async () => {
    await closeUntitledDocuments();
    // A document a completion edited is reverted: closing it must not ask to save it.
    await revertDirtyDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('inside an add, ItemTypeId completes by name from the profile of the parent\'s project, in sub-items too, inserting the ID', async () => {
    const typesUri = vscode.Uri.file(path.join(dir, `types-${process.pid}.workitems.json`));
    fs.writeFileSync(typesUri.fsPath, `{\n  "requests": [\n    { "add": { "parentId": "${ROOT}", "fields": { "ItemTypeId": "", "Name": "x" }, "subItems": [{ "fields": { "ItemTypeId": "" , "Name": "y" } }] } }\n  ]\n}\n`);
    const doc = await vscode.workspace.openTextDocument(typesUri);
    await vscode.window.showTextDocument(doc);
    const typesAt = async (nth: number): Promise<vscode.CompletionItem[]> => {
      let from = -1;
      for (let k = 0; k <= nth; k++) from = doc.getText().indexOf('"ItemTypeId": ""', from + 1);
      const at = doc.positionAt(from + '"ItemTypeId": ""'.length - 1);
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', typesUri, at);
      return list.items.filter((i) => typeof i.label !== 'string' && /^ID \d+$/.test(i.label.description ?? ''));
    };
    for (const nth of [0, 1]) {
      const types = await waitFor(`item types by name (ItemTypeId ${nth + 1})`, async () => {
        const items = await typesAt(nth);
        return items.length > 0 ? items : undefined;
      }, 30_000);
      const task = types.find((i) => (i.label as vscode.CompletionItemLabel).label === '作業');
      assert.ok(task, `item types: ${types.map((i) => (i.label as vscode.CompletionItemLabel).label).join(', ')}`);
      assert.equal(task.insertText, `"${TASK}"`);
    }
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Preview lists the new items → Send adds them → Create Undo Document → Send deletes them @errors', async () => {
    const document = {
      description: 'a release with its tasks, and a code',
      requests: [
        {
          description: 'the release',
          add: {
            parentId: ROOT,
            fields: { ItemTypeId: FOLDER, Name: NAME },
            subItems: [{ fields: { ItemTypeId: TASK, Name: `${NAME} plan`, PlannedTime: 120 } }, { fields: { ItemTypeId: TASK, Name: `${NAME} ship` } }],
            orderLast: true,
          },
        },
        { workItemIds: [UPDATED], update: { fields: { Code: `ADD-${process.pid}` } } },
      ],
    };
    fs.writeFileSync(uri.fsPath, `${JSON.stringify(document, null, 2)}\n`);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));

    const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
    const baseUrl = new RegExp(`POST (\\S+)/workitem/workItems/${ROOT}/subItems`).exec(preview)?.[1];
    assert.ok(baseUrl, preview);
    const codeBefore = (await stored(baseUrl, UPDATED)).code;
    // One Before/After view: the three items to be added as new rows, and the updated item.
    const state = await waitFor('the Before/After view with the new rows', async () => {
      const s = (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', 'state')) as ButtonState;
      return s.document === uri.toString() && (s.rows?.length ?? 0) >= 4 ? s : undefined;
    });
    const rows = state.rows!;
    assert.deepEqual(
      rows.filter((r) => r.id !== UPDATED).map((r) => r.name.trim()),
      [NAME, `${NAME} plan`, `${NAME} ship`],
      JSON.stringify(rows),
    );
    assert.ok(rows.filter((r) => r.id !== UPDATED).every((r) => r.id === rows[0]!.id && !/^\d+$/.test(r.id)), `new rows are marked as new: ${JSON.stringify(rows)}`);
    assert.ok(rows.some((r) => r.id === UPDATED));

    const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as SendOutcome[];
    assert.equal(sent.length, 1, 'one job');
    assert.equal(sent[0]!.result.outcome, 'succeeded', JSON.stringify(sent[0]!.result.requests));
    const add = sent[0]!.result.requests.find((r) => r.path.endsWith('/subItems'))!;
    const added = (add.response?.items ?? []).map((i) => String(i.id));
    assert.equal(added.length, 3, JSON.stringify(add));
    const top = await stored(baseUrl, added[0]!);
    assert.equal(top.name, NAME);
    assert.equal(top.parentId, ROOT);
    for (const id of added) assert.equal((await stored(baseUrl, id)).isDeleted, false, `${id} exists`);
    assert.equal((await stored(baseUrl, UPDATED)).code, `ADD-${process.pid}`);

    const undo = (await answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', sent[0]!.jobId))) as { documents: vscode.Uri[] };
    assert.equal(undo.documents.length, 1, 'one undo document');
    const undoText = (await vscode.workspace.openTextDocument(undo.documents[0]!)).getText();
    const requests = (parse(undoText) as { requests?: { workItemIds?: string[]; delete?: { workItemIds: string[] } }[] }).requests ?? [];
    // The update was sent last: put back first; then the delete of the item added below the folder (its sub-items go with it).
    assert.deepEqual(
      requests.map((r) => (r.delete ? ['delete', r.delete.workItemIds] : ['update', r.workItemIds])),
      [
        ['update', [UPDATED]],
        ['delete', [added[0]]],
      ],
      undoText,
    );
    const undone = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', undo.documents[0])) as SendOutcome[];
    assert.equal(undone.length, 1);
    assert.equal(undone[0]!.result.outcome, 'succeeded', JSON.stringify(undone[0]!.result.requests));
    for (const id of added) assert.equal((await stored(baseUrl, id)).isDeleted, true, `${id} deleted (kept, marked deleted)`);
    assert.equal((await stored(baseUrl, UPDATED)).code, codeBefore);
  });

  it('an add whose answer is lost after it was applied: the result offers Look for Added Items, which finds it by its key and never sends it again', async () => {
    const name = `Lost answer ${process.pid}`;
    const lostUri = vscode.Uri.file(path.join(dir, `lost-${process.pid}.workitems.json`));
    fs.writeFileSync(lostUri.fsPath, `${JSON.stringify({ add: { parentId: ROOT, fields: { ItemTypeId: FOLDER, Name: name }, subItems: [{ fields: { ItemTypeId: TASK, Name: `${name} task` } }] } }, null, 2)}\n`);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(lostUri));
    const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', lostUri)) as string;
    const baseUrl = new RegExp(`POST (\\S+)/workitem/workItems/${ROOT}/subItems`).exec(preview)?.[1];
    assert.ok(baseUrl, preview);
    const origin = new URL(baseUrl).origin;
    const copies = async (): Promise<string[]> => {
      const dump = (await (await fetch(`${origin}/_sandbox/dump`)).json()) as { workItems: { id: string; name: string; isDeleted: boolean }[] };
      return dump.workItems.filter((w) => !w.isDeleted && w.name === name).map((w) => w.id);
    };
    const faulted = await fetch(`${origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'POST', pathContains: '/subItems', dropAfterApply: true }) });
    assert.equal(faulted.status, 200);
    const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', lostUri)) as SendOutcome[];
    assert.equal(sent[0]!.result.requests[0]!.state, 'unknown', JSON.stringify(sent[0]!.result.requests));
    assert.equal((await copies()).length, 1, 'the sandbox applied it');
    // The result view's "Look for Added Items" runs Resume on the job: the question is answered "Send".
    const asked: string[] = [];
    const looked = (await answering({ jobs: { resume: async (q) => (asked.push(q.message), 'send') } }, () => vscode.commands.executeCommand('workItemStudio.resumeJobs', sent[0]!.jobId))) as SendOutcome['result'] & {
      requests: { matched?: string }[];
    };
    assert.match(asked[0] ?? '', /Look for the items of the add of unknown outcome/);
    assert.equal(looked.requests[0]!.state, 'succeeded');
    assert.equal(looked.requests[0]!.matched, 'key');
    const found = await copies();
    assert.equal(found.length, 1, 'never sent again');
    assert.equal(String(looked.requests[0]!.response?.items?.[0]?.id), found[0]);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
