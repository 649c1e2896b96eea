// The shared sign-in attempt (src/common/sharedAttempt.ts) in plain Node: concurrent
// callers share one prompt, an explicit sign-in replaces it and its outcome reaches
// every waiter, a waiter's abort releases only that waiter, and nobody waits forever.
// Also: a credential read that started before a sign-in stored one never hides it.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { SharedAttempt, releasable } from '../../src/common/sharedAttempt';
import { CredentialStore, credentialKey, type SecretStorageLike } from '../../src/common/secrets';

/** A prompt the test answers by hand. */
interface Gate<T> {
  promise: Promise<T>;
  answer(value: T): void;
  fail(error: unknown): void;
}

function gate<T>(): Gate<T> {
  let answer!: (v: T) => void;
  let fail!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    answer = res;
    fail = rej;
  });
  return { promise, answer, fail };
}

/** A `start` function that records each prompt it opens. */
function prompts<T>(): { start: () => Promise<T>; opened: Gate<T>[] } {
  const opened: Gate<T>[] = [];
  return {
    opened,
    start: () => {
      const g = gate<T>();
      opened.push(g);
      return g.promise;
    },
  };
}

/** 'pending' when `p` has not settled once queued callbacks ran. */
async function state<T>(p: Promise<T>): Promise<{ value: T } | { error: unknown } | 'pending'> {
  const marker = Symbol('pending');
  const r = await Promise.race([p.then((value) => ({ value }), (error: unknown) => ({ error })), new Promise((res) => setImmediate(() => res(marker)))]);
  return r === marker ? 'pending' : (r as { value: T } | { error: unknown });
}

const isAbort = (e: unknown) => e instanceof Error && e.name === 'AbortError';

