// workItemStudio_findWorkItems: a project's or folder's items read as the work item table
// reads them (loadSubtree), the table's filter language applied (the columns of the
// project's catalogue and profile, user names from the people directory, "mine" from the
// signed-in user), and the matching items answered with their count, capped.
import * as vscode from 'vscode';
import type { FilterContext, LoadedRow } from '../table/model';
import { abortOn } from '../common/abortOn';
import { checkFindInput, answerText, findAnswer, folderSource, projectSource, SourceError, type FindInput } from './model';
import { prepared, refuse, runTool, serviceName, textResult, type ToolContext } from './tools';
import { core } from '../core/load';

export const FIND_TOOL = 'workItemStudio_findWorkItems';

export class FindWorkItemsTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly ctx: ToolContext) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const input = (options.input ?? {}) as Partial<FindInput>;
    const where = input.projectId !== undefined ? vscode.l10n.t('project {0}', String(input.projectId)) : vscode.l10n.t('folder {0}', String(input.folderId ?? ''));
    const filter = typeof input.filter === 'string' && input.filter.trim() !== '' ? input.filter : vscode.l10n.t('(no filter: every item)');
    return prepared(
      this.ctx,
      vscode.l10n.t('Finding work items in {0}', where),
      vscode.l10n.t('Find work items?'),
      vscode.l10n.t('Reads the work items and answers those matching the filter.\n\nWhere: {0}\n\nService: {1}\n\nFilter: {2}', where, this.ctx.host.connection.current?.label ?? vscode.l10n.t('the service'), filter),
    );
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return runTool(this.ctx, FIND_TOOL, async () => {
      const checked = checkFindInput(options.input);
      if (!checked.ok) refuse(vscode.l10n.t('The input of {0} is not valid:', FIND_TOOL), checked.problems);
      const abort = abortOn(token);
      try {
        return textResult(answerText(await this.find(checked.value, abort.signal)));
      } finally {
        abort.dispose();
      }
    });
  }

  private async find(input: FindInput, signal: AbortSignal): Promise<ReturnType<typeof findAnswer>> {
    const { host } = this.ctx;
    const client = await host.connection.getClient({ signal });
    let source;
    try {
      source = input.projectId !== undefined ? await projectSource(client, input.projectId, { signal }) : await folderSource(client, input.folderId!, { signal });
    } catch (e) {
      if (e instanceof SourceError) refuse(vscode.l10n.t('Nothing was searched:'), [e.message]);
      throw e;
    }
    const projectId = source.projectId ?? (input.folderId !== undefined ? await host.catalogue.projectOfWorkItem(input.folderId) : undefined);
    const [catalogue, profile] = await Promise.all([host.catalogue.get(), projectId ? host.catalogue.profile(projectId) : Promise.resolve(undefined)]);
    const columns = core().tableColumns(catalogue?.kind === 'service' ? catalogue.fieldTypes : undefined, profile);
    // The text's own problems (syntax, unknown fields) are known before any item is read.
    const parsed = core().parseFilterText(input.filter, columns);
    if (!parsed.ok) refuse(vscode.l10n.t('The filter is not valid:'), parsed.errors.map((e) => `${e.message} (at column ${e.start + 1})`));
    const rows: LoadedRow[] = await core().loadSubtree(client, source.rootId, source.level, { signal, onRows: () => undefined }, { basePath: source.basePath });
    const names = new (core().TableNames)(host.users, () => undefined, (e) => this.ctx.log.info(`Agent tool ${FIND_TOOL}: user names not read (${e instanceof Error ? e.message : String(e)})`));
    names.note(core().userIdsOf(rows, columns), core().carriedNames(rows, columns));
    await names.settled();
    const me = await client.getCurrentUser({ signal }).catch(() => undefined);
    const ctx: FilterContext = { columns, today: core().todayOf(), currentUserId: me?.id, resolveUser: names.resolver(), userName: names.lookup() };
    const compiled = core().compileFilterText(input.filter, ctx);
    if (!compiled.ok) refuse(vscode.l10n.t('The filter is not valid:'), (compiled.errors ?? compiled.problems).map((e) => ('start' in e ? `${e.message} (at column ${e.start + 1})` : e.message)));
    const matched = rows.filter((r) => compiled.test(r));
    this.ctx.log.info(`Agent tool ${FIND_TOOL}: ${matched.length} of ${rows.length} items below ${source.rootId} match "${input.filter}"`);
    return findAnswer({
      service: serviceName(this.ctx),
      searched: { ...(input.projectId !== undefined ? { projectId: input.projectId } : { folderId: input.folderId }), ...(source.name ? { name: source.name } : {}) },
      filter: input.filter,
      read: rows.length,
      matched,
      maxResults: input.maxResults,
      columns,
      format: { userName: names.lookup() },
    });
  }
}
