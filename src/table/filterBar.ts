// The filter bar's helpers: a condition built from pickers (field → operator → value,
// values from the catalogue: statuses, types, list choices, users by name), named
// filters read from and saved to the workspace file (.vscode/workitem-filters.json)
// and the user setting workItemStudio.table.filters, the column chooser, and the
// matches turned into a request document.
import * as vscode from 'vscode';
import type { ColumnDef, Filter, FilterCondition, FilterMessageCode, StoredFilter } from './model';
import type { TablePanel } from './panel';
import { core } from '../core/load';

/**
 * A filter's problem in the UI's language: the model's code with its parameters (field
 * names as the user typed them, short excerpts of values) worded with vscode.l10n.t, with
 * the column when the problem has a place in the typed text.
 */
export function filterErrorText(e: { code: FilterMessageCode; params: readonly (string | number)[]; start?: number }): string {
  const p = e.params.map(String);
  const text = filterMessageText(e.code, p);
  return e.start === undefined ? text : vscode.l10n.t('{0} (at column {1})', text, e.start + 1);
}

function filterMessageText(code: FilterMessageCode, p: readonly string[]): string {
  switch (code) {
    case 'unknownField': {
      const [field = ''] = p;
      return vscode.l10n.t('unknown field "{0}"', field);
    }
    case 'mineNoUser':
      return vscode.l10n.t('"my items" needs the signed-in user, who is not known');
    case 'noUser': {
      const [value = ''] = p;
      return vscode.l10n.t('no user matches "{0}"', value);
    }
    case 'noChoice': {
      const [field = '', value = ''] = p;
      return vscode.l10n.t('{0} has no choice "{1}"', field, value);
    }
    case 'notHours': {
      const [field = '', value = ''] = p;
      return vscode.l10n.t('{0} takes hours (e.g. 7.5 or 7:30), not "{1}"', field, value);
    }
    case 'notNumber': {
      const [field = '', value = ''] = p;
      return vscode.l10n.t('{0} takes a number, not "{1}"', field, value);
    }
    case 'notDate': {
      const [field = '', value = ''] = p;
      return vscode.l10n.t('{0} takes a date yyyy-MM-dd or "today", not "{1}"', field, value);
    }
    case 'todayRange': {
      const [value = '', limit = ''] = p;
      return vscode.l10n.t('"{0}" is too far from today: at most {1} days before or after', value, limit);
    }
    case 'valueTooLong': {
      const [field = '', length = '', max = ''] = p;
      return vscode.l10n.t('the value of {0} is too long ({1} characters; at most {2})', field, length, max);
    }
    case 'rangeField': {
      const [field = ''] = p;
      return vscode.l10n.t('{0} is not a number or date field: a range cannot apply', field);
    }
    case 'rangeBound': {
      const [field = ''] = p;
      return vscode.l10n.t('a range of {0} needs a lower or an upper bound', field);
    }
    case 'tooDeep': {
      const [max = ''] = p;
      return vscode.l10n.t('the filter nests groups too deeply (at most {0} levels)', max);
    }
    case 'quoteOpen': {
      const [columnIndex = ''] = p;
      return vscode.l10n.t('the quote opened at column {0} is not closed', columnIndex);
    }
    case 'expectedCondition': {
      const [value = ''] = p;
      return vscode.l10n.t('expected a field name or a keyword (mine, overdue, notstarted), not "{0}"', value);
    }
    case 'unknownIs': {
      const [value = ''] = p;
      return vscode.l10n.t('unknown "{0}": use is:mine, is:overdue or is:notstarted', value);
    }
    case 'notCondition': {
      const [value = ''] = p;
      return vscode.l10n.t('"{0}" is not a condition: write field:value (e.g. status:"進行中"), field<value, or a keyword (mine, overdue, notstarted)', value);
    }
    case 'valueMissing': {
      const [value = ''] = p;
      return vscode.l10n.t('a value is missing after "{0}"', value);
    }
    case 'unexpectedAfter': {
      const [value = '', field = ''] = p;
      return vscode.l10n.t('unexpected "{0}" after the value of {1}: put a space between conditions, and quotes around a value with spaces or symbols', value, field);
    }
    case 'rangeList':
      return vscode.l10n.t('a range takes one value, not a list');
    case 'parenOpen':
      return vscode.l10n.t('the parenthesis opened here is not closed');
    case 'parenClose':
      return vscode.l10n.t('this ")" closes no parenthesis');
    case 'emptyGroup':
      return vscode.l10n.t('the parentheses hold no condition');
    case 'orOperand': {
      const [word = ''] = p;
      return vscode.l10n.t('{0} needs a condition on each side', word);
    }
    case 'notOperand': {
      const [word = ''] = p;
      return vscode.l10n.t('{0} needs a condition after it', word);
    }
  }
}

const SETTING_SECTION = 'workItemStudio';
const SETTING_KEY = 'table.filters';

type Op = 'contains' | 'equals' | 'in' | 'min' | 'max' | 'between' | 'empty' | 'notEmpty';

