import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { sandboxAnswers } from './sandbox-answers-scenario';

// The sandbox keeps JSON text of list records and writes an update into the stored
// items with an undo snapshot: its answers and its data set must stay byte for byte
// what they were before (fixtures/sandbox-answers.json, recorded with the earlier sandbox).
describe('sandbox answers stay byte for byte the same', () => {
  it('answers a fixed sequence of updates (accepted and rejected), list pages and reads, and holds the same data set after each, as recorded', async function () {
    this.timeout(120_000);
    const expected = JSON.parse(readFileSync(path.join(__dirname, 'fixtures', 'sandbox-answers.json'), 'utf8')) as Record<string, string>;
    const actual = await sandboxAnswers();
    assert.ok(Object.keys(expected).length > 300, 'the recorded sequence is there');
    const differing = Object.keys(expected).filter((k) => actual[k] !== expected[k]);
    assert.deepEqual(differing, [], `answers that differ: ${differing.slice(0, 5).join('; ')}`);
    assert.deepEqual(Object.keys(actual), Object.keys(expected));
  });
});
