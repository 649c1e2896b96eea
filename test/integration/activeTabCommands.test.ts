// Send, Preview and Reveal Work Items with no argument (the command palette, a keybinding), run
// while the active tab's request document is still being read: the tab shows as soon as the file
// is opened, its text editor only once the file has been read. The files are served by a file
// system whose reads wait until the test lets them go (./heldFiles), so each command surely runs
// in between; it acts on that document (each once said to open a request document instead).
// And the active request document is never taken from another tab: a plain file's still being
// read after a request document was shown, or a webview's in front of one.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SendOutcome } from '../../src/changes/send';
import type { WorkItemNode } from '../../src/workItems/nodes';
import { activeRequestDocument, requestDocumentActive } from '../../src/common/activeRequestDocument';
import { HeldFiles, openHeld, runWhileHeld, serveHeld } from './heldFiles';
import { waitFor } from './support';

const document = (workItemIds: string[], update: unknown): string => `${JSON.stringify({ workItemIds, update }, null, 2)}\n`;

describe("commands on the active tab's request document (extension, sandbox)", function () {
  this.timeout(120_000);
  const files = new HeldFiles('wis-held-commands');
  files.add('send.workitems.json', document(['139', '140'], { setTimeEntryLocked: true }));
  files.add('preview.workitems.json', document(['131', '132'], { setTimeEntryLocked: false }));
  files.add('reveal.workitems.json', document(['133', '134'], { setTimeEntryLocked: false }));
  files.add('shown.workitems.json', document(['122'], { setCompleted: true }));
  files.add('notes.txt', 'Not a request document.\n');
  let stop: (() => Promise<void>) | undefined;

  before(async () => {
    stop = await serveHeld(files);
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await stop?.();
  });

  it("Send Work Item Update sends the active tab's request document while its editor is still reading the file", async () => {
    await openHeld(files, 'send.workitems.json');
    const outcomes = await runWhileHeld<SendOutcome[] | undefined>(files, 'send.workitems.json', 'workItemStudio.sendUpdate');
    assert.equal(outcomes?.length, 1, 'one document sent');
    const [sent] = outcomes;
    assert.equal(sent!.document, files.uri('send.workitems.json').toString());
    assert.equal(sent!.result.outcome, 'succeeded', JSON.stringify(sent!.result.requests));
    assert.deepEqual(sent!.result.requests.flatMap((r) => r.ids).sort(), ['139', '140']);
    const origin = new URL(sent!.baseUrl).origin;
    for (const id of ['139', '140']) {
      const item = (await (await fetch(`${origin}/_sandbox/workitems/${id}`)).json()) as { timeEntryLocked?: boolean };
      assert.equal(item.timeEntryLocked, true, `work item ${id} is locked in the sandbox`);
    }
  });

  it("Preview Work Item Update previews the active tab's request document while its editor is still reading the file", async () => {
    await openHeld(files, 'preview.workitems.json');
    const preview = await runWhileHeld<string | undefined>(files, 'preview.workitems.json', 'workItemStudio.previewUpdate');
    assert.ok(preview, 'the command made a preview');
    assert.match(preview, /preview\.workitems\.json/, 'the preview names the document');
    assert.match(preview, /\/workitem\/workItems\/131,132/, "the request for the document's work items");
  });

  it("Reveal Work Items reveals the items of the active tab's request document while its editor is still reading the file", async () => {
    await openHeld(files, 'reveal.workitems.json');
    const revealed = await runWhileHeld<WorkItemNode[] | undefined>(files, 'reveal.workitems.json', 'workItemStudio.revealWorkItems');
    assert.deepEqual(revealed?.map((n) => n.itemId).sort(), ['133', '134']);
  });

  it('a plain file still being read after a request document, or a webview in front of one, is no active request document', async () => {
    files.release('shown.workitems.json');
    await vscode.window.showTextDocument(files.uri('shown.workitems.json'));
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), files.uri('shown.workitems.json').toString());
    // With its editor there: that editor's document, itself.
    assert.equal(await activeRequestDocument(), editor!.document);
    assert.equal(requestDocumentActive(), true);

    // A plain file opened after it, still being read: its tab is active (no text editor of it yet).
    await openHeld(files, 'notes.txt');
    assert.equal(await activeRequestDocument(), undefined, "the plain file's tab is active: no request document");
    assert.equal(requestDocumentActive(), false);
    files.release('notes.txt');
    await waitFor('the text editor of notes.txt', () => vscode.window.activeTextEditor?.document.uri.path === '/notes.txt');

    // A webview in front of the request document.
    await vscode.window.showTextDocument(editor!.document);
    const panel = vscode.window.createWebviewPanel('wisHeldTest', 'Not a document', vscode.ViewColumn.Active, {});
    try {
      await waitFor('the webview tab, active', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview);
      assert.equal(await activeRequestDocument(), undefined, 'a webview is not a request document');
      assert.equal(requestDocumentActive(), false);
    } finally {
      panel.dispose();
    }
  });
});