function opsFor(c: ColumnDef): { op: Op; label: string }[] {
  const common = [
    { op: 'empty' as const, label: vscode.l10n.t('is empty') },
    { op: 'notEmpty' as const, label: vscode.l10n.t('is not empty') },
  ];
  switch (c.type) {
    case 'text':
      return [{ op: 'contains', label: vscode.l10n.t('contains') }, { op: 'equals', label: vscode.l10n.t('equals') }, ...common];
    case 'list':
    case 'user':
      return [{ op: 'in', label: c.multi ? vscode.l10n.t('includes one of') : vscode.l10n.t('is one of') }, ...common];
    default:
      return [
        { op: 'equals', label: vscode.l10n.t('equals') },
        { op: 'min', label: vscode.l10n.t('from (at least)') },
        { op: 'max', label: vscode.l10n.t('until (at most)') },
        { op: 'between', label: vscode.l10n.t('between') },
        ...common,
      ];
  }
}

async function askValue(c: ColumnDef, prompt: string): Promise<string | undefined> {
  const hint = c.type === 'date' ? vscode.l10n.t('yyyy-MM-dd, "today" or "today+7"') : c.type === 'hours' ? vscode.l10n.t('hours, e.g. 7.5 or 7:30') : c.type === 'progress' ? vscode.l10n.t('0 to 100') : '';
  const v = await vscode.window.showInputBox({ title: vscode.l10n.t('Add Condition: {0}', core().columnLabel(c, vscode.env.language)), prompt: hint ? `${prompt} (${hint})` : prompt, ignoreFocusOut: true });
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** One condition chosen with pickers, or undefined when cancelled. `answers` (tests) skip the pickers. */
export async function pickCondition(panel: TablePanel, answers?: { condition: FilterCondition }): Promise<FilterCondition | undefined> {
  if (answers) return answers.condition;
  const lang = vscode.env.language;
  type Pick = vscode.QuickPickItem & { column?: ColumnDef; keyword?: FilterCondition };
  const keywords: Pick[] = [
    { label: vscode.l10n.t('My items'), description: 'mine', keyword: { op: 'mine' } },
    { label: vscode.l10n.t('Overdue'), description: 'overdue', keyword: { op: 'overdue' } },
    { label: vscode.l10n.t('Not started'), description: 'notstarted', keyword: { op: 'notStarted' } },
  ];
  const fields: Pick[] = panel.allColumns().map((c) => ({ label: core().columnLabel(c, lang), description: c.key, column: c }));
  const first = await vscode.window.showQuickPick<Pick>([...keywords, { label: '', kind: vscode.QuickPickItemKind.Separator }, ...fields], {
    title: vscode.l10n.t('Add Condition: field'),
    matchOnDescription: true,
  });
  if (!first) return undefined;
  if (first.keyword) return first.keyword;
  const c = first.column!;
  const op = await vscode.window.showQuickPick(opsFor(c).map((o) => ({ ...o })), { title: vscode.l10n.t('Add Condition: {0}', core().columnLabel(c, lang)) });
  if (!op) return undefined;
  switch (op.op) {
    case 'empty':
      return { op: 'empty', field: c.key };
    case 'notEmpty':
      return { op: 'notEmpty', field: c.key };
    case 'in': {
      const items: (vscode.QuickPickItem & { value: string })[] =
        c.type === 'user'
          ? panel.knownUsers().map((u) => ({ label: u.name ?? u.loginName ?? u.id, description: u.loginName ?? undefined, detail: u.id, value: u.id }))
          : (c.choices ?? []).map((ch) => ({ label: ch.name, description: ch.code ?? undefined, value: ch.id ?? ch.name }));
      if (items.length === 0) {
        const v = await askValue(c, vscode.l10n.t('Value (several separated by commas)'));
        return v === undefined ? undefined : { op: 'in', field: c.key, values: v.split(/[,、，]/).map((s) => s.trim()).filter((s) => s !== '') };
      }
      const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Add Condition: {0}', core().columnLabel(c, lang)), canPickMany: true, matchOnDescription: true });
      if (!picked || picked.length === 0) return undefined;
      return { op: 'in', field: c.key, values: picked.map((p) => p.value) };
    }
    case 'contains':
    case 'equals': {
      const v = await askValue(c, vscode.l10n.t('Value'));
      if (v === undefined) return undefined;
      return op.op === 'contains' ? { op: 'contains', field: c.key, value: v } : { op: 'equals', field: c.key, value: v };
    }
    case 'min':
    case 'max':
    case 'between': {
      const min = op.op !== 'max' ? await askValue(c, vscode.l10n.t('From (included)')) : undefined;
      if (op.op !== 'max' && min === undefined) return undefined;
      const max = op.op !== 'min' ? await askValue(c, vscode.l10n.t('Until (included)')) : undefined;
      if (op.op !== 'min' && max === undefined) return undefined;
      return { op: 'range', field: c.key, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
    }
  }
}

/** The bar's text with one more condition (AND), in parentheses when it has an OR of its own. */
export function addCondition(text: string, condition: FilterCondition): string {
  return core().andFilterText(text, core().formatFilterText({ conditions: [condition] }));
}

function workspaceFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

function filtersUri(): vscode.Uri | undefined {
  const f = workspaceFolder();
  return f ? vscode.Uri.joinPath(f.uri, core().FILTERS_FILE) : undefined;
}

async function readText(uri: vscode.Uri): Promise<string> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return '';
  }
}

