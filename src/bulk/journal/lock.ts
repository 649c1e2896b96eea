// The lock of a job journal: a `.lock` file beside the journal holding the id of
// the process running the job (and its host), so that two windows never run the
// same job at once. A lock left by a process that no longer runs is taken over.
// No vscode import.
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import { errText, JournalError } from './format';

/** The lock file of the journal `file`. */
export function lockFileOf(file: string): string {
  return `${file}.lock`;
}

/**
 * Takes the lock of the journal `file` (job `jobId`, named in the error) for this
 * process; resolves to the lock file. Throws `locked` when a live process holds it,
 * `write-failed` when it cannot be written.
 */
export async function takeLock(file: string, jobId: string): Promise<string> {
  const lockFile = lockFileOf(file);
  const content = JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, content, { flag: 'wx' });
      return lockFile;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new JournalError('write-failed', file, `cannot lock the job journal ${file}: ${errText(e)}`, { cause: e });
      }
    }
    if (await lockIsLive(lockFile)) {
      throw new JournalError('locked', file, `job ${jobId} is being run by another window or process`);
    }
    await fsp.rm(lockFile, { force: true });
  }
  throw new JournalError('locked', file, `job ${jobId} is being run by another window or process`);
}

/** Whether a live process (of this machine; one of another machine is assumed live) holds the lock `lockFile`. */
export async function lockIsLive(lockFile: string): Promise<boolean> {
  let info: { pid?: unknown; host?: unknown };
  try {
    info = JSON.parse(await fsp.readFile(lockFile, 'utf8')) as { pid?: unknown; host?: unknown };
  } catch {
    return false; // unreadable or half-written lock: treat as stale
  }
  if (typeof info.pid !== 'number') return false;
  if (typeof info.host === 'string' && info.host !== os.hostname()) return true; // cannot check another machine: assume live
  if (info.pid === process.pid) return true;
  try {
    process.kill(info.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
