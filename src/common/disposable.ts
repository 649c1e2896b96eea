// A base class for what owns disposables (event emitters, listeners, registrations): it
// registers them as it makes them and disposes them all, once, in the order registered.
// Replaces the `disposables` array and its dispose loop written in each class.
// No vscode import (vscode.Disposable fits `DisposableLike`; unit-tested in plain Node).

export interface DisposableLike {
  dispose(): unknown;
}

export abstract class Disposable implements DisposableLike {
  private readonly owned: DisposableLike[] = [];
  private disposedFlag = false;

  /** Whether `dispose` ran. */
  protected get isDisposed(): boolean {
    return this.disposedFlag;
  }

  /** Takes `items` into this object's keeping; returns the first. Registered after dispose: disposed at once. */
  protected register<T extends DisposableLike>(item: T, ...more: DisposableLike[]): T {
    for (const d of [item, ...more]) {
      if (this.disposedFlag) d.dispose();
      else this.owned.push(d);
    }
    return item;
  }

  /** Disposes what was registered, in the order registered (each once; later calls do nothing). Subclasses call `super.dispose()`. */
  dispose(): void {
    this.disposedFlag = true;
    for (const d of this.owned.splice(0)) d.dispose();
  }
}
