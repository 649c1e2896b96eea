// abortOn (a cancellation token as an AbortSignal, its listener removed on dispose) and the
// Disposable base (what a class registers is disposed once, in order).
import * as assert from 'node:assert/strict';
import { abortOn, type CancellationTokenLike } from '../../src/common/abortOn';
import { Disposable } from '../../src/common/disposable';

/** A token like VS Code's: listeners kept until disposed, fired on cancel. */
class FakeToken implements CancellationTokenLike {
  isCancellationRequested = false;
  readonly listeners = new Set<() => unknown>();
  onCancellationRequested(listener: () => unknown): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  cancel(): void {
    this.isCancellationRequested = true;
    for (const l of [...this.listeners]) l();
  }
}

describe('abortOn', () => {
  it('aborts its signal when the token is cancelled', () => {
    const token = new FakeToken();
    const abort = abortOn(token);
    assert.equal(abort.signal.aborted, false);
    token.cancel();
    assert.equal(abort.signal.aborted, true);
    abort.dispose();
  });

  it('removes its listener from the token on dispose (a later cancel leaves the signal alone)', () => {
    const token = new FakeToken();
    const abort = abortOn(token);
    assert.equal(token.listeners.size, 1);
    abort.dispose();
    abort.dispose();
    assert.equal(token.listeners.size, 0);
    token.cancel();
    assert.equal(abort.signal.aborted, false);
  });

  it('is aborted at once for a token already cancelled, and listens to nothing', () => {
    const token = new FakeToken();
    token.cancel();
    const abort = abortOn(token);
    assert.equal(abort.signal.aborted, true);
    assert.equal(token.listeners.size, 0);
  });

  it('without a token: a plain controller that aborts by hand', () => {
    const abort = abortOn(undefined);
    assert.equal(abort.signal.aborted, false);
    abort.controller.abort();
    assert.equal(abort.signal.aborted, true);
    abort.dispose();
  });
});

describe('Disposable base', () => {
  class Owner extends Disposable {
    constructor(log: string[]) {
      super();
      this.register({ dispose: () => log.push('a') }, { dispose: () => log.push('b') });
      this.register({ dispose: () => log.push('c') });
    }
    add(log: string[], name: string): void {
      this.register({ dispose: () => log.push(name) });
    }
    get disposed(): boolean {
      return this.isDisposed;
    }
  }

  it('disposes what it registered once, in the order registered', () => {
    const log: string[] = [];
    const o = new Owner(log);
    assert.equal(o.disposed, false);
    o.dispose();
    o.dispose();
    assert.deepEqual(log, ['a', 'b', 'c']);
    assert.equal(o.disposed, true);
  });

  it('disposes at once what is registered after dispose', () => {
    const log: string[] = [];
    const o = new Owner(log);
    o.dispose();
    o.add(log, 'late');
    assert.deepEqual(log, ['a', 'b', 'c', 'late']);
  });
});
