// Completion and hover of field names and values in request documents, from the
// connected service's field catalogue (GET /system/fieldTypes) and the profile of the
// document's project (item types, statuses): custom fields with their display name and
// data type; item types (changeItemTypeTo, ItemTypeId of an add), statuses
// (fields.StatusTypeId) and process categories (fields.ProcessCategoryId, the service's list)
// by name, their IDs inserted; a list field's choices. The built-in official system fields come
// from the contributed JSON Schema (the JSON language service), so they are not offered
// twice here. Nothing is read before the first completion or hover while signed in.
import * as vscode from 'vscode';
import { getLocation, getNodeValue, type Node } from 'jsonc-parser';
import type { FieldType, ProfileItemType, ProfileStatusType, ProjectProfile } from '../schema/catalogue';
import type { MemberName } from '../schema/members';
import type { FieldCatalogueService } from './fieldCatalogue';
import { parseText } from '../common/model/locate';
import { isRequestDocument } from '../common/requestDocument';
import { core } from '../core/load';

/** Where in a request document the cursor is, as far as fields are concerned. */
export type FieldPlace =
  /** A field name as a key of a member whose keys are fields: `fields` (only editable fields) or `fieldCalcTypes`. */
  | { kind: 'fieldKey'; member: MemberName; node?: Node }
  /** A field name inside a comma-separated list (propagateToChildren.fields, clearFieldCalcTypes). */
  | { kind: 'fieldList'; node?: Node }
  /** The value of `fields.<name>`. */
  | { kind: 'fieldValue'; field: string; node?: Node }
  /** The value of `changeItemTypeTo`. */
  | { kind: 'itemType'; node?: Node };

/**
 * A path inside a request's body: `['update', ...]` of a single-request document, or of a
 * request of a change set (`['requests', 2, 'update', ...]`), as the single form's path. The
 * fields of an item to add (`['add', 'fields', ...]`, or of a sub-item at any depth,
 * `['add', 'subItems', 0, 'fields', ...]`) are written as an update's are: their path is the
 * update's (`addedItem` says it is an add's).
 */
export function bodyPath(path: readonly (string | number)[]): (string | number)[] & { addedItem?: boolean } {
  const p = path[0] === 'requests' && typeof path[1] === 'number' ? path.slice(2) : [...path];
  if (p[0] !== 'add') return p;
  let i = 1;
  while (p[i] === 'subItems' && typeof p[i + 1] === 'number') i += 2;
  return Object.assign(['update', ...p.slice(i)], { addedItem: true });
}

/** The field place at an offset of a request document's text (vscode-free logic, jsonc-parser only). */
export function fieldPlaceAt(text: string, offset: number): FieldPlace | undefined {
  const loc = getLocation(text, offset);
  const p = bodyPath(loc.path);
  const node = loc.previousNode && loc.previousNode.type !== 'property' ? loc.previousNode : undefined;
  const keyNode = loc.previousNode?.type === 'property' ? loc.previousNode : undefined;
  if (p[0] !== 'update') return undefined;
  // Where a member names fields (its keys, or a comma-separated list) is its entry of the member table.
  const slot = core().fieldNameSlot(p.slice(1));
  if (slot === 'key' && loc.isAtPropertyKey) return { kind: 'fieldKey', member: p[1] as MemberName, ...(keyNode ? { node: keyNode } : {}) };
  if (loc.isAtPropertyKey) return undefined;
  if (slot === 'list') return { kind: 'fieldList', ...(node ? { node } : {}) };
  // The item type of a new item: the project's item types by name, as changeItemTypeTo offers them.
  if (p.addedItem && p.length === 3 && p[1] === 'fields' && p[2] === 'ItemTypeId') return { kind: 'itemType', ...(node ? { node } : {}) };
  if (p.length === 3 && p[1] === 'fields' && typeof p[2] === 'string') return { kind: 'fieldValue', field: p[2], ...(node ? { node } : {}) };
  if (p.length === 2 && p[1] === 'changeItemTypeTo') return { kind: 'itemType', ...(node ? { node } : {}) };
  return undefined;
}

/** The field name under the cursor: a member name of `fields`/`fieldCalcTypes`, or a name in a list of fields. */
export function fieldNameAt(text: string, offset: number): { name: string; start: number; end: number } | undefined {
  const loc = getLocation(text, offset);
  const p = bodyPath(loc.path);
  if (p[0] !== 'update') return undefined;
  const n = loc.previousNode;
  const slot = core().fieldNameSlot(p.slice(1));
  if (slot === 'key' && loc.isAtPropertyKey && typeof p[2] === 'string' && n) {
    return { name: p[2], start: n.offset, end: n.offset + n.length };
  }
  if (slot === 'list' && n?.type === 'string' && typeof n.value === 'string') {
    const token = listToken(n, offset);
    return token.name ? { name: token.name, start: token.start, end: token.end } : undefined;
  }
  // On the key of `"Name": value` the location is the value's: look at the property's key.
  return undefined;
}

