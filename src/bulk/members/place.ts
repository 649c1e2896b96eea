// The members that change where an item is and what it is: restore (and where to),
// the move to another parent with its position among the new siblings, and the item
// type. No vscode import, no I/O.
import { ORDER_MEMBERS } from '../../schema/api';
import type { Behaviours } from './entry';
import { setValue } from './predict';

export const PLACE_MEMBERS: Behaviours<
  'restore' | 'restoreToParent' | 'moveParentTo' | 'orderBefore' | 'orderAfter' | 'orderFirst' | 'orderLast' | 'changeItemTypeTo'
> = {
  restore: {
    predict: (st) => setValue(st, 'IsDeleted', false),
    // An update cannot delete an item again.
    inverse: { none: 'restore', wholeItem: true },
  },
  restoreToParent: {
    predict: (st, parent) => setValue(st, 'ParentId', parent),
    inverse: { with: 'restore' },
  },
  moveParentTo: {
    predict: (st, parent) => setValue(st, 'ParentId', parent),
    rollsUp: true,
    // Back under the previous parent, after the previous sibling that did not move (src/bulk/undo.ts restoreMoves).
    inverse: {
      undo(item, target) {
        if (!item.has('ParentId')) return item.lost('moveParentTo', 'not-in-snapshot');
        const parent = item.was('ParentId');
        if (typeof parent !== 'string' || parent === '') return item.lost('moveParentTo', 'parent-unknown');
        // A move within the same parent changes the position only: back to it too.
        if (parent !== target || ORDER_MEMBERS.some((m) => item.inEffect(m))) item.moveBack(parent);
      },
    },
  },
  // The position among the new siblings is the service's (the help shows no order field): nothing to predict.
  orderBefore: { inverse: { with: 'moveParentTo' } },
  orderAfter: { inverse: { with: 'moveParentTo' } },
  orderFirst: { inverse: { with: 'moveParentTo' } },
  orderLast: { inverse: { with: 'moveParentTo' } },
  changeItemTypeTo: {
    predict: (st, type) => setValue(st, 'ItemTypeId', type),
    inverse: {
      undo(item) {
        const was = item.was('ItemTypeId');
        if (!item.has('ItemTypeId') || typeof was !== 'string') item.lost('changeItemTypeTo', 'not-in-snapshot');
        else if (item.changed('ItemTypeId')) item.put('item-type', { changeItemTypeTo: was });
      },
    },
  },
};
