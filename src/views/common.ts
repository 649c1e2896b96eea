// Pieces shared by the tree views: message rows (loading, empty, failed + Retry),
// read-only JSON detail documents, and the load state of a node.
import * as vscode from 'vscode';
import { isCancellation } from '../common/commands';
import { SignInCancelledError, type ConnectionManager } from '../common/connection';
import { describeError, isUnauthorized } from '../common/messages';
import { formatFilter, parseFilter } from './model/filters';
import { LoadCell, type LoadState } from './model/loadable';
import { ReadOnlyDocuments } from './readOnlyDocuments';
import { rangeLabel, type IndexRange } from './model/ranges';
import { isUserId, USER_ID_MEMBERS } from '../common/model/users';

/** Anything the item commands (copy ID, show details, retry) can act on. */
export interface ActionableNode {
  readonly id: string;
  /** IDs copied by "Copy ID". */
  copyId?(): string | undefined;
  /** The object "Show Details" shows. */
  details?(): { title: string; value: unknown } | undefined;
  /** What "Retry" does. */
  retry?(): void;
}

export type MessageKind = 'loading' | 'empty' | 'error' | 'info';

export class MessageNode implements ActionableNode {
  constructor(
    readonly parentNode: object | undefined,
    readonly id: string,
    readonly kind: MessageKind,
    readonly text: string,
    readonly onRetry?: () => void,
    readonly signInRequired = false,
    readonly detail?: string,
    /** What clicking the row does, shown as its description (default: "Retry"). */
    readonly actionLabel?: string,
  ) {}

  retry(): void {
    this.onRetry?.();
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.text, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    switch (this.kind) {
      case 'loading':
        item.iconPath = new vscode.ThemeIcon('loading~spin');
        item.contextValue = 'message loading';
        break;
      case 'error':
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.contextValue = `message error${this.onRetry ? ' retryable' : ''}${this.signInRequired ? ' signInRequired' : ''}`;
        item.tooltip = this.detail ?? this.text;
        if (this.onRetry) {
          const action = this.actionLabel ?? vscode.l10n.t('Retry');
          item.description = action;
          item.command = { command: 'workItemStudio.retryLoad', title: action, arguments: [this] };
        }
        break;
      case 'empty':
        item.iconPath = new vscode.ThemeIcon('info');
        item.contextValue = 'message empty';
        break;
      default:
        item.contextValue = 'message';
    }
    return item;
  }
}

/**
 * What a failed load shows: the localized error, and whether signing in would help.
 * A dismissed sign-in is "Not signed in" whose click signs in (retryLoad) and loads again.
 */
export function failureRow(parent: object | undefined, id: string, error: unknown, retry: () => void): MessageNode {
  if (error instanceof SignInCancelledError) {
    return new MessageNode(parent, id, 'error', vscode.l10n.t('Not signed in'), retry, true, vscode.l10n.t('Sign in to load this list.'), vscode.l10n.t('Sign In'));
  }
  const text = describeError(error);
  return new MessageNode(parent, id, 'error', text, retry, isUnauthorized(error), error instanceof Error ? `${text}` : undefined);
}

/** The "Load More" row of a paged list: how many of how many are loaded, and the command that loads the next page. */
export function loadMoreItem(id: string, loaded: number, total: number | undefined, command: string): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Load More'), vscode.TreeItemCollapsibleState.None);
  item.id = id;
  item.description = total !== undefined ? vscode.l10n.t('{0} of {1} loaded', String(loaded), String(total)) : undefined;
  item.iconPath = new vscode.ThemeIcon('fold-down');
  item.contextValue = 'loadMore';
  item.command = { command, title: vscode.l10n.t('Load More') };
  return item;
}

/**
 * What a tree does when the connection changes: another service (its IDs mean other
 * things) starts the tree over; signing in (again) to the same service retries what
 * failed, nothing else.
 */
export function followConnection(connection: ConnectionManager, on: { serviceChanged(): void; signedIn(): void }): vscode.Disposable {
  let last = connection.current?.baseUrl;
  return connection.onDidChange(() => {
    const service = connection.current?.baseUrl;
    if (service !== last) {
      last = service;
      on.serviceChanged();
    } else if (connection.isSignedIn) on.signedIn();
  });
}

