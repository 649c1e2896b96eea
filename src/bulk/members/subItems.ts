// The members that reach an item's sub-items too: setCompleted (the children's progress),
// setTimeEntryLocked (the descendants' lock) and propagateToChildren (values copied to the
// lowest-level sub-items). Whether an item has sub-items is what readValues found
// (HAS_SUB_ITEMS); not known counts as "may have". No vscode import, no I/O.
import type { Behaviours } from './entry';
import { HAS_SUB_ITEMS, note } from './predict';

export const SUB_ITEM_MEMBERS: Behaviours<'setCompleted' | 'setTimeEntryLocked' | 'propagateToChildren'> = {
  setCompleted: {
    predict(st, completed) {
      // An item that does not track progress keeps it.
      if (st.current.TracksProgress !== false) st.values.ActualProgress = { kind: 'value', value: completed ? 100 : 0 };
      if (st.current[HAS_SUB_ITEMS] !== false) note(st, 'children-progress');
    },
    rollsUp: true,
    // The item's progress comes back as a field value; its sub-items' progress was not read.
    inverse: {
      undo(item) {
        if (!item.has('ActualProgress')) item.lost('setCompleted', 'not-in-snapshot');
        else if (item.before.TracksProgress !== false) item.putBack('fields', ['ActualProgress'], { member: 'setCompleted' });
        if (item.before[HAS_SUB_ITEMS] !== false) item.lost('setCompleted', 'descendants-not-in-snapshot', true);
      },
    },
  },
  setTimeEntryLocked: {
    predict(st, locked) {
      st.values.IsTimeEntryLocked = { kind: 'value', value: locked };
      if (st.current[HAS_SUB_ITEMS] !== false) note(st, 'descendants-lock');
    },
    // The item's lock comes back; its descendants' locks were not read.
    inverse: {
      undo(item) {
        const was = item.before.IsTimeEntryLocked;
        if (!item.has('IsTimeEntryLocked')) item.lost('setTimeEntryLocked', 'not-in-snapshot');
        else if (item.changed('IsTimeEntryLocked') && typeof was === 'boolean') item.put('lock', { setTimeEntryLocked: was });
        if (item.before[HAS_SUB_ITEMS] !== false) item.lost('setTimeEntryLocked', 'descendants-not-in-snapshot', true);
      },
    },
  },
  propagateToChildren: {
    predict: (st) => note(st, 'propagated-to-children'),
    // The lowest-level sub-items' values before were not read.
    inverse: { none: 'descendants-not-in-snapshot' },
  },
};
