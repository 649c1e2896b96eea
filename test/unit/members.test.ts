// One test per member of the update body, from the member table (src/schema/members.ts,
// src/bulk/members/): what its entry says (the fields it touches, its reads, its
// irreversible changes, its inverse) is checked against what the sandbox does with it.
// Each body is applied over real HTTP as a Send applies it (values read with the table's
// fields= list and extra reads), then its undo documents; every field of the items is
// read before, after and after the undo.
import * as assert from 'node:assert/strict';
import { fieldsToRead, HAS_SUB_ITEMS, itemEffect, sameFieldValue, touchedFields } from '../../src/bulk/effects';
import { MEMBERS, memberEntry } from '../../src/bulk/members';
import type { NonInvertibleReason, UndoKind } from '../../src/bulk/undo';
import type { UpdateWorkItemsBody } from '../../src/schema/api';
import { extraReadsOf, irreversibleChanges, MEMBER_ORDER, type ExtraRead, type IrreversibleChange, type MemberName } from '../../src/schema/members';
import { childrenOf, MemberSandbox, type Run } from './members-harness';

interface Case {
  /** The test's title after "<member>: ". */
  title: string;
  body: UpdateWorkItemsBody;
  ids: string[];
  /** touchedFields(body). */
  touches: string[];
  /** fieldsToRead(body) after Id, Name and the touched fields (each once). */
  reads: string[];
  extraReads?: ExtraRead[];
  irreversible?: IrreversibleChange[];
  /** The kinds of the undo documents, in the order they are sent ([]: none). */
  undo: UndoKind[];
  /** What the undo reports it cannot put back, per item: [member, reason, partly]. */
  lost?: Record<string, [string, NonInvertibleReason, boolean?][]>;
  /** The touched fields stay as the update left them after the undo (the member has no inverse). */
  staysChanged?: true;
  /** Values to plan the undo from, for items a read cannot see (a deleted item). */
  snapshot?: Parameters<MemberSandbox['run']>[2];
  /** What the sandbox shows besides the checks every member gets. */
  check?(r: Run): void;
}

const DATES = ['PlannedStartDate', 'PlannedFinishDate'];
/** Fields that follow another one (the parent's name, the folder). */
const FOLLOWS: Record<string, string> = { ParentName: 'ParentId', FolderId: 'ParentId', FolderName: 'ParentId' };
/** Fields every update changes (who and when). */
const STAMPS = new Set(['UpdatedAt', 'UpdatedBy', 'UserUpdatedAt', 'UserUpdatedBy']);

const deleted = (id: string) => (dump: Run['dump']['before']) => {
  const w = dump.workItems.find((x) => x.id === id)!;
  return new Map([[id, { Id: id, IsDeleted: true, ParentId: w.parentId }]]);
};
const value = (r: Run, when: 'before' | 'after' | 'back', id: string, field: string): unknown => r.all[when].get(id)?.[field];

