import * as assert from 'node:assert/strict';
import { resultViewColumn } from '../../src/changes/results/column';

describe('result views: where a new one opens', () => {
  it('beside the active editor when no result view is open', () => {
    assert.equal(resultViewColumn([], 1), 'beside');
    assert.equal(resultViewColumn([undefined], 1), 'beside');
  });

  it('in the group that already shows result views, so groups do not pile up', () => {
    assert.equal(resultViewColumn([2], 1), 2);
    assert.equal(resultViewColumn([3, 2, 3], 1), 3, 'the group with the most result views');
    assert.equal(resultViewColumn([3, 2], 1), 2, 'a tie goes to the leftmost group');
  });

  it('never over the editor the user works in', () => {
    assert.equal(resultViewColumn([2], 2), 'beside');
    assert.equal(resultViewColumn([2, 2, 3], 2), 3);
  });
});
