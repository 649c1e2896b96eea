// workItemStudio_readWorkItems: work items read by ID (readWorkItems: batched, paced), at
// most MAX_READ_IDS a call, answered with their fields as read and the IDs not read.
import * as vscode from 'vscode';
import { abortOn } from '../common/abortOn';
import { answerText, checkReadInput, readAnswer } from './model';
import { prepared, refuse, runTool, serviceName, textResult, type ToolContext } from './tools';
import { core } from '../core/load';

export const READ_TOOL = 'workItemStudio_readWorkItems';

export class ReadWorkItemsTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly ctx: ToolContext) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const raw = (options.input as { ids?: unknown } | undefined)?.ids;
    const ids = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? core().parseWorkItemIds(raw) : [];
    const shown = ids.length > 10 ? `${ids.slice(0, 10).join(', ')}, …` : ids.join(', ');
    return prepared(
      this.ctx,
      vscode.l10n.t('Reading work items {0}', shown),
      vscode.l10n.t('Read work items?'),
      vscode.l10n.t('Reads these work items.\n\nService: {0}\n\nIDs: {1}', this.ctx.host.connection.current?.label ?? vscode.l10n.t('the service'), shown),
    );
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return runTool(this.ctx, READ_TOOL, async () => {
      const checked = checkReadInput(options.input);
      if (!checked.ok) refuse(vscode.l10n.t('The input of {0} is not valid:', READ_TOOL), checked.problems);
      const { ids, fields } = checked.value;
      const abort = abortOn(token);
      try {
        const client = await this.ctx.host.connection.getClient({ signal: abort.signal });
        const r = await core().readWorkItems(client, ids, { signal: abort.signal, ...(fields ? { fields } : {}) });
        this.ctx.log.info(`Agent tool ${READ_TOOL}: ${r.items.size} of ${ids.length} items read in ${r.requests} requests`);
        return textResult(answerText(readAnswer({ service: serviceName(this.ctx), ids, items: r.items, missing: r.missing })));
      } finally {
        abort.dispose();
      }
    });
  }
}
