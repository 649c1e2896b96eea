// The base of the extension's own dispatchers (the proxy router of ./dispatcher, the fetch
// dispatcher of ./hostFetchDispatcher): undici's close and destroy, with or without a
// callback, over one promise-returning method each. No vscode import.
import { Dispatcher } from 'undici';

export abstract class PromiseDispatcher extends Dispatcher {
  /** Stops taking requests and resolves when those under way have ended. */
  protected abstract closeAll(): Promise<void>;
  /** Ends every request under way with `err` (a default one when null). */
  protected abstract destroyAll(err: Error | null): Promise<void>;

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const p = this.closeAll();
    if (callback) void p.then(callback, callback);
    else return p;
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    const p = this.destroyAll(err);
    if (callback) void p.then(callback, callback);
    else return p;
  }
}
