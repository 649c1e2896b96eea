import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { z } from 'zod';
import * as api from '../../src/schema/api';
import * as reads from '../../src/schema/reads';
import { fastChecker } from '../../src/schema/fast-check';

// The client checks large answers (1000 changed items, 300,000 users) with a fast
// path that checks the known members in place; zod decides whenever it says no.
// Whatever the fast path accepts, zod must accept too, with an equal result.

const RESPONSES: [string, z.ZodType][] = [
  ['UpdateWorkItemsResponse', api.UpdateWorkItemsResponse],
  ['UserListResponse', api.UserListResponse],
  ['ProcessCategoryListResponse', api.ProcessCategoryListResponse],
  ['TokenResponse', api.TokenResponse],
  ...Object.entries(reads)
    .filter(([k, v]) => /Response$|^CurrentUser$|^Project$/.test(k) && typeof v === 'object' && v !== null && '_zod' in v)
    .map(([k, v]) => [k, v as z.ZodType] as [string, z.ZodType]),
];

const leaf = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constantFrom('User', 'UserGroup', '2026-01-01T00:00:00'),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), tie('v'), { maxKeys: 3 })),
})).v;

/** Objects with the schema's own member names (nested: items, data), values of any type. */
function shaped(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = (schema as unknown as { _zod: { def: { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType } } })._zod.def;
  if (depth > 3) return value;
  if (def.type === 'object' && def.shape) {
    const keys = Object.keys(def.shape);
    return fc.record(Object.fromEntries(keys.map((k) => [k, fc.oneof(shaped(def.shape![k]!, depth + 1), value)])), { requiredKeys: [] });
  }
  if (def.type === 'array' && def.element) return fc.array(shaped(def.element, depth + 1), { maxLength: 3 });
  if (def.innerType) return fc.oneof(shaped(def.innerType, depth + 1), value);
  return value;
}

describe('schema: fast check of responses', () => {
  it('has a fast path for the large answers (updates, user and category lists)', () => {
    for (const s of [api.UpdateWorkItemsResponse, api.UserListResponse, api.ProcessCategoryListResponse]) assert.ok(fastChecker(s));
  });

  for (const [name, schema] of RESPONSES) {
    it(`${name}: what the fast path accepts, zod accepts with an equal result`, () => {
      const fast = fastChecker(schema);
      if (!fast) return; // zod alone: nothing to compare
      let accepted = 0;
      fc.assert(
        fc.property(shaped(schema), (v) => {
          const mine = structuredClone(v);
          const ok = fast(mine);
          const byZod = schema.safeParse(structuredClone(v));
          if (ok) {
            accepted++;
            assert.ok(byZod.success, `zod refuses what the fast path accepted: ${JSON.stringify(v)}`);
            assert.deepEqual(mine, byZod.data);
          }
        }),
        { numRuns: 400, seed: 7 },
      );
      assert.ok(accepted > 0 || name === 'TokenResponse', `${name}: the generator produced accepted values`);
    });
  }

  it('a user list with a wrong known member is left to zod (which names it), unknown members kept, defaults filled', () => {
    const fast = fastChecker(api.UserListResponse)!;
    assert.equal(fast({ totalCount: 1, data: [{ id: 'u1', name: 7 }] }), false);
    const ok = { totalCount: 1, data: [{ id: 'u1', name: 'A', extra: { x: 1 } }], more: true };
    assert.equal(fast(ok), true);
    assert.deepEqual(ok.data[0], { id: 'u1', name: 'A', extra: { x: 1 } });
    const upd: Record<string, unknown> = { items: [{ id: 'W1' }] };
    assert.equal(fastChecker(api.UpdateWorkItemsResponse)!(upd), true);
    assert.deepEqual(upd, { items: [{ id: 'W1' }], affectedItems: [], addedTimeEntryIds: [], addedScheduleDependencyIds: [] });
    // A member named like an Object.prototype property is read as the object's own only.
    assert.equal(fast({ totalCount: 0, data: [{ id: 'u', name: 'n', constructor: 'x' }] }), true);
    assert.equal(fast({ totalCount: 0, data: [{ id: 'u', name: 'n', constructor: {} }] }), true);
  });
});
