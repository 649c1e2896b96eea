// What the three language model tools share: what they need of the rest of the extension,
// the refusal (an Error whose message says what was wrong, never only a stack), the
// confirmations (which a test may answer: test hooks) and the text result.
import * as vscode from 'vscode';
import type { CatalogueState } from '../api/catalogue';
import type { ServiceClient } from '../api/client';
import type { ProjectProfile } from '../schema/catalogue';
import type { PeopleDirectory } from '../table/model/names';
import { isCancellation } from '../common/commands';
import { describeError } from '../common/messages';
import { problemsText } from './model';

/** What src/extension.ts passes to registerAgentTools. */
export interface AgentToolsHost {
  connection: {
    getClient(o?: { signal?: AbortSignal }): Promise<ServiceClient>;
    readonly current?: { baseUrl: string; label: string } | undefined;
  };
  catalogue: {
    get(): Promise<CatalogueState | undefined>;
    profile(projectId: string): Promise<ProjectProfile | undefined>;
    projectOfWorkItem(id: string): Promise<string | undefined>;
  };
  /** The people directory: names of the leaders the answers show, users a filter names. */
  users?: PeopleDirectory;
}

/** The answers a test gives instead of a person (test hooks only). */
export interface AgentToolPrompts {
  /** True: the tools ask no confirmation, as if the person had allowed each call. */
  confirmed?: boolean;
}

/** Where the tools are told whether a test answers their confirmations. */
export interface ToolContext {
  host: AgentToolsHost;
  log: vscode.LogOutputChannel;
  prompts(): AgentToolPrompts;
}

/** A refusal of the tool's input or of what it was asked: the message is the whole explanation. */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
}

/** A refusal listing problems, one a line (the head says what was refused). */
export function refuse(head: string, problems: readonly string[]): never {
  throw new ToolRefusal(problemsText(head, problems));
}

/** The prepared invocation: the progress line, and the confirmation unless a test answered it. */
export function prepared(ctx: ToolContext, invocation: string, title: string, message: string): vscode.PreparedToolInvocation {
  if (ctx.prompts().confirmed) return { invocationMessage: invocation };
  return { invocationMessage: invocation, confirmationMessages: { title, message: new vscode.MarkdownString(message) } };
}

/** The service in use, as the answers name it ("Sandbox (this window) at http://127.0.0.1:…/api"). */
export function serviceName(ctx: ToolContext): string | undefined {
  const c = ctx.host.connection.current;
  return c ? `${c.label} ${c.baseUrl}` : undefined;
}

export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/**
 * Runs a tool's work: a refusal stays as it is; a cancel is a cancel; any other failure (the
 * service, the network, signing in) is logged with its detail and refused with a sentence.
 */
export async function runTool(ctx: ToolContext, tool: string, work: () => Promise<vscode.LanguageModelToolResult>): Promise<vscode.LanguageModelToolResult> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ToolRefusal) {
      ctx.log.info(`Agent tool ${tool} refused: ${e.message}`);
      throw e;
    }
    if (isCancellation(e)) throw new vscode.CancellationError();
    ctx.log.warn(`Agent tool ${tool} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    throw new ToolRefusal(vscode.l10n.t('Work Item Studio could not do this: {0}', describeError(e)));
  }
}