/** A case for every member: the types require one for a member the body gains. */
const CASES: { readonly [K in MemberName]-?: Case } = {
  restore: {
    title: 'touches IsDeleted, predicts the item not deleted, has no inverse (an update cannot delete it again)',
    body: { restore: true },
    ids: ['D1'],
    touches: ['IsDeleted'],
    reads: [],
    undo: [],
    lost: { D1: [['restore', 'restore']] },
    staysChanged: true,
    snapshot: deleted('D1'),
    check(r) {
      assert.deepEqual(r.before.missing, ['D1'], 'a deleted item is not read');
      assert.equal(value(r, 'after', 'D1', 'IsDeleted'), false);
      assert.deepEqual([r.undo.items, r.undo.unchanged], [0, []], 'neither put back nor unchanged');
    },
  },
  restoreToParent: {
    title: 'only with restore, touches ParentId, predicts the folder restored into, put back with restore (not at all)',
    body: { restore: true, restoreToParent: 'F2' },
    ids: ['D1'],
    touches: ['IsDeleted', 'ParentId'],
    reads: [],
    undo: [],
    lost: { D1: [['restore', 'restore']] },
    staysChanged: true,
    snapshot: deleted('D1'),
    check(r) {
      assert.equal(value(r, 'after', 'D1', 'ParentId'), 'F2');
      assert.deepEqual(touchedFields({ restoreToParent: 'F2' }), [], 'without restore it does nothing');
    },
  },
  moveParentTo: {
    title: 'touches ParentId, reads ProjectId and the old siblings, predicts the new parent, inverts by a move back after the previous sibling',
    body: { moveParentTo: 'F2' },
    ids: ['T4'],
    touches: ['ParentId'],
    reads: ['ProjectId'],
    extraReads: ['siblings'],
    undo: ['parent'],
    check(r) {
      assert.equal(value(r, 'after', 'T4', 'ParentId'), 'F2');
      assert.deepEqual(r.undo.documents[0]!.update, { moveParentTo: 'F1', orderAfter: 'T1' });
    },
  },
  orderBefore: {
    title: 'touches no field (the position is the service’s), places the item before the sibling named, put back with moveParentTo',
    body: { moveParentTo: 'F2', orderBefore: 'T5' },
    ids: ['T1'],
    touches: ['ParentId'],
    reads: ['ProjectId'],
    extraReads: ['siblings'],
    undo: ['parent'],
    check: (r) => assert.deepEqual(childrenOf(r.dump.after, 'F2'), ['T2', 'T1', 'T5', 'T8']),
  },
  orderAfter: {
    title: 'touches no field, places the item after the sibling named, put back with moveParentTo',
    body: { moveParentTo: 'F2', orderAfter: 'T5' },
    ids: ['T1'],
    touches: ['ParentId'],
    reads: ['ProjectId'],
    extraReads: ['siblings'],
    undo: ['parent'],
    check: (r) => assert.deepEqual(childrenOf(r.dump.after, 'F2'), ['T2', 'T5', 'T1', 'T8']),
  },
  orderFirst: {
    title: 'touches no field, moves the item first (here within its own parent), put back with moveParentTo to its old place',
    body: { moveParentTo: 'F1', orderFirst: true },
    ids: ['T7'],
    touches: ['ParentId'],
    reads: ['ProjectId'],
    extraReads: ['siblings'],
    undo: ['parent'],
    check(r) {
      assert.deepEqual(childrenOf(r.dump.after, 'F1'), ['T7', 'T1', 'T4']);
      assert.deepEqual(r.undo.documents[0]!.update, { moveParentTo: 'F1', orderAfter: 'T4' }, 'the parent did not change: the position alone goes back');
    },
  },
  orderLast: {
    title: 'touches no field, moves the item last, put back with moveParentTo',
    body: { moveParentTo: 'F2', orderLast: true },
    ids: ['T1'],
    touches: ['ParentId'],
    reads: ['ProjectId'],
    extraReads: ['siblings'],
    undo: ['parent'],
    check: (r) => assert.deepEqual(childrenOf(r.dump.after, 'F2'), ['T2', 'T5', 'T8', 'T1']),
  },
  changeItemTypeTo: {
    title: 'touches ItemTypeId, predicts the new type, inverts by a change back to the type before',
    body: { changeItemTypeTo: 'milestone' },
    ids: ['T2', 'T5'],
    touches: ['ItemTypeId'],
    reads: [],
    undo: ['item-type'],
    check: (r) => assert.deepEqual(r.undo.documents[0]!.update, { changeItemTypeTo: 'task' }),
  },
  clearSchedule: {
    title: 'touches the planned dates, predicts both emptied, is irreversible: the dates come back, the deleted links do not',
    body: { clearSchedule: true },
    ids: ['T1'],
    touches: DATES,
    reads: [],
    irreversible: ['links-deleted'],
    undo: ['schedule'],
    lost: { T1: [['clearSchedule', 'links-deleted']] },
    check(r) {
      assert.equal(value(r, 'after', 'T1', 'PlannedStartDate'), null);
      assert.deepEqual(
        r.dump.before.scheduleLinks.map((l) => l.id),
        ['L1'],
      );
      assert.deepEqual(r.dump.after.scheduleLinks, [], 'the link is deleted');
      assert.deepEqual(r.dump.back.scheduleLinks, [], 'and no undo document brings it back');
    },
  },
  fields: {
    title:
      'touches each field named (the dates together, Assignments with ManagedPlannedTime), reads TracksProgress and FieldCalcTypes, predicts each value, inverts by the values before',
    body: {
      fields: {
        Name: 'Renamed',
        StatusTypeId: '53',
        ActualProgress: 70,
        PlannedTime: 300,
        PlannedStartDate: '2026-06-01',
        PlannedFinishDate: '2026-06-10',
        Assignments: [{ partyId: 'u-bob', plannedTime: 30 }],
      },
    },
    ids: ['T2', 'T6'],
    touches: ['Name', 'StatusTypeId', 'ActualProgress', 'PlannedTime', ...DATES, 'Assignments', 'ManagedPlannedTime'],
    reads: ['TracksProgress', 'FieldCalcTypes'],
    undo: ['assignments', 'schedule', 'fields'],
    check: (r) => assert.equal(value(r, 'after', 'T2', 'Name'), 'Renamed'),
  },
  moveScheduleDays: {
    title: 'touches the planned dates, reads ProjectId, predicts both dates shifted, inverts by the opposite shift',
    body: { moveScheduleDays: 5 },
    ids: ['T1', 'T2'],
    touches: DATES,
    reads: ['ProjectId'],
    undo: ['schedule'],
    check(r) {
      assert.equal(String(value(r, 'after', 'T1', 'PlannedStartDate')).slice(0, 10), '2026-01-06');
      assert.deepEqual(r.undo.documents[0]!.update, { moveScheduleDays: -5 });
      assert.deepEqual(r.undo.documents[0]!.workItemIds, ['T1', 'T2']);
    },
  },
  copyAssignmentsFrom: {
    title: 'touches Assignments and ManagedPlannedTime, predicts nothing (the service copies them), inverts by the changes back to the assignments before',
    body: { copyAssignmentsFrom: 'T4' },
    ids: ['T2'],
    touches: ['Assignments', 'ManagedPlannedTime'],
    reads: [],
    undo: ['assignments'],
    check(r) {
      assert.deepEqual(
        itemEffect('T2', r.body, r.before.items.get('T2')).fields.map((f) => f.expected),
        [
          { kind: 'computed', reason: 'copied-assignments' },
          { kind: 'computed', reason: 'copied-assignments' },
        ],
      );
      assert.ok(
        sameFieldValue(
          'Assignments',
          value(r, 'after', 'T2', 'Assignments'),
          value(r, 'before', 'T4', 'Assignments') ?? [{ partyId: 'u-alice', plannedTime: 60 }],
        ),
      );
      assert.deepEqual(r.undo.documents[0]!.update, { assignmentChange: { removes: 'u-alice' } });
    },
  },
  assignmentChange: {
    title:
      'touches Assignments and ManagedPlannedTime (and PlannedTime when recalculated from them), reads PlannedTime when redistributed, predicts the list, inverts by the opposite change',
    body: { assignmentChange: { adds: [{ partyId: 'u-bob', plannedTime: 120 }], recalculatePlannedTimeByAssignment: true } },
    ids: ['T1'],
    touches: ['Assignments', 'ManagedPlannedTime', 'PlannedTime'],
    reads: [],
    undo: ['assignments'],
    check(r) {
      assert.equal(value(r, 'after', 'T1', 'PlannedTime'), 180);
      assert.deepEqual(r.undo.documents[0]!.update, { assignmentChange: { removes: 'u-bob' }, fields: { PlannedTime: 0 } });
      assert.deepEqual(fieldsToRead({ assignmentChange: { removes: 'u-alice', recalculatePlannedTimeByAssignment: false } }), [
        'Id',
        'Name',
        'Assignments',
        'ManagedPlannedTime',
        'PlannedTime',
      ]);
    },
  },
  clearAllFieldCalcTypes: {
    title: 'touches FieldCalcTypes, predicts none left, inverts by setting the calculation types before again',
    body: { clearAllFieldCalcTypes: true },
    ids: ['T2'],
    touches: ['FieldCalcTypes'],
    reads: [],
    undo: ['calc-types'],
    check: (r) => assert.deepEqual(r.undo.documents[0]!.update, { fieldCalcTypes: { PlannedTime: 'Manual' } }),
  },
  clearFieldCalcTypes: {
    title: 'touches FieldCalcTypes, predicts the fields named without one, inverts by setting them again',
    body: { clearFieldCalcTypes: 'PlannedTime' },
    ids: ['T2', 'T4'],
    touches: ['FieldCalcTypes'],
    reads: [],
    undo: ['calc-types'],
    check: (r) => assert.deepEqual(value(r, 'after', 'T2', 'FieldCalcTypes'), {}),
  },
  fieldCalcTypes: {
    title: 'touches FieldCalcTypes, predicts the map with the types set, inverts by clearing the new ones',
    body: { fieldCalcTypes: { ActualProgress: 'Manual' } },
    ids: ['T1', 'T2'],
    touches: ['FieldCalcTypes'],
    reads: [],
    undo: ['calc-types'],
    check: (r) => assert.deepEqual(r.undo.documents[0]!.update, { clearFieldCalcTypes: 'ActualProgress' }),
  },
  setCompleted: {
    title: 'touches ActualProgress, reads TracksProgress and whether items have sub-items, predicts 100, inverts by the progress before (not the sub-items’)',
    body: { setCompleted: true },
    ids: ['T1', 'F3'],
    touches: ['ActualProgress'],
    reads: ['TracksProgress', 'ParentId'],
    extraReads: ['sub-items'],
    undo: ['fields'],
    lost: { F3: [['setCompleted', 'descendants-not-in-snapshot', true]] },
    check: (r) => assert.equal(value(r, 'after', 'T1', 'ActualProgress'), 100),
  },
  setTimeEntryLocked: {
    title: 'touches IsTimeEntryLocked, reads whether items have sub-items, predicts the lock, inverts by the lock before (not the descendants’)',
    body: { setTimeEntryLocked: true },
    ids: ['T2', 'F3'],
    touches: ['IsTimeEntryLocked'],
    reads: ['ParentId'],
    extraReads: ['sub-items'],
    undo: ['lock'],
    lost: { F3: [['setTimeEntryLocked', 'descendants-not-in-snapshot', true]] },
    check: (r) => assert.deepEqual(r.undo.documents[0]!.update, { setTimeEntryLocked: false }),
  },
  propagateToChildren: {
    title:
      'touches no field of the item, reads whether it has sub-items, copies to the lowest-level sub-items, has no inverse (their values before are not read)',
    body: { propagateToChildren: { fields: 'StatusTypeId' } },
    ids: ['F2'],
    touches: [],
    reads: ['ParentId'],
    extraReads: ['sub-items'],
    undo: [],
    lost: { F2: [['propagateToChildren', 'descendants-not-in-snapshot']] },
    check(r) {
      const status = (d: Run['dump']['before'], id: string) => d.workItems.find((w) => w.id === id)!.statusTypeId;
      assert.equal(status(r.dump.before, 'T2'), '51');
      assert.equal(status(r.dump.back, 'T2'), null, 'the sub-item keeps the copied value after the undo');
    },
  },
};

