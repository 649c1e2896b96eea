// Durable file writes shared by the job journal and the value snapshots beside it.
// No vscode import.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

/**
 * Writes `text` to `file` atomically and durably: a temp file in the same directory
 * (`tag` makes its name unique), fsync, rename over `file`, fsync of the directory.
 * On failure the temp file is removed and the error passes through unchanged.
 */
export async function writeFileDurably(file: string, text: string, tag: string): Promise<void> {
  const tmp = `${file}.${tag}.tmp`;
  try {
    const handle = await fsp.open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  // Make the rename itself durable.
  await syncDirectory(path.dirname(file));
}

/** fsync of a directory (its entries: a rename, a link). Not possible on every platform (Windows): best effort. */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fsp.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* best effort */
  }
}
