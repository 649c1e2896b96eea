import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { planJob, PlanError, requestUrlLength } from '../../src/bulk';
import { validateWorkItemIdForPath } from '../../src/api/paths';
import { validateRequestDocument } from '../../src/schema/document';

const BASE = 'https://pm.example.com/TimeTrackerNX/api';

// IDs the service could plausibly use: digits, ASCII words, long ones, and any
// Unicode (the invalid ones are filtered out: they are tested separately).
const idArb = fc
  .oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 9_999_999 }).map(String) },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 100, maxLength: 200 }) },
  )
  .filter((id) => validateWorkItemIdForPath(id) === undefined);

describe('bulk plan: batching', () => {
  it('covers the deduplicated input exactly, in order, each request within both limits (property)', () => {
    fc.assert(
      fc.property(
        fc.array(idArb, { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 2500, max: 9000 }),
        fc.array(fc.nat(), { maxLength: 50 }),
        (ids, maxIds, maxUrl, dupPicks) => {
          // Sprinkle duplicates of earlier IDs.
          const input = [...ids];
          for (const p of dupPicks) input.splice(p % (input.length + 1), 0, ids[p % ids.length]!);
          const plan = planJob({ workItemIds: input, update: { setCompleted: true }, baseUrl: BASE, maxIdsPerRequest: maxIds, maxUrlLength: maxUrl });
          const expected = [...new Set(input)];
          assert.deepEqual(plan.ids, expected);
          assert.deepEqual(plan.requests.flatMap((r) => r.ids), expected);
          assert.deepEqual(plan.duplicates, [...new Set(input.filter((id, i) => input.indexOf(id) !== i))]);
          plan.requests.forEach((r, i) => {
            assert.equal(r.index, i);
            assert.ok(r.ids.length >= 1 && r.ids.length <= maxIds);
            const url = `${BASE}${r.path}`;
            assert.ok(url.length <= maxUrl, `request ${i} URL has ${url.length} > ${maxUrl}`);
            assert.equal(requestUrlLength(plan, r), url.length);
            // The path decodes back to the IDs (literal comma between encoded IDs).
            const segment = r.path.slice('/workitem/workItems/'.length);
            assert.deepEqual(segment.split(',').map(decodeURIComponent), r.ids);
            // Greedy: the next request's first ID would not have fitted here.
            const next = plan.requests[i + 1];
            if (next) {
              const withNext = url.length + 1 + encodeURIComponent(next.ids[0]!).length;
              assert.ok(r.ids.length === maxIds || withNext > maxUrl, `request ${i} could have taken one more ID`);
            }
          });
          if (plan.duplicates.length > 0) {
            assert.equal(plan.warnings[0]?.code, 'duplicate-ids');
            assert.equal(plan.warnings[0]?.count, input.length - expected.length);
          } else assert.deepEqual(plan.warnings, []);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('splits 2,500 numeric IDs into 1000 + 1000 + 500 by default', () => {
    const ids = Array.from({ length: 2500 }, (_, i) => String(100000 + i));
    const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: BASE });
    assert.deepEqual(plan.requests.map((r) => r.ids.length), [1000, 1000, 500]);
    assert.equal(plan.maxIdsPerRequest, 1000);
    assert.equal(plan.maxUrlLength, 8000);
  });

  it('splits by URL length when 1000 IDs would make the URL too long', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `ITEM-${String(i).padStart(6, '0')}`); // 11 chars + comma
    const plan = planJob({ workItemIds: ids, update: {}, baseUrl: BASE });
    assert.ok(plan.requests.length >= 2);
    for (const r of plan.requests) assert.ok(requestUrlLength(plan, r) <= 8000);
  });

  it('counts percent-encoded length for non-ASCII IDs', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `作業${i}`); // each kanji is 9 encoded characters
    const plan = planJob({ workItemIds: ids, update: {}, baseUrl: BASE, maxUrlLength: 1000 });
    for (const r of plan.requests) assert.ok(requestUrlLength(plan, r) <= 1000);
    assert.deepEqual(plan.requests.flatMap((r) => r.ids), ids);
  });

  it('reports duplicates and keeps first-occurrence order', () => {
    const plan = planJob({ workItemIds: ['3', '1', '3', '2', '1', '3'], update: {}, baseUrl: BASE });
    assert.deepEqual(plan.ids, ['3', '1', '2']);
    assert.deepEqual(plan.duplicates, ['3', '1']);
    assert.equal(plan.warnings.length, 1);
    assert.equal(plan.warnings[0]!.code, 'duplicate-ids');
    assert.equal(plan.warnings[0]!.count, 3);
    assert.match(plan.warnings[0]!.message, /3 duplicate/);
  });

  it('names every invalid ID with its position, and refuses the plan', () => {
    const err = catchPlanError(() => planJob({ workItemIds: ['1', '../x', '', '2', 'a,b'], update: {}, baseUrl: BASE }));
    assert.deepEqual(
      err.problems.map((p) => [p.code, p.position, p.id]),
      [
        ['invalid-id', 1, '../x'],
        ['invalid-id', 2, ''],
        ['invalid-id', 4, 'a,b'],
      ],
    );
    assert.match(err.message, /A work item ID must not be empty/);
  });

  it('words an invalid ID as the editor does on the document entry', () => {
    const ids = ['a,b', 'x y', 'x%41', '..'];
    const err = catchPlanError(() => planJob({ workItemIds: ids, update: {}, baseUrl: BASE }));
    const editor = validateRequestDocument({ workItemIds: ids, update: {} }).issues.filter((i) => i.path[0] === 'workItemIds');
    assert.deepEqual(err.problems.map((p) => p.message), editor.map((i) => i.message));
  });

  it('refuses an ID that does not fit in the URL limit on its own, naming it', () => {
    const long = 'x'.repeat(150);
    const err = catchPlanError(() => planJob({ workItemIds: ['1', long], update: {}, baseUrl: BASE, maxUrlLength: 150 }));
    assert.equal(err.problems[0]!.code, 'id-too-long-for-url');
    assert.equal(err.problems[0]!.id, long);
    assert.equal(err.problems[0]!.position, 1);
  });

  it('refuses no IDs, a bad base URL and bad limits', () => {
    assert.equal(catchPlanError(() => planJob({ workItemIds: [], update: {}, baseUrl: BASE })).problems[0]!.code, 'no-ids');
    assert.equal(catchPlanError(() => planJob({ workItemIds: ['1'], update: {}, baseUrl: 'ftp://x' })).problems[0]!.code, 'invalid-base-url');
    assert.equal(catchPlanError(() => planJob({ workItemIds: ['1'], update: {}, baseUrl: BASE, maxIdsPerRequest: 1001 })).problems[0]!.code, 'invalid-limit');
    assert.equal(catchPlanError(() => planJob({ workItemIds: ['1'], update: {}, baseUrl: BASE, maxUrlLength: 0 })).problems[0]!.code, 'invalid-limit');
  });
});

function catchPlanError(f: () => unknown): PlanError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof PlanError, `expected a PlanError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a PlanError');
}
