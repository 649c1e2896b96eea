// Activation and contributions, checked through the real `vscode` API: the extension activates,
// every command its manifest contributes (read at run time) is registered, every command that a
// menu, keybinding or welcome view refers to exists, and the request-document JSON Schema reaches
// the editor (diagnostics on an invalid *.workitems.json).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, extension, manifest, waitFor, waitForDiagnostics } from './support';

const BAD_DOCUMENT = JSON.stringify(
  { workItemIds: true, update: { setCompleted: 'yes', notAMember: 1 } },
  null,
  2,
);
const GOOD_DOCUMENT = JSON.stringify({ workItemIds: ['1', '2'], update: { setCompleted: true } }, null, 2);

/** Folder for the documents this suite writes: inside the workspace when there is one (schemas match by path). */
function scratchFolder(): string {
  const ws = vscode.workspace.workspaceFolders?.[0];
  const base = ws ? path.join(ws.uri.fsPath, '.integration') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-it-'));
  fs.mkdirSync(base, { recursive: true });
  return base;
}

describe('activation @cli', () => {
  it('activates without error', async () => {
    const ext = await activateExtension();
    assert.equal(ext.isActive, true);
  });

  it('under the test runners, the test hooks are on: setPrompts exported, the Before/After button command registered', async () => {
    const ext = await activateExtension();
    const api = ext.exports as { setPrompts?: unknown } | undefined;
    assert.equal(typeof api?.setPrompts, 'function');
    assert.ok((await vscode.commands.getCommands(true)).includes('workItemStudio.pressBeforeAfterButton'));
  });

  it('has a manifest with a publisher, name and version', () => {
    const m = manifest();
    assert.equal(`${m.publisher}.${m.name}`.toLowerCase(), extension().id.toLowerCase());
    assert.match(m.version, /^\d+\.\d+\.\d+/);
  });
});

describe('contributed commands @cli', () => {
  // Built from the installed manifest at load time, one test per command, so a report names what broke.
  let contributed: string[] = [];
  try {
    contributed = (manifest().contributes?.commands ?? []).map((c) => c.command);
  } catch {
    // reported by the 'activation' suite
  }

  it('every contributed command follows workItemStudio.verbNoun', () => {
    const bad = contributed.filter((id) => !/^workItemStudio\.[a-z][A-Za-z0-9]*$/.test(id));
    assert.deepEqual(bad, [], `command ids not of the form workItemStudio.verbNoun: ${bad.join(', ')}`);
  });

  for (const id of contributed) {
    it(`registers ${id}`, async () => {
      await activateExtension();
      const all = await vscode.commands.getCommands(true);
      assert.ok(all.includes(id), `${id} is contributed in package.json but no handler is registered after activation`);
    });
  }

  it('registers every command referenced by menus, keybindings and welcome views', async () => {
    await activateExtension();
    const c = manifest().contributes ?? {};
    const referenced = new Set<string>();
    for (const items of Object.values(c.menus ?? {})) {
      for (const item of items) if (item.command) referenced.add(item.command);
    }
    for (const k of c.keybindings ?? []) referenced.add(k.command);
    for (const w of c.viewsWelcome ?? []) {
      for (const m of w.contents.matchAll(/\(command:([A-Za-z0-9_.-]+)/g)) referenced.add(m[1]!);
    }
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = [...referenced].filter((id) => id.startsWith('workItemStudio.') && !all.has(id));
    assert.deepEqual(missing, [], `referenced but not registered: ${missing.join(', ')}`);
  });
});

describe('request document schema @cli', () => {
  it('contributes a JSON Schema for *.workitems.json', () => {
    const entries = manifest().contributes?.jsonValidation ?? [];
    const matches = entries.filter((e) =>
      (Array.isArray(e.fileMatch) ? e.fileMatch : [e.fileMatch]).some((f) => f.endsWith('.workitems.json')),
    );
    assert.ok(matches.length > 0, 'package.json contributes.jsonValidation has no entry for *.workitems.json');
  });

  it('shows diagnostics for an invalid *.workitems.json and none of error severity for a valid one', async function () {
    this.timeout(90_000);
    await activateExtension();
    const dir = scratchFolder();
    const bad = vscode.Uri.file(path.join(dir, `invalid-${process.pid}.workitems.json`));
    const good = vscode.Uri.file(path.join(dir, `valid-${process.pid}.workitems.json`));
    fs.writeFileSync(bad.fsPath, BAD_DOCUMENT);
    fs.writeFileSync(good.fsPath, GOOD_DOCUMENT);
    try {
      const goodDoc = await vscode.workspace.openTextDocument(good);
      await vscode.window.showTextDocument(goodDoc, { preview: false });
      const badDoc = await vscode.workspace.openTextDocument(bad);
      await vscode.window.showTextDocument(badDoc, { preview: false });

      const diagnostics = await waitForDiagnostics(bad, 60_000);
      // The problems are on the offending members (not, say, a parse error at the top).
      const offending = ['workItemIds', 'setCompleted', 'notAMember'];
      const onOffending = diagnostics.filter((d) =>
        offending.some((word) => badDoc.lineAt(d.range.start.line).text.includes(word)),
      );
      assert.ok(
        onOffending.length > 0,
        `diagnostics not on the offending members: ${diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`).join('; ')}`,
      );
      // Both documents were validated by the same language server; the valid one has no error.
      const goodErrors = await waitFor('the valid document to be validated', () => {
        const d = vscode.languages.getDiagnostics(good);
        return d.filter((x) => x.severity === vscode.DiagnosticSeverity.Error);
      });
      assert.deepEqual(
        goodErrors.map((d) => d.message),
        [],
        'a valid request document has error diagnostics',
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(bad.fsPath, { force: true });
      fs.rmSync(good.fsPath, { force: true });
    }
  });
});
