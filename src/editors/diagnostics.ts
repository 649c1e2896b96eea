// Diagnostics for the rules of a request document that a JSON Schema cannot
// express (from the same zod model that checks a document before sending), on the
// exact member, plus the Quick Fixes for rename fixes (capitalised member names).
import * as vscode from 'vscode';
import type { DocumentIssue } from '../schema/issues';
import { memberNameSpan } from './model/locate';
import { analyzeText, DIAGNOSTIC_SOURCE, isRequestDocument, issueText, locateIssueSpan } from './requestDocument';

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
  to: string;
  message: string;
  /** A spelling suggestion for an unknown member: offered one by one, never applied by "fix all". */
  guess: boolean;
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

  constructor() {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, DEBOUNCE_MS)),
      vscode.workspace.onDidCloseTextDocument((d) => this.clear(d.uri)),
    );
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
    const analysis = analyzeText(doc.getText());
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
  if (issue.fix?.kind !== 'rename-member') return undefined;
  const span = memberNameSpan(root, issue.path);
  if (!span) return undefined;
  return {
    range: new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length)),
    to: issue.fix.to,
    message,
    guess: issue.code === 'UNKNOWN_MEMBER_DID_YOU_MEAN',
  };
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
    if (!wantsFixAll) {
      for (const fix of all.filter((f) => f.range.intersection(range) !== undefined)) {
        const action = new vscode.CodeAction(vscode.l10n.t('Rename to "{0}"', fix.to), vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(doc.uri, fix.range, JSON.stringify(fix.to));
        action.diagnostics = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.range.isEqual(fix.range));
        action.isPreferred = !fix.guess;
        actions.push(action);
      }
      if (actions.length === expansions.length) return actions;
    }
    const sure = all.filter((f) => !f.guess);
    if (sure.length > 1 || (wantsFixAll && sure.length > 0)) {
      const kind = wantsFixAll ? FIX_ALL_KIND : vscode.CodeActionKind.QuickFix;
      const fixAll = new vscode.CodeAction(vscode.l10n.t('Apply all {0} member renames', sure.length), kind);
      fixAll.edit = new vscode.WorkspaceEdit();
      for (const fix of sure) fixAll.edit.replace(doc.uri, fix.range, JSON.stringify(fix.to));
      actions.push(fixAll);
    }
    return actions;
  }
}
