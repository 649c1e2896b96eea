// Tools for agents: language model tools (contributes.languageModelTools) that let an AI
// agent find and read work items and draft a request document. An agent's change is only
// ever a draft: it opens as an unsaved request document, which the person previews, sends
// and can undo as any other; no tool sends anything.
import * as vscode from 'vscode';
import { DraftRequestDocumentTool, DRAFT_TOOL } from './draft';
import { FindWorkItemsTool, FIND_TOOL } from './find';
import { ReadWorkItemsTool, READ_TOOL } from './read';
import type { AgentToolPrompts, AgentToolsHost, ToolContext } from './tools';

export type { AgentToolPrompts, AgentToolsHost } from './tools';
export { DRAFT_TOOL, FIND_TOOL, READ_TOOL };

export interface AgentTools {
  /** Test hooks: answers replacing the confirmations (undefined: the confirmations are asked again). */
  setPrompts(prompts: Partial<AgentToolPrompts> | undefined): void;
}

export function registerAgentTools(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, host: AgentToolsHost): AgentTools {
  let prompts: AgentToolPrompts = {};
  const ctx: ToolContext = { host, log, prompts: () => prompts };
  // A VS Code without the language model API (or with it turned off) simply has no tools.
  if (typeof vscode.lm?.registerTool === 'function') {
    context.subscriptions.push(
      vscode.lm.registerTool(FIND_TOOL, new FindWorkItemsTool(ctx)),
      vscode.lm.registerTool(READ_TOOL, new ReadWorkItemsTool(ctx)),
      vscode.lm.registerTool(DRAFT_TOOL, new DraftRequestDocumentTool(ctx)),
    );
  } else {
    log.info('Agent tools: this VS Code has no language model tools API (vscode.lm.registerTool); the tools are not registered.');
  }
  return {
    setPrompts: (p) => {
      prompts = { ...(p ?? {}) };
    },
  };
}
