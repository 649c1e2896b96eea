// People by name: wherever a request document names a user by ID (partyId,
// leaderId/LeaderId, updatedBy, ...), a hover and an inlay hint show the user's
// name and login name when known (from the loaded organizations, or a read of the
// configured organizations' users). Result views use the same directory.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { readSettings } from '../common/config';
import { Disposable } from '../common/disposable';
import type { User } from '../schema/api';
import { isRequestDocument } from '../common/requestDocument';
import { UserDirectory } from './directory';
import { userIdAt, userIdsInText, userLabel } from '../common/model/users';

export { UserDirectory } from './directory';

const SELECTOR: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }];

class UserHints extends Disposable implements vscode.InlayHintsProvider, vscode.HoverProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeInlayHints = this.emitter.event;

  constructor(private readonly directory: UserDirectory) {
    super();
    this.register(
      directory.onDidLearn(() => this.emitter.fire()),
      this.emitter,
    );
  }

  provideInlayHints(doc: vscode.TextDocument, range: vscode.Range): vscode.InlayHint[] {
    if (!isRequestDocument(doc)) return [];
    const found = userIdsInText(doc.getText()).filter((u) => range.contains(doc.positionAt(u.offset)));
    if (found.length === 0) return [];
    const known = this.directory.lookupAll(found.map((u) => u.id));
    // Unknown IDs: one read in the background; the hints come back when it taught us names.
    if (found.some((u) => !known.has(u.id))) void this.directory.resolve(found.map((u) => u.id));
    return found.flatMap((u) => {
      const user = known.get(u.id);
      if (!user) return [];
      const hint = new vscode.InlayHint(doc.positionAt(u.offset + u.length), userLabel(user));
      hint.paddingLeft = true;
      hint.tooltip = vscode.l10n.t('User {0}: {1}', u.id, userLabel(user));
      return [hint];
    });
  }

  async provideHover(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!isRequestDocument(doc)) return undefined;
    const at = userIdAt(doc.getText(), doc.offsetAt(position));
    if (!at) return undefined;
    let user = this.directory.lookup(at.id);
    if (!user && (await this.directory.resolve([at.id]))) user = this.directory.lookup(at.id);
    const range = new vscode.Range(doc.positionAt(at.offset), doc.positionAt(at.offset + at.length));
    const md = new vscode.MarkdownString();
    if (user) {
      md.appendMarkdown(`**${escapeMarkdown(user.name)}**`);
      if (user.loginName) md.appendMarkdown(`  \n${escapeMarkdown(vscode.l10n.t('Login name: {0}', user.loginName))}`);
      md.appendMarkdown(`  \n${escapeMarkdown(vscode.l10n.t('User ID: {0}', at.id))}`);
    } else {
      md.appendMarkdown(escapeMarkdown(vscode.l10n.t('User ID {0}: not among the users of the organizations in the Organizations view.', at.id)));
    }
    return new vscode.Hover(md, range);
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** Registers the hovers and inlay hints; returns the directory (result views use it too). */
export function registerPeople(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  connection: ConnectionManager,
  loadedUsers: () => Iterable<User>,
  findRoots?: () => Promise<readonly string[]>,
): UserDirectory {
  const directory = new UserDirectory(connection, log, () => readSettings().organizations, loadedUsers, findRoots);
  const hints = new UserHints(directory);
  context.subscriptions.push(
    directory,
    hints,
    vscode.languages.registerInlayHintsProvider(SELECTOR, hints),
    vscode.languages.registerHoverProvider(SELECTOR, hints),
  );
  return directory;
}
