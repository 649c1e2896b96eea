// Diagnostics for the rules of a request document that a JSON Schema cannot
// express (from the same zod model that checks a document before sending), on the
// exact member, plus the Quick Fixes for rename fixes (capitalised member names,
// old field names such as StartDate, names in comma-separated lists of fields).
// The field checks follow the connected service's field catalogue once it was read.
import * as vscode from 'vscode';
import type { DocumentIssue } from '../schema/issues';
import { memberNameSpan, valueSpan } from '../common/model/locate';
import type { FieldCatalogueService } from './fieldCatalogue';
import { analyzeText, isRequestDocument } from '../common/requestDocument';
import { DIAGNOSTIC_SOURCE, issueText, locateIssueSpan } from '../common/documentCheck';

const DEBOUNCE_MS = 250;

/** Expands a numeric range written as one ID (`131-140`) into the IDs it stands for. */
interface ExpandFix {
  range: vscode.Range;
  /** The replacement text (the IDs as list entries, or inside the string of IDs). */
  text: string;
  from: string;
  count: number;
}

interface RenameFix {
  range: vscode.Range;
  /** The name (a member) or the whole value (a list of field names) to write. */
  to: string;
  /** For a value: the value with every sure correction of it made (for "fix all"). */
  all?: string;
  message: string;
  /** A spelling suggestion for an unknown member: offered one by one, never applied by "fix all". */
  guess: boolean;
  /** An old field name (StartDate, EndDate, WorkCategoryId) renamed to the official one. */
  oldName?: { from: string; to: string };
  /** The issue's code (to attach the action to its diagnostic). */
  code: string;
  /** The name the fix writes, for its title (a list's fix writes the whole list). */
  name: string;
}

export class RequestDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('workItemStudio');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Rename fixes of the last check, per document. */
  private readonly fixes = new Map<string, { version: number; fixes: RenameFix[]; expands: ExpandFix[] }>();
  private readonly disposables: vscode.Disposable[] = [this.collection];
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires after a document's diagnostics were recomputed. */
  readonly onDidUpdate = this.changed.event;

  constructor(private readonly catalogue?: FieldCatalogueService) {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, DEBOUNCE_MS)),
      vscode.workspace.onDidCloseTextDocument((d) => this.clear(d.uri)),
    );
    if (catalogue) {
      // Read or refreshed: check the open request documents again against it.
      this.disposables.push(catalogue.onDidChange(() => {
        for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
      }));
    }
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (!isRequestDocument(doc)) return;
    const key = doc.uri.toString();
    const old = this.timers.get(key);
    if (old) clearTimeout(old);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (!doc.isClosed) this.update(doc);
      }, delay),
    );
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
    this.fixes.delete(key);
    this.collection.delete(uri);
  }

  /** Recomputes the diagnostics of a document now. */
  update(doc: vscode.TextDocument): void {
    if (!isRequestDocument(doc)) return;
    this.catalogue?.prefetch();
    const analysis = analyzeText(doc.getText(), this.catalogue?.peekCatalogue());
    const diagnostics: vscode.Diagnostic[] = [];
    const fixes: RenameFix[] = [];
    const expands: ExpandFix[] = [];
    // JSON syntax errors are shown by the JSON language service; nothing more to add then.
    // Every other problem is reported here, once: the contributed JSON Schema carries no
    // checks of its own (only names, hovers and completions), so nothing is shown twice.
    for (const issue of analysis.validation?.issues ?? []) {
      const span = locateIssueSpan(analysis, issue);
      const range = new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length));
      const message = issueText(issue);
      const d = new vscode.Diagnostic(range, message, severity(issue));
      d.source = DIAGNOSTIC_SOURCE;
      d.code = issue.code;
      diagnostics.push(d);
      const rename = renameFix(doc, analysis.parsed.root, issue, message);
      if (rename) fixes.push(rename);
      if (issue.fix?.kind === 'expand-range') {
        const written = doc.getText(range);
        const { text: token, ids } = issue.fix;
        // An entry of a list ("131-140") becomes several entries; a token of a string of IDs, several tokens.
        const inString = issue.path.length === 1;
        const escaped = token.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
        const text = inString
          ? written.replace(new RegExp(`(^"|[\\s,]|\\\\[nrt])${escaped}(?=[\\s,]|\\\\[nrt]|"$)`), (_m, before: string) => `${before}${ids.join(', ')}`)
          : ids.map((id) => JSON.stringify(id)).join(', ');
        expands.push({ range, text, from: token, count: ids.length });
      }
    }
    this.collection.set(doc.uri, diagnostics);
    this.fixes.set(doc.uri.toString(), { version: doc.version, fixes, expands });
    this.changed.fire(doc.uri);
  }

  /** Rename fixes of a document (recomputed when the document changed since the last check). */
  renameFixes(doc: vscode.TextDocument): RenameFix[] {
    const cached = this.fixes.get(doc.uri.toString());
    if (!cached || cached.version !== doc.version) this.update(doc);
    return this.fixes.get(doc.uri.toString())?.fixes ?? [];
  }

  /** Range expansions of a document (recomputed when the document changed since the last check). */
  expandFixes(doc: vscode.TextDocument): ExpandFix[] {
    const cached = this.fixes.get(doc.uri.toString());
    if (!cached || cached.version !== doc.version) this.update(doc);
    return this.fixes.get(doc.uri.toString())?.expands ?? [];
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

function severity(issue: DocumentIssue): vscode.DiagnosticSeverity {
  return issue.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
}

function renameFix(doc: vscode.TextDocument, root: Parameters<typeof memberNameSpan>[0], issue: DocumentIssue, message: string): RenameFix | undefined {
  const fix = issue.fix;
  if (fix?.kind !== 'rename-member' && fix?.kind !== 'replace-value') return undefined;
  const span = fix.kind === 'rename-member' ? memberNameSpan(root, issue.path) : valueSpan(root, issue.path);
  if (!span) return undefined;
  const out: RenameFix = {
    range: new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length)),
    to: fix.to,
    message,
    guess: issue.code === 'UNKNOWN_MEMBER_DID_YOU_MEAN',
    code: issue.code,
    name: fix.kind === 'replace-value' && issue.params?.expected !== undefined ? String(issue.params.expected) : fix.to,
  };
  if (fix.kind === 'replace-value') out.all = fix.all ?? fix.to;
  if (issue.code === 'FIELD_OLD_NAME' && issue.params) out.oldName = { from: String(issue.params.field), to: String(issue.params.expected) };
  return out;
}

