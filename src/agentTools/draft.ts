// workItemStudio_draftRequestDocument: an agent's request document or change set, checked
// as the editor checks one (JSON syntax, then the request document's rules with the
// service's field catalogue), opened as a new unsaved request document for the person to
// review with Preview and Send. It is never sent from here; a draft with errors is refused,
// each error named with its line and member, and nothing is opened.
import * as vscode from 'vscode';
import type { Template } from '../schema/render';
import { issueText } from '../common/documentCheck';
import { openNewRequestDocument } from '../common/requestDocuments';
import { checkDraftInput, checkDraftText, draftProblemLine, type DraftProblem } from './model';
import { prepared, refuse, runTool, textResult, type ToolContext } from './tools';

export const DRAFT_TOOL = 'workItemStudio_draftRequestDocument';

/** A problem in the display language where the document checks word it (as the editor's diagnostics do). */
const problemLine = (p: DraftProblem): string => draftProblemLine(p, p.issue ? issueText(p.issue) : p.message);

export class DraftRequestDocumentTool implements vscode.LanguageModelTool<unknown> {
  /** The documents this tool opened (tests). */
  readonly opened: vscode.Uri[] = [];

  constructor(private readonly ctx: ToolContext) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return prepared(
      this.ctx,
      vscode.l10n.t('Opening a draft request document'),
      vscode.l10n.t('Open a draft request document?'),
      vscode.l10n.t('The draft opens as a new unsaved request document. Nothing is sent: review it with Preview, then Send it yourself, or close it.'),
    );
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>): Promise<vscode.LanguageModelToolResult> {
    return runTool(this.ctx, DRAFT_TOOL, async () => {
      const input = checkDraftInput(options.input);
      if (!input.ok) refuse(vscode.l10n.t('The input of {0} is not valid:', DRAFT_TOOL), input.problems);
      const state = await this.ctx.host.catalogue.get();
      const checked = checkDraftText(input.value.text, state?.kind === 'service' ? state.catalogue : undefined);
      if (!checked.ok) refuse(vscode.l10n.t('The draft was not opened: the request document has errors.'), checked.problems.map(problemLine));
      const editor = await openNewRequestDocument(checked.value as Template, input.value.baseName);
      const uri = editor.document.uri;
      this.opened.push(uri);
      this.ctx.log.info(`Agent tool ${DRAFT_TOOL}: draft opened as ${uri.toString()} (not sent)`);
      const lines = [
        `The draft is open in the editor as the unsaved request document ${uri.toString(true)}. Nothing was sent.`,
        'The user reviews it with Preview (the values before and after, read from the service) and sends it with Send, or edits or closes it; every Send can be undone with Create Undo Document. Do not tell the user it was applied.',
      ];
      if (checked.warnings.length > 0) lines.push('Warnings of the document checks:', ...checked.warnings.map((w) => `- ${problemLine(w)}`));
      return textResult(lines.join('\n'));
    });
  }
}
