import * as assert from 'node:assert/strict';
import { TEST_HOOKS_ENV, testHooksOn } from '../../src/common/model/testHooks';

describe('test hooks: only in development, test mode or with WIS_TEST_HOOKS=1', () => {
  it('are off for an installed extension in normal use', () => {
    assert.equal(testHooksOn(true, {}), false);
    assert.equal(testHooksOn(true, { [TEST_HOOKS_ENV]: '0' }), false);
    assert.equal(testHooksOn(true, { [TEST_HOOKS_ENV]: 'true' }), false, 'only the exact value 1 turns them on');
  });
  it('are on in development or test mode', () => {
    assert.equal(testHooksOn(false, {}), true);
  });
  it('are on for an installed extension when VS Code was started with WIS_TEST_HOOKS=1', () => {
    assert.equal(testHooksOn(true, { [TEST_HOOKS_ENV]: '1' }), true);
  });
});