export { FIRST_ROWS_WAIT_MS, type LoadState } from './model/loadable';

/**
 * A node's rows from the state of its load (a Loadable's `within` or `shown`): "Loading…" while it
 * loads (or has not started), the failure when it failed (a click runs `retry`), `loaded(value)`
 * when loaded. Row IDs are `<id>/loading` and `<id>/error`. The one switch every tree shares.
 */
export function loadStateRows<T, N>(
  state: LoadState<T>,
  owner: { readonly parent: object | undefined; readonly id: string },
  retry: () => void,
  loaded: (value: T) => N[],
): (N | MessageNode)[] {
  switch (state.kind) {
    case 'idle':
    case 'loading':
      return [new MessageNode(owner.parent, `${owner.id}/loading`, 'loading', vscode.l10n.t('Loading…'))];
    case 'failed':
      return [failureRow(owner.parent, `${owner.id}/error`, state.error, retry)];
    case 'loaded':
      return loaded(state.value);
  }
}

/**
 * One node's load (LoadCell, src/views/model/loadable.ts): a request of the view for the
 * node's rows waits for it up to FIRST_ROWS_WAIT_MS (`within`), so a level that arrives
 * within that wait is returned at once without a "Loading…" row and without announcing a
 * change; only a slower load shows "Loading…" and calls `changed` when it ends. A shared
 * request cancelled by another node's refresh loads again; a failure is logged.
 */
export class Loadable<T> extends LoadCell<T> {
  constructor(load: (signal: AbortSignal) => Promise<T>, changed: () => void, log?: vscode.LogOutputChannel) {
    super(load, changed, {
      again: (error) => isCancellation(error) && !(error instanceof SignInCancelledError),
      failed: (error) => log?.warn(`Load failed: ${describeError(error)}`),
    });
  }
}

// ---------------------------------------------------------------------------
// Read-only JSON details
// ---------------------------------------------------------------------------

export const DETAILS_SCHEME = 'workitemstudio-details';

export class DetailsDocuments extends ReadOnlyDocuments {
  constructor() {
    super(DETAILS_SCHEME);
  }