describe('connection: one shared sign-in prompt', () => {
  it('concurrent callers share one prompt and all get its answer', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    const waiters = [1, 2, 3].map(() => shared.join('https://a.example', p.start));
    assert.equal(p.opened.length, 1, 'one prompt');
    assert.equal(shared.isPending('https://a.example'), true);
    p.opened[0]!.answer(true);
    assert.deepEqual(await Promise.all(waiters), [true, true, true]);
    assert.equal(shared.isPending('https://a.example'), false);
  });

  it('a dismissal reaches every waiter; the next caller opens a new prompt', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    const waiters = [shared.join('k', p.start), shared.join('k', p.start)];
    p.opened[0]!.answer(false);
    assert.deepEqual(await Promise.all(waiters), [false, false]);
    const later = shared.join('k', p.start);
    assert.equal(p.opened.length, 2);
    p.opened[1]!.answer(true);
    assert.equal(await later, true);
  });

  it('a failing prompt rejects every waiter with its error', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    const waiters = [shared.join('k', p.start), shared.join('k', p.start)];
    const error = new Error('401 wrong password');
    p.opened[0]!.fail(error);
    for (const w of waiters) await assert.rejects(w, (e) => e === error);
    assert.equal(shared.isPending('k'), false);
  });

  it('a start that throws at once rejects its callers and leaves nothing pending', async () => {
    const shared = new SharedAttempt<boolean>();
    await assert.rejects(
      shared.join('k', () => {
        throw new Error('no connection');
      }),
      /no connection/,
    );
    assert.equal(shared.isPending('k'), false);
  });

  it('an explicit sign-in replaces the prompt in flight: the old prompt closing does not fail the waiters', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    const load1 = shared.join('k', p.start);
    const load2 = shared.join('k', p.start);
    const command = shared.replace('k', p.start);
    assert.equal(p.opened.length, 2);
    // VS Code closes the first quick pick when the second opens: the first prompt answers "dismissed".
    p.opened[0]!.answer(false);
    assert.equal(await state(load1), 'pending', 'the waiters follow the newer prompt');
    p.opened[1]!.answer(true);
    assert.deepEqual(await Promise.all([load1, load2, command]), [true, true, true]);
  });

  it('a load joining after the replacement waits for the newer prompt', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    void shared.join('k', p.start);
    void shared.replace('k', p.start);
    const late = shared.join('k', p.start);
    assert.equal(p.opened.length, 2, 'joining opens nothing');
    p.opened[1]!.answer(true);
    p.opened[0]!.answer(false);
    assert.equal(await late, true);
  });

  it('an aborted waiter is released at once; the prompt stays and the others get its answer', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    const controller = new AbortController();
    const refreshed = shared.join('k', p.start, controller.signal);
    const other = shared.join('k', p.start);
    controller.abort();
    await assert.rejects(refreshed, isAbort);
    assert.equal(shared.isPending('k'), true);
    p.opened[0]!.answer(true);
    assert.equal(await other, true);
  });

  it('an already aborted caller opens no prompt', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    await assert.rejects(shared.join('k', p.start, AbortSignal.abort()), isAbort);
    await assert.rejects(shared.replace('k', p.start, AbortSignal.abort()), isAbort);
    assert.equal(p.opened.length, 0);
  });

  it('prompts for different services are separate', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    const a = shared.join('https://a.example', p.start);
    const b = shared.join('https://b.example', p.start);
    assert.equal(p.opened.length, 2);
    p.opened[1]!.answer(false);
    p.opened[0]!.answer(true);
    assert.deepEqual(await Promise.all([a, b]), [true, false]);
  });

  it('cancelAll settles every waiter; the running prompt\'s late answer is ignored', async () => {
    const shared = new SharedAttempt<boolean>();
    const p = prompts<boolean>();
    const w = shared.join('k', p.start);
    const cancelled = new Error('disposed');
    shared.cancelAll(cancelled);
    await assert.rejects(w, (e) => e === cancelled);
    p.opened[0]!.answer(true);
    const next = shared.join('k', p.start);
    assert.equal(p.opened.length, 2, 'a new caller opens a new prompt');
    p.opened[1]!.answer(false);
    assert.equal(await next, false);
  });

  it('releasable passes the value through and removes its abort listener', async () => {
    const controller = new AbortController();
    assert.equal(await releasable(Promise.resolve(7), controller.signal), 7);
    controller.abort(); // after settling: no effect, no unhandled rejection
    assert.equal(await releasable(Promise.resolve(8)), 8);
  });

  it('whatever the order of replacements, aborts and answers, every waiter settles with the newest prompt\'s answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ replace: fc.boolean(), abort: fc.boolean() }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        async (callers, answers) => {
          const shared = new SharedAttempt<boolean>();
          const p = prompts<boolean>();
          const waits = callers.map((c) => {
            const controller = new AbortController();
            const promise = c.replace ? shared.replace('k', p.start, controller.signal) : shared.join('k', p.start, controller.signal);
            return { ...c, controller, promise };
          });
          for (const w of waits) if (w.abort) w.controller.abort();
          // The prompts answer in reverse order (older ones closing last).
          for (let i = p.opened.length - 1; i >= 0; i--) p.opened[i]!.answer(answers[i]!);
          const newest = answers[p.opened.length - 1]!;
          assert.equal(p.opened.length, 1 + callers.slice(1).filter((c) => c.replace).length);
          for (const w of waits) {
            const s = await state(w.promise);
            assert.notEqual(s, 'pending', 'no waiter is left waiting');
            if (w.abort) assert.ok('error' in (s as object) && isAbort((s as { error: unknown }).error));
            else assert.deepEqual(s, { value: newest });
          }
          assert.equal(shared.isPending('k'), false);
        },
      ),
    );
  });
});

describe('connection: credential reads racing a sign-in', () => {
  it('a read that started before the credential was stored does not hide it afterwards', async () => {
    const data = new Map<string, string>();
    const slowReads: Gate<void>[] = [];
    const secrets: SecretStorageLike = {
      get: async (k) => {
        const before = data.get(k);
        const g = gate<void>();
        slowReads.push(g);
        await g.promise;
        return before;
      },
      store: async (k, v) => void data.set(k, v),
      delete: async (k) => void data.delete(k),
    };
    const store = new CredentialStore(secrets);
    const origin = 'https://pm.example.com';
    const early = store.get(origin); // reads "nothing stored" ...
    await store.set(origin, { kind: 'bearer', token: 't', loginName: 'admin' }); // ... while sign-in stores
    slowReads[0]!.answer(); // ... and only then answers
    // The stale read retries (it reads again rather than cache "nothing").
    await new Promise((r) => setImmediate(r));
    slowReads[1]?.answer();
    assert.deepEqual(await early, { kind: 'bearer', token: 't', loginName: 'admin' });
    assert.deepEqual(await store.get(origin), { kind: 'bearer', token: 't', loginName: 'admin' }, 'the cache holds the new credential');
    assert.ok(data.has(credentialKey(origin)));
  });
});
