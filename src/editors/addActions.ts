// Quick Fixes of the items an add creates (`add` of a request document, its `subItems` at
// any depth): an item type or a status written by name gets the ID of the entry of that name
// (or code) in the profile of the document's project; a new item without "ItemTypeId" gets
// one of the project's item types, and one without "Name" gets an empty name to fill in.
// The renames of field names (old names, case) are RequestDiagnostics' own and work inside
// `add` as in an update.
import * as vscode from 'vscode';
import { findNodeAtLocation, getLocation } from 'jsonc-parser';
import type { ProfileItemType, ProfileStatusType, ProjectProfile } from '../schema/catalogue';
import { parseText } from '../common/model/locate';
import { isRequestDocument } from '../common/requestDocument';
import { DIAGNOSTIC_SOURCE } from '../common/documentCheck';
import type { FieldCatalogueService } from './fieldCatalogue';
import { available, documentProfile, usableItemType } from './fieldAssist';
import { entriesNamed } from './model/profileNames';
import { core } from '../core/load';

/** The profile's entries of a field given by ID (item types of ItemTypeId, statuses of StatusTypeId). */
function entriesOf(profile: ProjectProfile | undefined, field: string): readonly (ProfileItemType | ProfileStatusType)[] {
  if (field === 'ItemTypeId') return (profile?.itemTypes ?? []).filter(usableItemType);
  if (field === 'StatusTypeId') return (profile?.statusTypes ?? []).filter(available);
  return [];
}

export class AddItemActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly catalogue: FieldCatalogueService) {}

  async provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    if (!isRequestDocument(doc)) return [];
    const ours = context.diagnostics.filter(
      (d) => d.source === DIAGNOSTIC_SOURCE && d.range.intersection(range) !== undefined && (d.code === 'ADD_ID_BY_NAME' || d.code === 'ADD_ITEM_TYPE_MISSING' || d.code === 'ADD_NAME_MISSING'),
    );
    if (ours.length === 0) return [];
    const profile = ours.some((d) => d.code !== 'ADD_NAME_MISSING') ? await documentProfile(doc, this.catalogue) : undefined;
    const out: vscode.CodeAction[] = [];
    for (const d of ours) {
      if (d.code === 'ADD_ID_BY_NAME') out.push(...this.byId(doc, d, profile));
      else if (d.code === 'ADD_ITEM_TYPE_MISSING') out.push(...this.addItemType(doc, d, profile));
      else {
        const a = this.insert(doc, d, '"Name": ""', vscode.l10n.t('Add "Name" to the new item'));
        if (a) out.push(a);
      }
    }
    return out;
  }

  /** The entry of the profile named as written, as its ID. */
  private byId(doc: vscode.TextDocument, d: vscode.Diagnostic, profile: ProjectProfile | undefined): vscode.CodeAction[] {
    const text = doc.getText();
    const field = getLocation(text, doc.offsetAt(d.range.start) + 1).path.at(-1);
    let written: unknown;
    try {
      written = JSON.parse(doc.getText(d.range));
    } catch {
      return [];
    }
    if (typeof field !== 'string' || typeof written !== 'string') return [];
    const matches = entriesNamed(entriesOf(profile, field), written);
    return matches.flatMap((e) => {
      const id = core().profileEntryId(e);
      if (!id) return [];
      const title = field === 'ItemTypeId' ? vscode.l10n.t('Use the item type "{0}" (ID {1})', e.name, id) : vscode.l10n.t('Use the status "{0}" (ID {1})', e.name, id);
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(doc.uri, d.range, JSON.stringify(id));
      action.diagnostics = [d];
      action.isPreferred = matches.length === 1;
      return [action];
    });
  }

  /** One action per item type of the profile (or an empty ItemTypeId to complete, without one). */
  private addItemType(doc: vscode.TextDocument, d: vscode.Diagnostic, profile: ProjectProfile | undefined): vscode.CodeAction[] {
    const types = entriesOf(profile, 'ItemTypeId');
    if (types.length === 0) {
      const a = this.insert(doc, d, '"ItemTypeId": ""', vscode.l10n.t('Add "ItemTypeId" to the new item'));
      return a ? [a] : [];
    }
    return types.flatMap((t) => {
      const id = core().profileEntryId(t);
      const a = id ? this.insert(doc, d, `"ItemTypeId": ${JSON.stringify(id)}`, vscode.l10n.t('Add the item type "{0}" (ID {1}) to the new item', t.name, id)) : undefined;
      return a ? [a] : [];
    });
  }

  /** An edit putting `member` first in the `fields` object the diagnostic is on (its key). */
  private insert(doc: vscode.TextDocument, d: vscode.Diagnostic, member: string, title: string): vscode.CodeAction | undefined {
    const text = doc.getText();
    const { root } = parseText(text);
    const path = getLocation(text, doc.offsetAt(d.range.start) + 1).path;
    const node = root && path.at(-1) === 'fields' ? findNodeAtLocation(root, path) : undefined;
    if (node?.type !== 'object') return undefined;
    const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
    action.edit = new vscode.WorkspaceEdit();
    action.edit.insert(doc.uri, doc.positionAt(node.offset + 1), (node.children?.length ?? 0) > 0 ? ` ${member},` : ` ${member} `);
    action.diagnostics = [d];
    return action;
  }
}
