// Open Work Item Table with no argument, run while the active tab's request document is still
// being read: the tab shows as soon as the file is opened, its text editor only once the file
// has been read (on a busy or remote machine, a moment later). The file here is served by a file
// system whose reads wait until the test lets them go (./heldFiles), so the command surely runs
// in between; it opens the table of that document (it once said to open a request document instead).
// The other commands on the active request document: ./activeTabCommands.test.ts.
import * as assert from 'node:assert/strict';
import type { TablePanel } from '../../src/table/panel';
import { HeldFiles, openHeld, runWhileHeld, serveHeld } from './heldFiles';

describe('work item table of the active tab (extension, sandbox)', function () {
  this.timeout(120_000);
  const name = 'held.workitems.json';
  const files = new HeldFiles('wis-slow-read');
  files.add(name, JSON.stringify({ workItemIds: ['122', '123'], update: { fields: { Code: 'X' } } }, null, 2));
  let stop: (() => Promise<void>) | undefined;
  let table: TablePanel | undefined;

  before(async () => {
    stop = await serveHeld(files);
  });

  after(async () => {
    table?.panel.dispose();
    await stop?.();
  });

  it("opens the table of the active tab's request document while its editor is still reading the file", async () => {
    await openHeld(files, name);
    table = await runWhileHeld<TablePanel | undefined>(files, name, 'workItemStudio.openWorkItemTable');
    assert.ok(table, 'the command opened a table');
    assert.deepEqual(table.source.ids, ['122', '123'], "the document's workItemIds");
    assert.equal(table.source.title, `Table: ${name}`);
    await table.whenLoaded();
    assert.deepEqual(new Set(table.viewRows().map((r) => r.id)), new Set(['122', '123']));
  });
});