describe('member table: each member against the sandbox', function () {
  this.timeout(60_000);
  const sandbox = new MemberSandbox();
  before(() => sandbox.start());
  after(() => sandbox.stop());

  for (const name of MEMBER_ORDER) {
    const c = CASES[name];
    it(`${name}: ${c.title}`, async () => {
      const { body, ids } = c;
      // The table says it.
      assert.ok(body[name] !== undefined, `the case's body holds ${name}`);
      for (const f of memberEntry(name).touches(body[name]!)) assert.ok(c.touches.includes(f), `${name} touches ${f}`);
      assert.deepEqual(touchedFields(body), c.touches, 'touched fields');
      assert.deepEqual(fieldsToRead(body), [...new Set(['Id', 'Name', ...c.touches, ...c.reads])], 'fields to read');
      assert.deepEqual([...extraReadsOf(body)], c.extraReads ?? [], 'extra reads');
      assert.deepEqual(irreversibleChanges(body), c.irreversible ?? [], 'irreversible changes');
      const inverse = memberEntry(name).inverse;
      if ('with' in inverse) assert.ok(body[inverse.with] !== undefined, `${name} is put back with ${inverse.with}, which the case holds`);

      const r = await sandbox.run(body, ids, c.snapshot);

      // The read before is the one the table asks for.
      assert.deepEqual(r.before.fields, fieldsToRead(body));
      assert.equal(r.before.siblings !== undefined, (c.extraReads ?? []).includes('siblings'), 'the old siblings are read for a move');
      if ((c.extraReads ?? []).includes('sub-items'))
        for (const id of ids) assert.equal(typeof r.before.items.get(id)![HAS_SUB_ITEMS], 'boolean', `whether ${id} has sub-items`);

      for (const id of ids) {
        // Every value predicted is what the sandbox did.
        const effect = itemEffect(id, body, r.snapshot.get(id));
        assert.deepEqual(
          effect.fields.map((f) => f.field),
          c.touches,
        );
        for (const f of effect.fields) {
          if (f.expected.kind !== 'value') continue;
          assert.ok(
            sameFieldValue(f.field, f.expected.value, value(r, 'after', id, f.field)),
            `${id}.${f.field}: predicted ${JSON.stringify(f.expected.value)}, the sandbox has ${JSON.stringify(value(r, 'after', id, f.field))}`,
          );
        }
        // Nothing of the item changed that the table does not say it touches.
        const was = r.all.before.get(id);
        const now = r.all.after.get(id)!;
        for (const f of Object.keys(now)) {
          if (!was || STAMPS.has(f) || sameFieldValue(f, was[f], now[f])) continue;
          assert.ok(
            c.touches.includes(f) || c.touches.includes(FOLLOWS[f] ?? ''),
            `${id}.${f} changed (${JSON.stringify(was[f])} → ${JSON.stringify(now[f])}) but is not touched`,
          );
        }
      }

      // The undo: its documents, what it cannot put back, and the values back.
      assert.deepEqual([...new Set(r.undo.documents.map((d) => d.kind))], c.undo, 'undo documents');
      for (const id of ids) {
        const lost = r.undo.nonInvertible.filter((n) => n.id === id).map((n) => [n.member, n.reason, ...(n.partly ? [true] : [])]);
        assert.deepEqual(lost, c.lost?.[id] ?? [], `what the undo of ${id} cannot put back`);
        if (c.staysChanged) continue;
        for (const f of c.touches) {
          assert.ok(
            sameFieldValue(f, value(r, 'before', id, f), value(r, 'back', id, f)),
            `${id}.${f} back: ${JSON.stringify(value(r, 'before', id, f))} before, ${JSON.stringify(value(r, 'back', id, f))} after the undo`,
          );
        }
      }
      for (const [parent, list] of r.before.siblings ?? [])
        assert.deepEqual(childrenOf(r.dump.back, parent), list, `the children of ${parent} in their old order`);
      c.check?.(r);
    });
  }

  it('the table’s order is the order the service applies the members: bodies whose members change the same values are predicted and undone as the sandbox does', async () => {
    const bodies: [UpdateWorkItemsBody, string[]][] = [
      [{ clearSchedule: true, fields: { PlannedStartDate: '2026-07-01', PlannedFinishDate: '2026-07-03' } }, ['T1']],
      [{ fields: { PlannedStartDate: '2026-07-01', PlannedFinishDate: '2026-07-03' }, moveScheduleDays: 2 }, ['T1', 'T2']],
      [
        {
          fields: { Assignments: [{ partyId: 'u-bob', plannedTime: 30 }] },
          assignmentChange: { adds: [{ partyId: 'u-carol', plannedTime: 10 }], recalculatePlannedTimeByAssignment: true },
        },
        ['T2'],
      ],
      [{ clearAllFieldCalcTypes: true, clearFieldCalcTypes: 'PlannedTime', fieldCalcTypes: { ActualProgress: 'Manual' } }, ['T2', 'T3']],
      [{ moveParentTo: 'F2', changeItemTypeTo: 'milestone', fields: { ActualProgress: 20 }, setCompleted: true, setTimeEntryLocked: true }, ['T1']],
    ];
    for (const [body, ids] of bodies) {
      const r = await sandbox.run(body, ids);
      for (const id of ids) {
        for (const f of itemEffect(id, body, r.before.items.get(id)).fields) {
          if (f.expected.kind === 'value')
            assert.ok(
              sameFieldValue(f.field, f.expected.value, value(r, 'after', id, f.field)),
              `${JSON.stringify(body)}: ${id}.${f.field} predicted ${JSON.stringify(f.expected.value)}, the sandbox has ${JSON.stringify(value(r, 'after', id, f.field))}`,
            );
        }
        for (const f of touchedFields(body))
          assert.ok(sameFieldValue(f, value(r, 'before', id, f), value(r, 'back', id, f)), `${JSON.stringify(body)}: ${id}.${f} back after the undo`);
      }
    }
  });

  it('every member has its case above and its entry in the table', () => {
    assert.deepEqual(Object.keys(CASES), [...MEMBER_ORDER]);
    assert.deepEqual(Object.keys(MEMBERS), [...MEMBER_ORDER]);
  });
});
