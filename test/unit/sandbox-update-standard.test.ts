// The sandbox's update operation in the Standard edition, over real HTTP: what that edition
// refuses beside the Professional one (calculation types, items with children, item types
// and restores of Professional-only types), and the same requests accepted by a
// Professional sandbox.
import * as assert from 'node:assert/strict';
import { Harness } from './sandbox-update-harness';

describe('sandbox update in the Standard edition', function () {
  const h = new Harness('standard');
  before(() => h.start());
  after(() => h.stop());
  beforeEach(() => h.reset());

  it('standard edition: fieldCalcTypes may name ActualProgress only', async () => {
    await h.rejects('T1', { fieldCalcTypes: { PlannedTime: 'Manual' } }, 400, { code: 'STANDARD_EDITION_CALC_TYPE', itemId: 'T1', field: 'PlannedTime' });
    await h.accepts('T1', { fieldCalcTypes: { ActualProgress: 'ActualTime' } });
    assert.deepEqual((await h.item('T1')).fieldCalcTypes, { ActualProgress: 'ActualTime' });
  });

  it('standard edition: an item that has children accepts changes to name, code and description only', async () => {
    await h.accepts('F1a', { fields: { Name: 'Phase', Code: 'P', Description: 'd' } });
    assert.equal((await h.item('F1a')).name, 'Phase');
    await h.rejects('F1a', { fields: { Name: 'x', PlannedTime: 10 } }, 400, { code: 'STANDARD_EDITION_PARENT_ITEM', itemId: 'F1a', field: 'PlannedTime' });
    await h.rejects('T4', { moveScheduleDays: 1 }, 400, { code: 'STANDARD_EDITION_PARENT_ITEM', itemId: 'T4', field: 'moveScheduleDays' });
    await h.rejects('T4', { assignmentChange: { removes: 'u-alice' } }, 400, { code: 'STANDARD_EDITION_PARENT_ITEM', field: 'assignmentChange' });
    // An item without children accepts every field.
    await h.accepts('T1', { fields: { PlannedTime: 10 } });
    // The state transitions still apply to items with children.
    await h.accepts('F1a', { setCompleted: true });
    assert.equal((await h.item('T2')).actualProgress, 100);
  });

  it('standard edition: item types created in the Professional edition cannot be used', async () => {
    await h.rejects('T3', { changeItemTypeTo: 'pro-task' }, 400, { code: 'STANDARD_EDITION_ITEM_TYPE', itemId: 'T3' });
    await h.accepts('T3', { changeItemTypeTo: 'milestone' });
  });

  it('standard edition: restoring items of Professional-only types works only in the Professional edition', async () => {
    await h.rejects('DP', { restore: true }, 400, { code: 'STANDARD_EDITION_RESTORE', rule: 28, itemId: 'DP' });
  });

  it('professional edition: the same Professional-only restore and type change succeed', async () => {
    const pro = new Harness('professional');
    await pro.start();
    try {
      await pro.accepts('DP', { restore: true });
      assert.equal((await pro.item('DP')).isDeleted, false);
      await pro.accepts('T3', { changeItemTypeTo: 'pro-task', fieldCalcTypes: { PlannedTime: 'Manual' } });
      assert.equal((await pro.item('T3')).itemTypeId, 'pro-task');
    } finally {
      await pro.stop();
    }
  });
});

