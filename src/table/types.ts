// What the table needs from the rest of the extension (passed in by src/extension.ts)
// and what a table shows (its source).
import type * as vscode from 'vscode';
import type { CatalogueState } from '../api/catalogue';
import type { ServiceClient } from '../api/client';
import type { ProjectProfile } from '../schema/catalogue';
import type { KeptStore, PeopleDirectory } from './model';
import type { TablePrompts } from './pending';
import type { TablePanel } from './panel';
import type { BarCommand } from './protocol';
import type { JobPlan, JobResult } from '../bulk/types';

export type { TableSource } from './protocol';

export interface TableDeps {
  log: vscode.LogOutputChannel;
  extensionUri: vscode.Uri;
  /** workspaceState: layouts per project. */
  state: vscode.Memento;
  connection: {
    getClient(o?: { signal?: AbortSignal; background?: boolean }): Promise<ServiceClient>;
    /** The configured service (a sandbox started in this window gets a new port each time: its edits are kept under "sandbox"). */
    readonly current?: { baseUrl: string; isSandbox: boolean; label?: string } | undefined;
    /** The service profiles: with more than one, the table's status line names the one it reads. */
    readonly profiles?: { list: readonly unknown[] };
  };
  /** Unsent edits kept per project and service (workspaceState, or globalState without a workspace). */
  kept(): KeptStore;
  /** The questions about kept edits (modal dialogs unless replaced: setPrompts). */
  prompts(): TablePrompts;
  catalogue: {
    get(): Promise<CatalogueState | undefined>;
    profile(projectId: string): Promise<ProjectProfile | undefined>;
    projectOfWorkItem(id: string): Promise<string | undefined>;
  };
  /** The people directory (src/people, the one the Before/After change tables use): names for the user IDs rows name. */
  users?: PeopleDirectory & { onDidLearn?: vscode.Event<void> };
  /** A button of the bar (pickers, named filters, columns, request document). */
  onCommand(panel: TablePanel, name: BarCommand): Promise<void>;
}

/** What src/extension.ts passes to registerTable. */
export interface TableHost {
  connection: TableDeps['connection'];
  catalogue: TableDeps['catalogue'];
  users?: TableDeps['users'];
  /** The Work Items view: its checked items and selection (targets of "Open Selected in Table"). */
  workItems?: {
    tree: { checked: ReadonlySet<string>; projectIdOf?(id: string): string | undefined };
    view: { selection: readonly unknown[] };
  };
  /** Opens a new request document for these IDs (src/editors newUpdate): asks for the change when `template` is not given. */
  newRequestDocument(ids: string[], template?: string): Promise<unknown>;
  /** Fires when an update job ends (RequestJobs.onDidFinishJob): tables re-read the items it touched. */
  onDidFinishJob?: vscode.Event<{ result: JobResult; plan?: JobPlan }>;
}
