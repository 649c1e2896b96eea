// Reads a table makes besides its rows: the path of the folder it shows.
import type * as vscode from 'vscode';
import type { ServiceClient } from '../api/client';
import type { TableSource } from './types';
import { core } from '../core/load';

/** The parent path of a folder's rows: from the level below the project's root folder (the folder's ancestors first), as in the project's table. */
export async function tableBasePath(source: TableSource, client: ServiceClient, signal: AbortSignal, log: vscode.LogOutputChannel): Promise<string | undefined> {
  const { rootId, level, basePath } = source;
  if (rootId === undefined || level === undefined || level <= 1 || basePath === undefined) return basePath;
  try {
    return await core().folderPath(client, { id: rootId, name: basePath, level }, { signal });
  } catch (e) {
    if (signal.aborted) throw e;
    log.warn(`Work item table ${source.title}: the folder's ancestors were not read (${e instanceof Error ? e.message : String(e)}); paths start at the folder`);
    return basePath;
  }
}

/** The current user (the filter's "mine", the login that keys the kept edits); undefined when not known. */
export async function currentUserOf(client: ServiceClient, log: vscode.LogOutputChannel): Promise<{ id?: string; loginName?: string } | undefined> {
  try {
    const me = await client.getCurrentUser();
    return me ? { id: me.id, loginName: me.loginName ?? undefined } : undefined;
  } catch (e) {
    log.debug(`Work item table: the current user is not known (${e instanceof Error ? e.message : String(e)}): "mine" matches nothing`);
    return undefined;
  }
}
