// Changes of the sandbox's data set that are acknowledged only once kept: each change
// (an update, a reset) is made when no other change is being made or saved, then the
// data set is saved to the state file (when there is one); when the save fails (a
// full disk, no permission, any write error) the change is taken back in memory and
// the request is answered 500 saying the change was not kept. No vscode import.
import type { Logger } from '../api/logger';
import type { HttpError } from './lists';
import type { Dataset } from './model';
import type { StateWriter } from './state';

/** What a change made: the value to answer with and, when the data set changed, how to take it back. */
export interface Change<T> {
  value: T;
  /** Present when the data set changed (then it is saved); takes the change back. */
  undo?: () => void;
}

export type Kept<T> = { ok: true; value: T } | { ok: false; status: number; body: HttpError[] };

/** Status of the answer to a change that could not be saved. */
export const NOT_KEPT_STATUS = 500;

/** The error entries of a change that was not kept (code INTERNAL_ERROR, template "Internal sandbox error: {detail}."). */
export function notKeptBody(file: string, error: unknown): HttpError[] {
  const e = error as NodeJS.ErrnoException;
  const why = e?.code === 'ENOSPC' ? 'the disk is full' : e?.code === 'EACCES' || e?.code === 'EPERM' ? 'no permission to write there' : 'the file could not be written';
  const reason = `${why} (${e instanceof Error ? e.message : String(error)})`;
  const detail = `the change was not kept: the state file ${file} could not be saved: ${reason}; nothing was changed, send the request again once the state file can be written`;
  return [{ message: `internal sandbox error: ${detail}`, code: 'INTERNAL_ERROR', params: { detail } }];
}

export class ChangeKeeper {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly writer: StateWriter | undefined,
    private readonly data: () => Dataset,
    private readonly log: Logger,
  ) {}

  /**
   * Makes the change `apply` after every earlier change has been made and saved (or
   * taken back), then saves the data set when the change gave an `undo`. A failed save
   * calls `undo` and gives the 500 answer; nothing else can change the data set in between.
   */
  change<T>(apply: () => Change<T>): Promise<Kept<T>> {
    const run = this.chain.then(async (): Promise<Kept<T>> => {
      const made = apply();
      if (!made.undo || !this.writer) return { ok: true, value: made.value };
      try {
        await this.writer.save(this.data());
        return { ok: true, value: made.value };
      } catch (e) {
        made.undo();
        this.log.error(`sandbox: could not write the state file ${this.writer.file}: ${(e as Error).message}; the change was taken back and answered ${NOT_KEPT_STATUS}`);
        return { ok: false, status: NOT_KEPT_STATUS, body: notKeptBody(this.writer.file, e) };
      }
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Settles when every change asked for so far has been made and saved (or taken back). */
  idle(): Promise<void> {
    return this.chain.then(() => undefined);
  }
}
