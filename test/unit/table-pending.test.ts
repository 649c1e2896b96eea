import * as assert from 'node:assert/strict';
import { KeptStore, TableEdits, keptKey, mergeKept, readEntry, reconcile, sentItems, serviceOf, type KeptEdit, type KeptState } from '../../src/table/model';

/** A Memento as VS Code's: a value is there once update is called; `writes` counts the calls. */
class FakeMemento implements KeptState {
  readonly values = new Map<string, unknown>();
  writes = 0;
  fail = false;
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Thenable<void> {
    this.writes++;
    if (this.fail) return Promise.reject(new Error('disk full'));
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const edit = (id: string, field: string, value: unknown, before: unknown): KeptEdit => ({ id, field, value, before });

describe('table: unsent edits kept per project and service', () => {
  describe('keys', () => {
    it('differ by project, by service URL and by login, and are the same for the same project and service', () => {
      const k = (baseUrl: string, login: string | undefined, projectId: string | undefined) => keptKey({ baseUrl, login, projectId });
      assert.equal(k('https://wbs.example.com/api/', 'suzuki', '3001'), k('https://WBS.example.com/api', 'suzuki', '3001'), 'host case and trailing slash do not matter');
      assert.notEqual(k('https://wbs.example.com/api', 'suzuki', '3001'), k('https://wbs.example.com/api', 'suzuki', '3002'));
      assert.notEqual(k('https://wbs.example.com/api', 'suzuki', '3001'), k('https://other.example.com/api', 'suzuki', '3001'));
      assert.notEqual(k('https://wbs.example.com/api', 'suzuki', '3001'), k('https://wbs.example.com/api', 'tanaka', '3001'));
      assert.notEqual(k('https://wbs.example.com/api', 'suzuki', '3001'), k('https://wbs.example.com/api', 'suzuki', undefined));
    });

    it('never hold a password, token or query given in the service URL', () => {
      const key = keptKey({ baseUrl: 'https://suzuki:s3cret@wbs.example.com/api/?token=abc#frag', login: 'suzuki', projectId: '1' });
      assert.doesNotMatch(key, /s3cret|token|abc|frag/);
      assert.equal(serviceOf('https://suzuki:s3cret@wbs.example.com/api/', 'suzuki'), 'https://wbs.example.com/api|suzuki');
      assert.equal(serviceOf('not a url/?token=abc', undefined), 'not a url|');
    });
  });

  describe('the store', () => {
    it('survives a restart: a new store over the same memento reads what the old one wrote', async () => {
      const memento = new FakeMemento();
      const key = keptKey({ baseUrl: 'http://127.0.0.1:1/', login: 'a', projectId: '1' });
      await new KeptStore(() => memento).write(key, [edit('10', 'Name', 'New', 'Old'), edit('11', 'PlannedTime', 435, null)]);
      const again = new KeptStore(() => memento).read(key);
      assert.deepEqual(again.edits, [edit('10', 'Name', 'New', 'Old'), edit('11', 'PlannedTime', 435, null)]);
      assert.equal(again.dropped, 0);
      assert.match(again.savedAt ?? '', /^\d{4}-\d{2}-\d{2}T/);
    });

    it('writes a changing table once, after the delay, with its latest edits; reads see them before the write', async () => {
      const memento = new FakeMemento();
      const store = new KeptStore(() => memento, { delayMs: 30 });
      let edits = [edit('1', 'Name', 'a', 'x')];
      for (let i = 0; i < 5; i++) store.schedule('k', () => edits);
      edits = [edit('1', 'Name', 'b', 'x')];
      assert.deepEqual(store.read('k').edits, edits, 'a read before the write sees the scheduled edits');
      assert.equal(memento.writes, 0);
      await sleep(80);
      assert.equal(memento.writes, 1, 'debounced: one write');
      assert.deepEqual(readEntry(memento.get('k')).edits, edits);
    });

    it('flush gives the memento every scheduled key at once (a window closing right after keeps them)', () => {
      const memento = new FakeMemento();
      const store = new KeptStore(() => memento, { delayMs: 60_000 });
      store.schedule('a', () => [edit('1', 'Name', 'a', 'x')]);
      store.schedule('b', () => [edit('2', 'Code', 'B', null)]);
      void store.flush();
      assert.deepEqual([...memento.values.keys()].sort(), ['a', 'b'], 'in the memento before the promise settles');
    });

    it('removes an entry left with no edits (sent or discarded) instead of keeping it empty', async () => {
      const memento = new FakeMemento();
      const store = new KeptStore(() => memento);
      await store.write('k', [edit('1', 'Name', 'a', 'x')]);
      await store.write('k', []);
      assert.equal(memento.values.has('k'), false);
    });

    it('says when a write fails and keeps what was there', async () => {
      const memento = new FakeMemento();
      const errors: string[] = [];
      const store = new KeptStore(() => memento, { onError: (key, e) => errors.push(`${key}: ${(e as Error).message}`) });
      await store.write('k', [edit('1', 'Name', 'a', 'x')]);
      memento.fail = true;
      await store.write('k', []);
      assert.deepEqual(errors, ['k: disk full']);
      assert.equal(readEntry(memento.get('k')).edits.length, 1);
    });

    it('reads a damaged entry as its well-formed edits and counts the rest', () => {
      assert.deepEqual(readEntry(undefined), { edits: [], dropped: 0 });
      assert.deepEqual(readEntry('garbage'), { edits: [], dropped: 1 });
      assert.deepEqual(readEntry({ v: 2, edits: [] }), { edits: [], dropped: 1 }, 'an unknown version is not guessed at');
      const r = readEntry({ v: 1, edits: [edit('1', 'Name', 'a', 'x'), { id: '', field: 'Name', value: 1 }, { id: '2', field: 'Code' }, null, edit('3', 'Code', null, undefined)] });
      assert.deepEqual(r.edits, [edit('1', 'Name', 'a', 'x'), edit('3', 'Code', null, null)]);
      assert.equal(r.dropped, 3);
    });
  });

  describe('bringing kept edits back', () => {
    const rows = new Map([
      ['1', { fields: { Name: 'Old', PlannedFinishDate: '2026-05-01T00:00:00' } }],
      ['2', { fields: { Name: 'Changed elsewhere' } }],
      ['3', { fields: { Name: 'Sent already' } }],
    ]);
    const kept = [
      edit('1', 'Name', 'New', 'Old'),
      edit('1', 'PlannedFinishDate', '2026-06-01', '2026-05-01'),
      edit('2', 'Name', 'Mine', 'Before'),
      edit('3', 'Name', 'Sent already', 'Before'),
      edit('9', 'Name', 'Gone?', 'x'),
    ];

    it('applies the edits whose value read is still the one they were made on (a date with a time part is the same day)', () => {
      const r = reconcile(kept, rows, { wholeProject: false });
      assert.deepEqual(r.apply, [
        { id: '1', field: 'Name', value: 'New' },
        { id: '1', field: 'PlannedFinishDate', value: '2026-06-01' },
      ]);
    });

    it('holds an edit whose value changed on the service since it was made, with the value now', () => {
      const r = reconcile(kept, rows, { wholeProject: false });
      assert.deepEqual(r.held, [{ ...edit('2', 'Name', 'Mine', 'Before'), reason: 'changed', now: 'Changed elsewhere' }]);
      assert.deepEqual(r.done, [edit('3', 'Name', 'Sent already', 'Before')], 'the service already holds it: nothing to apply or hold');
    });

    it('holds the edit of an item that is gone when the table shows the whole project or the service says it is missing; else it belongs to another table', () => {
      assert.deepEqual(reconcile(kept, rows, { wholeProject: false }).elsewhere, [edit('9', 'Name', 'Gone?', 'x')]);
      assert.deepEqual(reconcile(kept, rows, { wholeProject: true }).held.filter((h) => h.reason === 'gone').map((h) => h.id), ['9']);
      assert.deepEqual(reconcile(kept, rows, { wholeProject: false, missing: new Set(['9']) }).held.filter((h) => h.reason === 'gone').map((h) => h.id), ['9']);
    });
  });

  describe('what a table writes', () => {
    it("keeps the edits of items the table does not show (another table of the project) and replaces its own with its pending and held edits", () => {
      const stored = [edit('1', 'Name', 'old pending', 'x'), edit('5', 'Code', 'other table', null), edit('2', 'Name', 'held', 'b')];
      const pending = [{ id: '1', field: 'Code', value: 'C', before: null }];
      const held = [edit('2', 'Name', 'held', 'b')];
      assert.deepEqual(mergeKept(stored, new Set(['1', '2', '3']), pending, held), [edit('5', 'Code', 'other table', null), edit('1', 'Code', 'C', null), edit('2', 'Name', 'held', 'b')]);
    });

    it('Discard: a table with no pending and no held edits leaves only the other tables\' edits', () => {
      const stored = [edit('1', 'Name', 'a', 'x'), edit('5', 'Code', 'other table', null)];
      assert.deepEqual(mergeKept(stored, new Set(['1']), [], []), [edit('5', 'Code', 'other table', null)]);
    });

    it('a send clears: once the re-read holds the values sent, nothing of the table is kept, and the sent rows are named', async () => {
      const memento = new FakeMemento();
      const store = new KeptStore(() => memento);
      const edits = new TableEdits([
        { id: '1', fields: { Name: 'Old', Code: 'A' } },
        { id: '2', fields: { Name: 'Two', Code: 'B' } },
      ]);
      edits.apply([{ id: '1', field: 'Name', value: 'New' }, { id: '2', field: 'Code', value: 'B2' }]);
      await store.write('k', mergeKept([], new Set(['1', '2']), edits.all(), []));
      assert.equal(readEntry(memento.get('k')).edits.length, 2);
      const before = edits.all();
      const reread = [{ id: '1', fields: { Name: 'New', Code: 'A' } }];
      edits.setRows(reread);
      assert.deepEqual(sentItems(before, edits.all(), reread), ['1']);
      await store.write('k', mergeKept(store.read('k').edits, new Set(['1', '2']), edits.all(), []));
      assert.deepEqual(readEntry(memento.get('k')).edits, [edit('2', 'Code', 'B2', 'B')], 'only the edit not sent is kept');
    });
  });
});