/** The comma-separated entry of a string node around `offset` (offsets in the document text). */
function listToken(node: Node, offset: number): { name: string; start: number; end: number } {
  const raw = String(node.value);
  const inside = Math.max(0, Math.min(raw.length, offset - node.offset - 1));
  const from = raw.lastIndexOf(',', inside - 1) + 1;
  const toComma = raw.indexOf(',', inside);
  const to = toComma < 0 ? raw.length : toComma;
  const part = raw.slice(from, to);
  const lead = part.length - part.trimStart().length;
  const name = part.trim();
  // Offsets: the string's opening quote, then the raw text (field names hold no escapes).
  return { name, start: node.offset + 1 + from + lead, end: node.offset + 1 + from + lead + name.length };
}

function fieldDetail(f: FieldType): string {
  return f.dataType ? `${f.name} (${f.dataType})` : f.name;
}

function fieldDocumentation(f: FieldType, fromService: boolean): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escapeMd(f.systemName)}** — ${escapeMd(f.name)}`);
  const lines: string[] = [];
  if (f.dataType) lines.push(vscode.l10n.t('Data type: {0}', f.dataType));
  if (f.minValue != null || f.maxValue != null) lines.push(vscode.l10n.t('Range: {0}', core().rangeText(f.minValue, f.maxValue)));
  if (f.maxLength != null) lines.push(vscode.l10n.t('At most {0} characters', f.maxLength));
  if (f.choices?.length) lines.push(vscode.l10n.t('Choices: {0}', f.choices.map((c) => c.name).join(', ')));
  if (f.isReadOnly) lines.push(vscode.l10n.t('Read only'));
  if (f.isSystemField === false) lines.push(vscode.l10n.t('Custom field'));
  if (f.description) lines.push(escapeMd(f.description));
  if (lines.length) md.appendMarkdown(`\n\n${lines.map((l) => `- ${l}`).join('\n')}`);
  if (fromService) md.appendMarkdown(`\n\n_${vscode.l10n.t('From the field catalogue of the connected service.')}_`);
  return md;
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** Item types and statuses of the profile of the document's project (undefined when unknown). */
export async function documentProfile(doc: vscode.TextDocument, catalogue: FieldCatalogueService): Promise<ProjectProfile | undefined> {
  const parsed = parseText(doc.getText());
  if (!parsed.root) return undefined;
  type Written = { workItemIds?: unknown; add?: { parentId?: unknown } };
  const value = getNodeValue(parsed.root) as Written & { requests?: Written[] };
  // The first item the document names: of its IDs to update, else the parent of an add (of any request).
  const named = (w: Written | undefined): string[] => {
    const raw = w?.workItemIds;
    const ids = typeof raw === 'string' ? core().parseWorkItemIds(raw) : Array.isArray(raw) ? raw.map(String) : [];
    const parent = w?.add?.parentId;
    return typeof parent === 'string' || typeof parent === 'number' ? [...ids, String(parent)] : ids;
  };
  const ids = [value, ...(Array.isArray(value?.requests) ? value.requests : [])].flatMap(named);
  const first = ids.find((id) => /^\d+$/.test(id.trim()));
  if (!first) return undefined;
  const project = await catalogue.projectOfWorkItem(first.trim());
  return project ? catalogue.profile(project) : undefined;
}

export class FieldAssist implements vscode.CompletionItemProvider, vscode.HoverProvider {
  static readonly triggerCharacters = ['"', ','];

  constructor(private readonly catalogue: FieldCatalogueService) {}

  async provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[] | undefined> {
    if (!isRequestDocument(doc)) return undefined;
    const place = fieldPlaceAt(doc.getText(), doc.offsetAt(position));
    if (!place) return undefined;
    const state = await this.catalogue.get();
    if (place.kind === 'itemType') {
      const profile = await documentProfile(doc, this.catalogue);
      return profile ? this.idItems(doc, place.node, (profile.itemTypes ?? []).filter(usableItemType), vscode.CompletionItemKind.Class) : undefined;
    }
    if (place.kind === 'fieldValue') {
      if (place.field === 'StatusTypeId') {
        const profile = await documentProfile(doc, this.catalogue);
        return profile ? this.idItems(doc, place.node, (profile.statusTypes ?? []).filter(available), vscode.CompletionItemKind.EnumMember) : undefined;
      }
      if (place.field === 'ProcessCategoryId') {
        const categories = await this.catalogue.processCategories();
        return categories.length > 0 ? this.idItems(doc, place.node, categories.map((c) => ({ id: c.id, name: c.code ? `${c.name} (${c.code})` : c.name })), vscode.CompletionItemKind.EnumMember) : undefined;
      }
      const f = state?.kind === 'service' ? state.catalogue.fields.get(place.field) : undefined;
      if (f?.dataType === 'List' && f.choices?.length) {
        const range = place.node ? nodeRange(doc, place.node) : undefined;
        return f.choices.map((c, i) => {
          const item = new vscode.CompletionItem(c.name, vscode.CompletionItemKind.EnumMember);
          item.insertText = JSON.stringify(c.name);
          item.filterText = JSON.stringify(c.name);
          if (c.id != null) item.detail = `ID ${c.id}`;
          if (range) item.range = range;
          item.sortText = String(i).padStart(4, '0');
          return item;
        });
      }
      return undefined;
    }
    if (state?.kind !== 'service') return undefined;
    const fields = [...state.catalogue.fields.values()].filter((f) => {
      if (place.kind === 'fieldKey' && place.member === 'fields' && f.isReadOnly) return false;
      // The built-in official fields come from the JSON Schema's completion already.
      return !(place.kind === 'fieldKey' && core().FIELD_VALUE_MODELS.has(f.systemName));
    });
    if (place.kind === 'fieldList') {
      const token = place.node?.type === 'string' ? listToken(place.node, doc.offsetAt(position)) : undefined;
      const range = token ? new vscode.Range(doc.positionAt(token.start), doc.positionAt(token.end)) : undefined;
      return fields
        .filter((f) => !f.isReadOnly)
        .map((f) => {
          const item = new vscode.CompletionItem({ label: f.systemName, description: fieldDetail(f) }, vscode.CompletionItemKind.Field);
          item.detail = fieldDetail(f);
          item.documentation = fieldDocumentation(f, true);
          if (range) item.range = range;
          return item;
        });
    }
    // jsonc-parser gives the key being typed as a node of type 'property' spanning the quoted name.
    const keyRange = place.node && place.node.length > 0 ? nodeRange(doc, place.node) : undefined;
    return fields.map((f) => {
      const item = new vscode.CompletionItem({ label: f.systemName, description: fieldDetail(f) }, vscode.CompletionItemKind.Field);
      item.detail = fieldDetail(f);
      item.documentation = fieldDocumentation(f, true);
      item.filterText = `"${f.systemName}"`;
      if (keyRange) {
        item.range = keyRange;
        item.insertText = JSON.stringify(f.systemName);
      } else {
        item.insertText = new vscode.SnippetString(`${JSON.stringify(f.systemName)}: $0`);
      }
      item.sortText = `${f.isSystemField === false ? '0' : '1'}${f.systemName}`;
      return item;
    });
  }

  private idItems(doc: vscode.TextDocument, node: Node | undefined, entries: readonly (ProfileItemType | ProfileStatusType)[], kind: vscode.CompletionItemKind): vscode.CompletionItem[] {
    const range = node ? nodeRange(doc, node) : undefined;
    const out: vscode.CompletionItem[] = [];
    for (const e of entries) {
      const id = core().profileEntryId(e);
      if (!id) continue;
      const item = new vscode.CompletionItem({ label: e.name, description: `ID ${id}` }, kind);
      item.insertText = JSON.stringify(id);
      // Typed by name or by ID, inside the quotes or not.
      item.filterText = `"${e.name} ${id}"`;
      item.detail = `ID ${id}`;
      if (range) item.range = range;
      out.push(item);
    }
    return out;
  }

  async provideHover(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!isRequestDocument(doc)) return undefined;
    const at = fieldNameAt(doc.getText(), doc.offsetAt(position));
    if (!at) return undefined;
    const state = await this.catalogue.get();
    const range = new vscode.Range(doc.positionAt(at.start), doc.positionAt(at.end));
    if (state?.kind === 'service') {
      const f = state.catalogue.fields.get(at.name);
      if (f) return new vscode.Hover(fieldDocumentation(f, true), range);
      return new vscode.Hover(new vscode.MarkdownString(vscode.l10n.t('"{0}" is not in the field catalogue of the connected service.', at.name)), range);
    }
    if (state?.kind === 'fallback') {
      const known = core().fieldInfo(at.name);
      const md = new vscode.MarkdownString();
      if (known) md.appendMarkdown(`**${escapeMd(known.name)}** — ${escapeMd(known.description)}\n\n`);
      md.appendMarkdown(`_${vscode.l10n.t('The connected service does not describe its fields: checked against the built-in official system fields.')}_`);
      return new vscode.Hover(md, range);
    }
    return undefined;
  }
}

/** An item type a work item can be changed to (not the project's root folders, not one the profile marks unavailable). */
export function usableItemType(t: ProfileItemType): boolean {
  return t.systemName !== 'WorkItemRoot' && t.systemName !== 'DocumentItemRoot' && available(t);
}

/** False only when the profile says so (`isAvailable: false`, a member the help does not show: assumption). */
export function available(e: ProfileItemType | ProfileStatusType): boolean {
  return (e as { isAvailable?: unknown }).isAvailable !== false;
}

function nodeRange(doc: vscode.TextDocument, node: Node): vscode.Range {
  return new vscode.Range(doc.positionAt(node.offset), doc.positionAt(node.offset + node.length));
}