/** Named filters of the workspace file and the user setting, with the problems of entries left out. */
export async function readNamedFilters(): Promise<{ filters: StoredFilter[]; problems: string[] }> {
  const uri = filtersUri();
  const ws = uri ? core().readFiltersFile(await readText(uri)) : { filters: [], problems: [] };
  const user = core().readFilterList(vscode.workspace.getConfiguration(SETTING_SECTION).get<unknown>(SETTING_KEY), 'user', `workItemStudio.${SETTING_KEY}`);
  return { filters: core().mergeFilters(ws.filters, user.filters), problems: [...ws.problems, ...user.problems] };
}

export async function pickNamedFilter(log: vscode.LogOutputChannel): Promise<StoredFilter | undefined> {
  const { filters, problems } = await readNamedFilters();
  if (problems.length > 0) {
    log.warn(`Named filters left out: ${problems.join('; ')}`);
    void vscode.window.showWarningMessage(vscode.l10n.t('Some named filters are not valid and were left out: {0}', problems.slice(0, 3).join('; ')));
  }
  if (filters.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No named filters yet. Type a filter, then use "Save Filter…" to keep it in the workspace ({0}) or in your user settings.', core().FILTERS_FILE));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    filters.map((f) => ({ label: f.name, description: f.source === 'workspace' ? vscode.l10n.t('Workspace') : vscode.l10n.t('User settings'), detail: core().formatFilterText(f.filter), filter: f })),
    { title: vscode.l10n.t('Named Filters'), matchOnDetail: true },
  );
  return pick?.filter;
}

/** Saves the bar's text as a named filter; `answers` (tests) skip the questions. Returns where it was saved. */
export async function saveNamedFilter(panel: TablePanel, answers?: { name: string; target: 'workspace' | 'user' }): Promise<'workspace' | 'user' | undefined> {
  const text = panel.currentFilterText;
  const parsed = core().parseFilterText(text, panel.allColumns());
  if (!parsed.ok || parsed.filter.conditions.length === 0) {
    void vscode.window.showWarningMessage(parsed.ok ? vscode.l10n.t('Type a filter first: an empty filter is not saved.') : vscode.l10n.t('The filter has errors: {0}', filterErrorText(parsed.errors[0]!)));
    return undefined;
  }
  const name = answers?.name ?? (await vscode.window.showInputBox({ title: vscode.l10n.t('Save Filter'), prompt: vscode.l10n.t('Name of the filter'), value: text, ignoreFocusOut: true, validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a name.') : undefined) }));
  if (!name?.trim()) return undefined;
  let target = answers?.target;
  if (!target) {
    const uri = filtersUri();
    const options = [
      ...(uri ? [{ label: vscode.l10n.t('Workspace'), detail: vscode.l10n.t('In {0}, shared with everyone who uses this repository', core().FILTERS_FILE), target: 'workspace' as const }] : []),
      { label: vscode.l10n.t('User settings'), detail: vscode.l10n.t('In the setting workItemStudio.table.filters, for you in every workspace'), target: 'user' as const },
    ];
    target = (await vscode.window.showQuickPick(options, { title: vscode.l10n.t('Save Filter: where') }))?.target;
    if (!target) return undefined;
  }
  const entry = { name: name.trim(), filter: parsed.filter as Filter };
  if (target === 'workspace') {
    const uri = filtersUri();
    if (!uri) throw new Error(vscode.l10n.t('Open a folder to save filters in the workspace.'));
    const next = core().upsertFilterInFile(await readText(uri), entry);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(next));
  } else {
    const config = vscode.workspace.getConfiguration(SETTING_SECTION);
    await config.update(SETTING_KEY, core().upsertFilterInList(config.get<unknown>(SETTING_KEY), entry), vscode.ConfigurationTarget.Global);
  }
  vscode.window.setStatusBarMessage(vscode.l10n.t('Filter "{0}" saved.', entry.name), 4000);
  return target;
}

/** The column chooser: every column of the project (custom fields included), the shown ones checked, their order kept. */
export async function chooseColumns(panel: TablePanel): Promise<void> {
  const lang = vscode.env.language;
  const shown = panel.shownColumns().map((c) => c.key);
  const items = panel.allColumns().map((c) => ({ label: core().columnLabel(c, lang), description: c.key, picked: shown.includes(c.key), key: c.key }));
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Columns'), canPickMany: true, matchOnDescription: true });
  if (!picked || picked.length === 0) return;
  const keys = picked.map((p) => p.key);
  await panel.setColumns([...shown.filter((k) => keys.includes(k)), ...keys.filter((k) => !shown.includes(k))]);
}
