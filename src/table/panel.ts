// One open work item table: a webview editor tab, its rows as read, the columns of its
// project, the layout remembered per project, the filter of its bar and the view sent to
// the webview in chunks. Reading is cancellable and reported with progress.
import * as vscode from 'vscode';
import { abortOn } from '../common/abortOn';
import { itemsText, workItemsText } from '../common/wording';
import type { ColumnDef, CompiledFilter, FilterContext, KnownUser, LoadedRow, TableLayout } from './model';
import type { TableNames } from './model';
import { TableAdditions } from './additions';
import { TableKeeper, unsentEdits } from './pending';
import type { ServiceFieldCatalogue } from '../schema/service-fields';
import { TableEditing } from './editing';
import { ROW_HEIGHT, readMessage, readSelection, type CellSelection, type ColumnInfo, type FromWebview, type TableViewState, type ToWebview } from './protocol';
import { tableHtml, tableRoots } from './html';
import { tableStrings } from './strings';
import { pageColumns } from './columnInfo';
import { currentUserOf, tableBasePath } from './panelReads';
import { filterErrorText } from './filterBar';
import type { TableDeps, TableSource } from './types';
import { core } from '../core/load';

export const TABLE_VIEW_TYPE = 'workItemStudio.table';

/** What the webview last said it painted (tests, the bench). */
export interface PaintReport { generation: number; first: number; count: number; total: number; received: number; ms: number }