  /** Opens (or refreshes) a read-only JSON document named `name`.json. */
  async show(name: string, value: unknown): Promise<vscode.TextEditor> {
    const safe = name.replace(/[\\/:*?"<>|#%]/g, '_') || 'details';
    const uri = vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${safe}.json` });
    const doc = await this.open(uri, JSON.stringify(value, null, 2) + '\n', 'json');
    return vscode.window.showTextDocument(doc, { preview: true });
  }
}

/** Markdown tooltip listing every member of a record (values escaped). */
/**
 * A tooltip with a record's fields as a table: every field, or only `main` ones (those with a
 * value) followed by a "Show Details" link that opens the whole record.
 */
/**
 * A tooltip of a record's fields. With `userName`, a member that holds a user ID (createdBy,
 * updatedBy, ...) shows the user's name beside the ID when the people directory knows it.
 */
export function fieldsTooltip(
  title: string,
  record: Record<string, unknown>,
  main?: readonly string[],
  detailsName = title,
  userName?: (id: string) => string | undefined,
): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.supportHtml = false;
  md.appendMarkdown(`**${escapeMd(title)}**\n\n| ${escapeMd(vscode.l10n.t('Field'))} | ${escapeMd(vscode.l10n.t('Value'))} |\n|---|---|\n`);
  const isSet = (v: unknown) => v !== null && v !== undefined && v !== '';
  const entries = main ? main.filter((k) => isSet(record[k])).map((k) => [k, record[k]] as const) : Object.entries(record);
  for (const [k, v] of entries) {
    let text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    const name = userName && USER_ID_MEMBERS.has(k) && isUserId(text) ? userName(text.trim()) : undefined;
    if (name) text = `${name} (${text})`;
    md.appendMarkdown(`| ${escapeMd(k)} | ${escapeMd(text)} |\n`);
  }
  if (main) {
    const rest = Object.entries(record).filter(([k, v]) => !main.includes(k) && isSet(v)).length;
    const args = encodeURIComponent(JSON.stringify([{ detailsTitle: detailsName, detailsValue: record }]));
    md.isTrusted = { enabledCommands: ['workItemStudio.showDetails'] };
    md.appendMarkdown(`\n[${escapeMd(vscode.l10n.t('Show Details'))}](command:workItemStudio.showDetails?${args})`);
    if (rest > 0) md.appendMarkdown(` ${escapeMd(rest === 1 ? vscode.l10n.t('(1 more field)') : vscode.l10n.t('({0} more fields)', rest))}`);
  }
  return md;
}

/** The argument of a tooltip's "Show Details" link. */
export function readDetailsArg(arg: unknown): { title: string; value: unknown } | undefined {
  if (typeof arg !== 'object' || arg === null || !('detailsValue' in arg)) return undefined;
  const a = arg as { detailsTitle?: unknown; detailsValue: unknown };
  return { title: typeof a.detailsTitle === 'string' ? a.detailsTitle : 'details', value: a.detailsValue };
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&').replace(/\r?\n/g, ' ');
}

/** The nodes a tree command acts on: the selection when the clicked node is in it, else the clicked node. */
export function targets<T>(clicked: T | undefined, selected: readonly T[] | undefined, fallback: readonly T[] = []): T[] {
  if (selected && selected.length > 0 && (clicked === undefined || selected.includes(clicked))) return [...selected];
  if (clicked !== undefined) return [clicked];
  return [...fallback];
}

/** What is wrong with a typed filter ("field: value" terms), in words; undefined when nothing is. */
export function filterProblem(parsed: ReturnType<typeof parseFilter>): string | undefined {
  if (parsed.ok) return undefined;
  switch (parsed.problem) {
    case 'unknown-field':
      return vscode.l10n.t('Unknown field "{0}".', parsed.field);
    case 'duplicate-field':
      return vscode.l10n.t('"{0}" is given twice.', parsed.field);
    case 'empty-value':
      return vscode.l10n.t('"{0}:" needs a value.', parsed.field);
  }
}

/** A name / code / keyword filter in words, for a view's message (l10n). */
export function textFilterParts(f: { name?: string; code?: string; keyword?: string }): string[] {
  const parts: string[] = [];
  if (f.name) parts.push(vscode.l10n.t('name contains "{0}"', f.name));
  if (f.code) parts.push(vscode.l10n.t('code contains "{0}"', f.code));
  if (f.keyword) parts.push(vscode.l10n.t('keyword "{0}"', f.keyword));
  return parts;
}

/** The row of a range of a long list ("[0..99]", collapsed), described by the names of its first and last rows. */
export function rangeTreeItem(range: IndexRange & { id: string }, rows: readonly { name: string }[] | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(rangeLabel(range), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = range.id;
  const first = rows?.[range.start];
  const last = rows?.[range.end - 1];
  if (first && last) item.description = `${first.name} – ${last.name}`;
  item.contextValue = 'range';
  return item;
}

/**
 * Asks for a text filter ("name:… code:… keyword:…", a word without a field is a
 * `keyword`), starting from `current`; the filter, or undefined when dismissed.
 */
export async function askTextFilter<F extends 'name' | 'code' | 'keyword'>(
  title: string,
  fields: readonly F[],
  current: Partial<Record<F, string>>,
  placeHolder: string,
): Promise<Partial<Record<F, string>> | undefined> {
  const value = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('name:…, code:…, keyword:… (text without a field is a keyword: name or code contains it). Empty clears the filter.'),
    value: formatFilter(current, fields),
    placeHolder,
    validateInput: (v) => filterProblem(parseFilter<F>(v, fields, 'keyword' as F)),
  });
  if (value === undefined) return undefined;
  const parsed = parseFilter<F>(value, fields, 'keyword' as F);
  return parsed.ok ? parsed.filter : undefined;
}

/**
 * Shows which service a tree view reads (the profile's name, or the sandbox) as its description,
 * next to its title, kept up to date when the service in use changes.
 */
export function describeServiceOf(view: vscode.TreeView<unknown>, connection: ConnectionManager): vscode.Disposable {
  const update = () => {
    view.description = connection.current?.label;
  };
  update();
  return connection.onDidChange(update);
}
