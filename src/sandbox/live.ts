// What the sandbox's routes share while it runs: the live data set (replaced by a
// reset) with the read indexes built on it, and the services the routes use (change
// keeper, sign-in tokens, fault queue, edition, clock, body limit). No vscode import.
import type { TokenStore } from './auth';
import type { FaultQueue } from './faults';
import type { ChangeKeeper } from './keeper';
import type { Dataset, Edition } from './model';
import { ReadIndex } from './reads';

/** The live data set and its read indexes: built on the first read, dropped when the data set changes. */
export class LiveData {
  private readIndex: ReadIndex | undefined;

  constructor(
    /** The data set the sandbox started with (a reset without a body goes back to it). */
    readonly initial: Dataset,
    public data: Dataset,
  ) {}

  reads(): ReadIndex {
    if (this.readIndex?.data !== this.data) this.readIndex = new ReadIndex(this.data);
    return this.readIndex;
  }

  /** The data set changed: the read indexes are built again on the next read. */
  changed(): void {
    this.readIndex = undefined;
  }
}

/** What the API and control routes are given. */
export interface RouteEnv {
  live: LiveData;
  /** Changes one at a time, each answered only once saved (src/sandbox/keeper.ts). */
  keeper: ChangeKeeper;
  tokens: TokenStore;
  faults: FaultQueue;
  edition: Edition;
  now: () => Date;
  /** Largest request body accepted on /api routes, in bytes. */
  maxBody: number;
  /** Whether an add's `metadata` is kept and shown (false: accepted and dropped). */
  keepMetadata: boolean;
}