export class TablePanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private rows: LoadedRow[] = [];
  private columns: ColumnDef[] = [];
  private layout: TableLayout = { columns: [], widths: {}, lowestOnly: false };
  private folderTypes = new Set<string>();
  /** Names of the users the rows name, from the people directory (unknown ones read, then the rows repainted). */
  private readonly names: TableNames;
  /** A filter applied (Enter) that named a user not known yet: applied again when names are learned. */
  private wantedFilter: string | undefined;
  private currentUserId: string | undefined;
  private filterText = '';
  private compiled: CompiledFilter | undefined;
  private view: LoadedRow[] = [];
  private generation = 0;
  private ready = false;
  private readonly queue: ToWebview[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private loaded: Promise<void> = Promise.resolve();
  private loading = false;
  private disposed = false;
  private cellCatalogue: ServiceFieldCatalogue | undefined;
  /** The pending edits of the table. */
  readonly editing: TableEditing;
  /** The table's new rows (items to add). */
  readonly additions: TableAdditions;
  /** The edits kept between sessions (restored once the rows are read). */
  readonly keeper: TableKeeper;
  /** Rows whose edits were sent: shown whatever the filter says until the user applies a filter again. */
  readonly sent = new Set<string>();
  private selection: CellSelection | undefined;
  private projectId: string | undefined;
  private login: Promise<string | undefined> = Promise.resolve(undefined);
  private missing = new Set<string>();
  /** The state the webview was last asked to keep (tests). */
  keptState: TableViewState | undefined;
  /** The last selection sent to the webview to restore (tests). */
  lastSelect: CellSelection | undefined;
  private readonly closeEmitter = new vscode.EventEmitter<void>();
  /** The tab was closed by the user (not disposed with the window); `closing`: its question and answer (tests wait for it). */
  readonly onDidClose = this.closeEmitter.event;
  closing: Promise<void> = Promise.resolve();
  /** Last paint the webview reported, and the first paint of each generation. */
  lastPaint: PaintReport | undefined;
  readonly firstPaints: PaintReport[] = [];
  private readonly paintEmitter = new vscode.EventEmitter<PaintReport>();
  readonly onDidPaint = this.paintEmitter.event;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(private readonly deps: TableDeps, readonly source: TableSource, private readonly restored?: { panel: vscode.WebviewPanel; state: TableViewState }) {
    const options = { enableScripts: true, localResourceRoots: tableRoots(deps.extensionUri) };
    if (restored) {
      this.panel = restored.panel;
      this.panel.webview.options = options;
      this.panel.title = source.title;
      this.selection = restored.state.selection;
    } else {
      this.panel = vscode.window.createWebviewPanel(TABLE_VIEW_TYPE, source.title, vscode.ViewColumn.Active, { ...options, retainContextWhenHidden: true });
    }
    this.editing = new TableEditing({
      log: deps.log,
      view: () => this.view,
      allColumns: () => this.columns,
      shownColumns: () => this.shownColumns(),
      knownUsers: () => this.knownUsers(),
      format: () => this.format(),
      catalogue: () => this.cellCatalogue,
      generation: () => this.generation,
      post: (m) => this.post(m),
      rowsChanged: () => this.scheduleRefresh(0),
      pageRow: (row, id) => (core().isNewRowId(id) ? this.additions.shown(row) : row),
    });
    this.additions = new TableAdditions({
      rows: () => this.rows,
      setRows: (rows) => (this.rows = rows),
      editing: this.editing,
      source,
      sent: this.sent,
      shownColumns: () => this.shownColumns(),
      refresh: (now) => (now ? this.refresh() : (this.scheduleRefresh(0), Promise.resolve())),
      read: async (ids) => {
        const client = await this.deps.connection.getClient({ signal: this.abort.signal });
        return (await core().loadByIds((list, o) => core().readWorkItems(client, list, o), ids, { signal: this.abort.signal, onRows: () => undefined })).rows;
      },
      select: (id, key) => this.post({ type: 'select', ...(this.selection = this.lastSelect = { focus: { id, key }, anchor: { id, key } }) }),
    });
    this.keeper = new TableKeeper({
      store: deps.kept(),
      log: deps.log,
      title: source.title,
      prompts: () => deps.prompts(),
      edits: () => this.editing.edits,
      shownIds: () => new Set(this.rows.map((r) => r.id)),
      label: (field) => {
        const c = this.columns.find((x) => x.key === field);
        return c ? core().columnLabel(c, this.language()) : field;
      },
      apply: (changes) => this.editing.applyChanges(changes),
    });
    this.names = new (core().TableNames)(deps.users, () => this.namesLearned(), (e) =>
      deps.log.info(`Work item table ${source.title}: user names not read (${e instanceof Error ? e.message : String(e)}); IDs are shown`),
    );
    this.panel.webview.html = tableHtml(this.panel.webview, deps.extensionUri, source.title);
    this.disposables.push(
      this.paintEmitter,
      this.disposeEmitter,
      this.closeEmitter,
      this.panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      this.panel.onDidDispose(() => {
        if (!this.disposed) this.closeEmitter.fire();
        this.dispose();
      }),
    );
    if (deps.users?.onDidLearn) {
      this.disposables.push(
        deps.users.onDidLearn(() => {
          if (this.names.refresh()) this.namesLearned();
        }),
      );
    }
  }

  /** The scope whose layout is remembered: the project, else "items". */
  private get scope(): string {
    return this.source.projectId ? `project:${this.source.projectId}` : 'items';
  }

  /** Reads the columns and the rows (progress in a notification, cancellable). */
  start(): Promise<void> {
    this.loaded = (async () => {
      try {
        await this.load();
        if (!this.disposed && !this.abort.signal.aborted) await this.restoreKept();
      } finally {
        // The whole view at once when reading ends (whenLoaded then sees every row in the view).
        if (this.refreshTimer) clearTimeout(this.refreshTimer);
        this.refreshTimer = undefined;
        if (!this.disposed) await this.refresh();
        // The selection kept with the tab (the page may have said its first one meanwhile).
        const selection = this.restored?.state.selection;
        if (!this.disposed && selection) this.post({ type: 'select', ...(this.lastSelect = selection) });
      }
    })();
    return this.loaded;
  }

  whenLoaded(): Promise<void> {
    return this.loaded;
  }

  private async load(): Promise<void> {
    const { log } = this.deps;
    this.loading = true;
    const t0 = Date.now();
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Work Item Table: reading {0}', this.source.title), cancellable: true },
      async (progress, token) => {
        const cancel = abortOn(token);
        if (cancel.signal.aborted) this.abort.abort();
        else cancel.signal.addEventListener('abort', () => this.abort.abort(), { once: true });
        const signal = this.abort.signal;
        try {
          const client = await this.deps.connection.getClient({ signal });
          const projectId = this.source.projectId ?? (this.source.ids?.[0] ? await this.deps.catalogue.projectOfWorkItem(this.source.ids[0]) : undefined);
          this.projectId = projectId;
          const [catalogue, profile, basePath] = await Promise.all([
            this.deps.catalogue.get(),
            projectId ? this.deps.catalogue.profile(projectId) : Promise.resolve(undefined),
            tableBasePath(this.source, client, signal, this.deps.log),
          ]);
          this.cellCatalogue = catalogue?.kind === 'service' ? catalogue.catalogue : undefined;
          this.columns = core().tableColumns(catalogue?.kind === 'service' ? catalogue.fieldTypes : undefined, profile);
          this.folderTypes = core().folderTypeIds(profile);
          this.layout = core().readLayout(this.deps.state.get(core().layoutKey(this.scope)), this.columns.map((c) => c.key));
          this.login = currentUserOf(client, this.deps.log).then((me) => ((this.currentUserId = me?.id), me?.loginName ?? me?.id));
          this.sendInit();
          let reported = 0;
          const handlers = {
            signal,
            onRows: (rows: LoadedRow[], replace: boolean) => {
              this.rows = replace ? rows : this.rows.concat(rows);
              this.editing.setRows(rows);
              this.names.note(core().userIdsOf(rows, this.columns), core().carriedNames(rows, this.columns));
              this.scheduleRefresh();
            },
            onProgress: (done: number, total: number | undefined) => {
              const inc = total ? ((done - reported) / total) * 100 : undefined;
              reported = done;
              progress.report({ message: total ? vscode.l10n.t('{0} of {1} items', done, total) : vscode.l10n.t('{0} items', done), increment: inc });
              this.post({ type: 'progress', loaded: done, total, done: false });
            },
          };
          if (this.source.rootId !== undefined) {
            await core().loadSubtree(client, this.source.rootId, this.source.level ?? 0, handlers, { basePath });
          } else {
            const r = await core().loadByIds((ids, o) => core().readWorkItems(client, ids, o), this.source.ids ?? [], handlers);
            this.missing = new Set(r.missing);
            if (r.missing.length > 0) {
              void vscode.window.showWarningMessage(vscode.l10n.t('{0} could not be read (deleted or not visible): {1}', workItemsText(r.missing.length), r.missing.slice(0, 10).join(', ')));
            }
          }
          log.info(`Work item table ${this.source.title}: ${this.rows.length} rows read in ${Date.now() - t0} ms`);
          await this.names.settled();
        } catch (e) {
          if (signal.aborted) {
            log.info(`Work item table ${this.source.title}: reading cancelled after ${this.rows.length} rows`);
            this.post({ type: 'progress', loaded: this.rows.length, done: true, message: vscode.l10n.t('Reading cancelled: {0} read.', itemsText(this.rows.length)) });
            return;
          }
          throw e;
        } finally {
          cancel.dispose();
          this.loading = false;
        }
      },
    );
  }

  /** Brings back the edits kept for this project and service, and (a restored tab) its filter. */
  private async restoreKept(): Promise<void> {
    const client = await this.deps.connection.getClient({ signal: this.abort.signal });
    const current = this.deps.connection.current;
    const baseUrl = current?.isSandbox ? 'sandbox:' : client.baseUrl;
    const key = core().keptKey({ baseUrl, login: await this.login, projectId: this.projectId });
    // New rows of the kept edits are made again first, so that their values apply as the others do.
    this.additions.restore(this.deps.kept().read(key).edits);
    const wholeProject = this.source.rootId !== undefined && (this.source.level ?? 0) === 0;
    const r = this.keeper.restore(key, new Map(this.rows.map((x) => [x.id, x])), { wholeProject, missing: this.missing });
    if (r.applied > 0) void vscode.window.showInformationMessage(vscode.l10n.t('{0}: {1} brought back.', this.source.title, unsentEdits(r.applied)));
    const text = this.restored?.state.filterText;
    if (text) {
      this.post({ type: 'setFilter', text });
      this.setFilterText(text, true);
    }
  }

  /** Asks the webview to keep what restores this tab after a reload. */
  private keepState(): void {
    this.keptState = { v: 1, source: this.source, filterText: this.filterText, ...(this.selection ? { selection: this.selection } : {}) };
    this.post({ type: 'keep', state: this.keptState });
  }

  /** Names became known after the rows were painted: the filter compiled again with them (names in "leader is" / "assigned to"), the rows painted again. */
  private namesLearned(): void {
    if (this.disposed) return;
    const again = this.wantedFilter ?? (this.filterText.trim() !== '' ? this.filterText : undefined);
    if (again !== undefined) this.setFilterText(again, true);
    this.scheduleRefresh(0);
  }

  /** Resolves when no read of user names is running (tests). */
  namesSettled(): Promise<void> {
    return this.names.settled();
  }

  /** A folder's item type (its dates follow its children). */
  isFolderType(typeId: string | undefined): boolean {
    return typeId !== undefined && this.folderTypes.has(typeId);
  }

  /** Users the rows name, known by name (the pickers' values). */
  knownUsers(): KnownUser[] {
    return this.names.users();
  }

  allColumns(): readonly ColumnDef[] {
    return this.columns;
  }

  shownColumns(): ColumnDef[] {
    const byKey = new Map(this.columns.map((c) => [c.key, c]));
    return this.layout.columns.flatMap((k) => (byKey.has(k) ? [byKey.get(k)!] : []));
  }

  filterContext(): FilterContext {
    return { columns: this.columns, today: core().todayOf(), currentUserId: this.currentUserId, resolveUser: this.names.resolver(), userName: this.names.lookup() };
  }

  private language(): string {
    return vscode.env.language;
  }

  private columnInfo(): ColumnInfo[] {
    return pageColumns(this.shownColumns(), this.language(), this.layout.widths, this.editing.context());
  }

  private sendInit(): void {
    this.post({ type: 'init', title: this.source.title, service: (this.deps.connection.profiles?.list.length ?? 0) > 1 ? this.deps.connection.current?.label : undefined, strings: tableStrings(), columns: this.columnInfo(), sort: this.layout.sort, lowestOnly: this.layout.lowestOnly, filterText: this.filterText, rowHeight: ROW_HEIGHT });
    this.keepState();
  }

  /** The last `editor` or `refused` message sent to the webview (tests). */
  lastEditorMessage: ToWebview | undefined;

  get currentGeneration(): number {
    return this.generation;
  }

  private post(m: ToWebview): void {
    if (m.type === 'editor' || m.type === 'refused') this.lastEditorMessage = m;
    if (m.type === 'edits') this.keeper.changed();
    if (!this.ready) {
      if (m.type === 'init') this.queue.length = 0;
      this.queue.push(m);
      return;
    }
    void this.panel.webview.postMessage(m);
  }

  private receive(raw: unknown): void {
    void this.dispatch(raw);
  }

  /** A message as if the webview posted it (the webview's path; tests drive the table through it). */
  dispatch(raw: unknown): Promise<void> {
    const m = readMessage(raw);
    if (!m) return Promise.resolve();
    return this.handle(m).catch((e: unknown) => this.deps.log.warn(`Work item table: ${m.type} failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  private format(): { userName: (id: string) => string | undefined } {
    return { userName: this.names.lookup() };
  }

  private async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready': {
        this.ready = true;
        const q = this.queue.splice(0);
        if (this.columns.length > 0 && !q.some((x) => x.type === 'init')) this.sendInit();
        for (const x of q) void this.panel.webview.postMessage(x);
        if (this.columns.length > 0) this.scheduleRefresh(0);
        return;
      }
      case 'filter':
        // The user applying a filter: rows kept in sight after a send follow the filter again.
        if (m.apply) this.sent.clear();
        this.setFilterText(m.text, m.apply);
        return;
      case 'selection':
        this.selection = readSelection(m);
        this.keepState();
        return;
      case 'sort':
        this.sortBy(m.key);
        return;
      case 'resize':
        this.layout.widths[m.key] = core().clampWidth(m.width);
        await this.saveLayout();
        return;
      case 'reorder':
        this.layout.columns = core().moveColumn(this.layout.columns, m.key, m.before);
        await this.saveLayout();
        this.sendInit();
        this.scheduleRefresh(0);
        return;
      case 'lowestOnly':
        await this.setLowestOnly(m.value);
        return;
      case 'command':
        await this.deps.onCommand(this, m.name);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(m.text);
        vscode.window.setStatusBarMessage(m.cells === 1 ? vscode.l10n.t('Copied 1 cell.') : vscode.l10n.t('Copied {0} cells.', m.cells), 3000);
        return;
      case 'painted': {
        const p: PaintReport = { generation: m.generation, first: m.first, count: m.count, total: m.total, received: m.received, ms: m.ms };
        this.lastPaint = p;
        if (!this.firstPaints.some((x) => x.generation === p.generation)) this.firstPaints.push(p);
        this.paintEmitter.fire(p);
        return;
      }
      case 'activate':
        this.editing.activate(m.id, m.key);
        return;
      case 'commit':
        this.editing.commit(m.id, m.key, m.text);
        return;
      case 'paste':
        this.editing.paste(m.id, m.key, m.text, m.rows, m.columns);
        return;
      case 'fill':
        if (m.generation === this.generation) this.editing.fillDown(m.firstRow, m.lastRow, m.keys);
        return;
      case 'undo':
        this.editing.undo();
        return;
      case 'redo':
        this.editing.redo();
        return;
    }
  }

  private async saveLayout(): Promise<void> {
    await this.deps.state.update(core().layoutKey(this.scope), this.layout);
  }

  /** Count (always) and apply (when `apply`) a typed filter; answers the count message it posted. */
  setFilterText(text: string, apply: boolean): { matches: number; total: number; errors: { start: number; end: number; message: string }[] } {
    const base = core().baseRows(core().liveRows(this.rows, this.editing.edits), { lowestOnly: this.layout.lowestOnly, isFolder: core().folderTest(this.folderTypes) });
    const compiled = core().compileFilterText(text, this.filterContext());
    const matches = compiled.ok ? core().countMatches(base, compiled.test) : 0;
    const errors = compiled.ok ? [] : (compiled.errors ?? compiled.problems.map((p) => ({ ...p, start: 0, end: text.length }))).map((e) => ({ start: e.start, end: e.end, message: filterErrorText(e) }));
    const count = { matches: compiled.ok ? matches : 0, total: base.length, errors };
    this.post({ type: 'count', text, ...count });
    if (apply) this.wantedFilter = compiled.ok ? undefined : text;
    if (apply && compiled.ok) {
      const changed = this.filterText !== text;
      this.filterText = text;
      this.compiled = text.trim() === '' ? undefined : compiled;
      if (changed) this.keepState();
      this.scheduleRefresh(0);
    }
    return count;
  }

  /** Puts a text in the bar and applies it (named filters, pickers). */
  applyFilterText(text: string): ReturnType<TablePanel['setFilterText']> {
    this.sent.clear();
    this.post({ type: 'setFilter', text });
    return this.setFilterText(text, true);
  }

  get currentFilterText(): string {
    return this.filterText;
  }

  sortBy(key: string): void {
    this.layout.sort = core().nextSort(this.layout.sort, key);
    void this.saveLayout();
    this.sendInit();
    this.scheduleRefresh(0);
  }

  async setLowestOnly(value: boolean): Promise<void> {
    this.layout.lowestOnly = value;
    await this.saveLayout();
    if (this.filterText) this.setFilterText(this.filterText, false);
    this.scheduleRefresh(0);
  }

  async setColumns(keys: string[]): Promise<void> {
    this.layout.columns = keys;
    await this.saveLayout();
    this.sendInit();
    this.scheduleRefresh(0);
  }

  /** The rows of the selected cells, in the order shown (none when nothing is selected). */
  selectedRows(): LoadedRow[] {
    const at = (id: string | undefined) => this.view.findIndex((r) => r.id === id);
    const [a, b] = [at(this.selection?.anchor.id), at(this.selection?.focus.id)];
    return a < 0 || b < 0 ? [] : this.view.slice(Math.min(a, b), Math.max(a, b) + 1).map((r) => this.editing.row(r.id) ?? r);
  }

  /** The IDs of the rows shown now (the filter's matches), in the order shown. */
  matchingIds(): string[] {
    return this.view.map((r) => r.id);
  }

  /** Every row read (not only those shown). */
  allRows(): readonly LoadedRow[] {
    return this.rows;
  }

  /** A user's name (the ID when unknown). */
  userName(id: string): string | undefined {
    return this.names.name(id);
  }

  /** The rows shown now, in order (tests). */
  viewRows(): readonly LoadedRow[] {
    return this.view;
  }

  get loadedCount(): number {
    return this.rows.length;
  }

  get isLoading(): boolean {
    return this.loading;
  }

  reveal(): void {
    this.panel.reveal();
  }

  /** Computes the view again soon (rows arriving in bursts make one refresh). */
  private scheduleRefresh(delay = 50): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void this.refresh();
    }, delay);
  }

  /** The view computed and sent: `reset`, then chunks, yielding between chunks (a newer refresh stops an older one). */
  private async refresh(): Promise<void> {
    if (this.columns.length === 0) return;
    const generation = ++this.generation;
    const format = this.format();
    const edits = this.editing.edits;
    const sortCol = this.layout.sort ? this.columns.find((c) => c.key === this.layout.sort!.key) : undefined;
    const filter = this.compiled?.ok ? this.compiled.test : undefined;
    const sent = this.sent;
    this.view = core().computeView(core().rowsWithEdits(core().liveRows(this.rows, edits), edits), {
      lowestOnly: this.layout.lowestOnly,
      isFolder: core().folderTest(this.folderTypes),
      test: filter && sent.size > 0 ? (r) => sent.has(r.id) || filter(r) : filter,
      sort: sortCol && this.layout.sort ? { column: sortCol, direction: this.layout.sort.direction } : undefined,
      format,
    });
    const view = this.view;
    const cols = this.shownColumns();
    this.post({ type: 'reset', generation, total: view.length, loaded: this.rows.length, tree: !this.layout.sort && !this.layout.lowestOnly && this.source.rootId !== undefined });
    for (const [start, end] of core().chunkRanges(view.length, core().ROW_CHUNK)) {
      if (generation !== this.generation) return;
      const rows = new Array(end - start);
      if (edits.size === 0) for (let i = start; i < end; i++) rows[i - start] = core().shownRow(view[i]!, cols, format);
      else for (let i = start; i < end; i++) rows[i - start] = core().shownEditedRow(this.editing.row(view[i]!.id) ?? view[i]!, cols, edits, format);
      if (sent.size > 0) for (let i = start; i < end; i++) if (sent.has(view[i]!.id)) rows[i - start] = { ...rows[i - start], sent: true };
      if (this.additions.made) for (let i = start; i < end; i++) if (core().isNewRowId(view[i]!.id)) rows[i - start] = this.additions.shown(rows[i - start]);
      this.post({ type: 'rows', generation, start, rows });
      await new Promise((r) => setImmediate(r));
    }
    if (!this.loading) this.post({ type: 'progress', loaded: this.rows.length, total: this.rows.length, done: true });
    this.editing.sendState();
  }

  /** The last re-read after a job (tests wait for it). */
  reloading: Promise<number> = Promise.resolve(0);

  /** A key of the table's keybindings: the page undoes its own text in an open cell editor, else asks for the table's step. */
  key(name: 'undo' | 'redo' | 'fillDown'): void {
    this.post({ type: 'key', name });
  }

  /**
   * Reads these items again (after a send): their values as read replace the old ones, edits
   * that now match are dropped. `afterSend`: rows whose edits were sent stay in sight, marked.
   */
  async reloadItems(ids: readonly string[], opts: { afterSend?: boolean } = {}): Promise<number> {
    const known = new Set(this.rows.map((r) => r.id));
    const wanted = [...new Set(ids)].filter((id) => known.has(id));
    if (wanted.length === 0 || this.disposed) return 0;
    const client = await this.deps.connection.getClient({ signal: this.abort.signal });
    const r = await core().loadByIds((list, o) => core().readWorkItems(client, list, o), wanted, { signal: this.abort.signal, onRows: () => undefined });
    const before = this.editing.edits.all();
    const fresh = core().mergeReread(this.rows, r.rows);
    this.editing.setRows(fresh);
    if (opts.afterSend) for (const id of core().sentItems(before, this.editing.edits.all(), fresh)) this.sent.add(id);
    // Users the send named (a new leader or assignee) by name too.
    this.names.note(core().userIdsOf(fresh, this.columns), core().carriedNames(fresh, this.columns));
    this.deps.log.info(`Work item table ${this.source.title}: ${fresh.length} items read again; ${this.editing.edits.size} edits pending`);
    await this.refresh();
    return fresh.length;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.keeper.flush();
    this.abort.abort();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.disposeEmitter.fire();
    vscode.Disposable.from(...this.disposables).dispose();
    this.panel.dispose();
  }
}