/** The new text of a fix: a quoted name, or a quoted value. */
function fixText(fix: RenameFix, forAll = false): string {
  return JSON.stringify(forAll && fix.all !== undefined ? fix.all : fix.to);
}

/**
 * The sure fixes of a document as one edit: one replacement per range (a list of field
 * names gets its fully corrected value once, whatever number of names it corrects).
 */
function fixAllEdit(doc: vscode.TextDocument, fixes: readonly RenameFix[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  const seen = new Set<string>();
  for (const fix of fixes) {
    const k = `${fix.range.start.line}:${fix.range.start.character}`;
    if (seen.has(k)) continue;
    seen.add(k);
    edit.replace(doc.uri, fix.range, fixText(fix, true));
  }
  return edit;
}

export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('workItemStudio');

/** Quick Fix: rename a capitalised member to camelCase; and "fix all" of them in the document. */
export class RenameMemberActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, FIX_ALL_KIND],
  };

  constructor(private readonly diagnostics: RequestDiagnostics) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!isRequestDocument(doc)) return [];
    const wantsFixAll = context.only && FIX_ALL_KIND.intersects(context.only) && !vscode.CodeActionKind.QuickFix.intersects(context.only);
    const expansions: vscode.CodeAction[] = [];
    if (!wantsFixAll) {
      for (const fix of this.diagnostics.expandFixes(doc).filter((f) => f.range.intersection(range) !== undefined)) {
        const action = new vscode.CodeAction(vscode.l10n.t('Expand {0} into {1} IDs', fix.from, fix.count), vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(doc.uri, fix.range, fix.text);
        action.diagnostics = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.code === 'DOCUMENT_ID_RANGE' && d.range.isEqual(fix.range));
        expansions.push(action);
      }
    }
    const all = this.diagnostics.renameFixes(doc);
    if (all.length === 0) return expansions;
    const actions: vscode.CodeAction[] = [...expansions];
    const oldNames = all.filter((f) => f.oldName);
    if (!wantsFixAll) {
      const here = all.filter((f) => f.range.intersection(range) !== undefined);
      for (const fix of here) {
        const title = fix.oldName
          ? vscode.l10n.t('Rename "{0}" to the official name "{1}"', fix.oldName.from, fix.oldName.to)
          : vscode.l10n.t('Rename to "{0}"', fix.name);
        const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(doc.uri, fix.range, fixText(fix));
        action.diagnostics = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.range.isEqual(fix.range) && d.code === fix.code);
        action.isPreferred = !fix.guess;
        actions.push(action);
      }
      // Every old field name of the document at once, offered where one of them is.
      if (oldNames.length > 1 && here.some((f) => f.oldName)) {
        const action = new vscode.CodeAction(vscode.l10n.t('Use the official field names in this document ({0} old names)', oldNames.length), vscode.CodeActionKind.QuickFix);
        action.edit = fixAllEdit(doc, oldNames);
        action.diagnostics = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.code === 'FIELD_OLD_NAME');
        actions.push(action);
      }
      if (actions.length === expansions.length) return actions;
    }
    const sure = all.filter((f) => !f.guess);
    const renames = sure.filter((f) => !f.oldName).length;
    if ((!wantsFixAll && renames > 1) || (wantsFixAll && sure.length > 0)) {
      const kind = wantsFixAll ? FIX_ALL_KIND : vscode.CodeActionKind.QuickFix;
      const title = oldNames.length > 0 && wantsFixAll
        ? vscode.l10n.t('Apply all {0} renames (official field names included)', sure.length)
        : vscode.l10n.t('Apply all {0} member renames', wantsFixAll ? sure.length : renames);
      const fixAll = new vscode.CodeAction(title, kind);
      fixAll.edit = fixAllEdit(doc, wantsFixAll ? sure : sure.filter((f) => !f.oldName));
      actions.push(fixAll);
    }
    return actions;
  }
}
