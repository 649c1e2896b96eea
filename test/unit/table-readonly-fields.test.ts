// One list of the fields an update's `fields` cannot set (src/schema/fields.ts
// READ_ONLY_FIELDS): the sandbox's read-only system fields (error 29 naming the member,
// official help F1) and the table's read-only cells both come from it, each with the
// words it had before (the sandbox's golden answers: test/unit/sandbox-answers*.test.ts).
import * as assert from 'node:assert/strict';
import { FIELD_CATALOGUE, READ_ONLY_FIELDS, readOnlyField } from '../../src/schema/fields';
import { READ_ONLY_SYSTEM_FIELDS, readOnlyReason as sandboxReason, readOnlySystemField } from '../../src/sandbox/update/official-fields';
import { READ_ONLY_REASONS, readOnlyFieldReason, readOnlyReason } from '../../src/table/model/cells';
import { buildColumns } from '../../src/table/model/columns';

describe('read-only fields: one table for the sandbox and the work item table', () => {
  it('the sandbox refuses the read-only rows of the help\'s system field table (F1), with the member the help names (official help F1)', () => {
    assert.deepEqual(READ_ONLY_SYSTEM_FIELDS, {
      Id: {},
      ProjectId: {},
      ProjectName: {},
      ProjectCode: {},
      ItemTypeId: { member: 'changeItemTypeTo' },
      FolderId: {},
      FolderName: {},
      ParentId: { member: 'moveParentTo' },
      ParentName: { member: 'moveParentTo' },
    });
    assert.equal(sandboxReason('ParentName'), 'it is a read-only system field; change it with "moveParentTo"');
    assert.equal(sandboxReason('FolderId'), 'it is a read-only system field');
    assert.equal(readOnlySystemField('Assignments'), undefined, 'assignments are not a row of the help\'s read-only system fields');
    assert.equal(readOnlySystemField('toString'), undefined);
  });

  it('the table refuses every field of the list, with the reason its cell showed before', () => {
    const before: Record<string, string> = {
      Id: 'The ID of a work item cannot be changed.',
      ProjectId: 'The project of a work item cannot be changed here.',
      ProjectName: 'The project of a work item cannot be changed here.',
      ProjectCode: 'The project of a work item cannot be changed here.',
      FolderId: 'The folder follows the parent: move the item to another parent (moveParentTo).',
      FolderName: 'The folder follows the parent: move the item to another parent (moveParentTo).',
      ParentId: 'The parent is changed by moving the item (moveParentTo), not by editing this cell.',
      ParentName: 'The parent is changed by moving the item (moveParentTo), not by editing this cell.',
      ItemTypeId: 'The type is changed with "change item type" (changeItemTypeTo), not by editing this cell.',
      Assignments: 'Assignees are changed with the assignment form (assignmentChange), not by editing this cell.',
      ActualTime: 'Actual time comes from time entries.',
      ActualCost: 'Actual cost comes from time entries.',
      CreatedAt: 'Set by the service.',
      UpdatedAt: 'Set by the service.',
    };
    assert.deepEqual(Object.keys(READ_ONLY_FIELDS).sort(), Object.keys(before).sort());
    for (const [key, reason] of Object.entries(before)) assert.equal(readOnlyFieldReason(key), reason, key);
    const columns = buildColumns([], {});
    for (const c of columns) {
      if (before[c.key]) assert.equal(readOnlyReason(c), before[c.key], `${c.key}: the cell says why`);
    }
    assert.equal(readOnlyReason(columns.find((c) => c.key === 'Name')!), undefined, 'Name may be edited');
    assert.equal(readOnlyFieldReason('constructor'), undefined);
  });

  it('each entry names the member that changes it where the reason does, and every kind has a reason', () => {
    for (const [name, f] of Object.entries(READ_ONLY_FIELDS)) {
      if (f.member) assert.ok(READ_ONLY_REASONS[f.kind].includes(f.member), `${name}: the reason names ${f.member}`);
      assert.equal(readOnlyField(name), f);
      const builtin = FIELD_CATALOGUE.find((x) => x.name === name);
      if (f.systemTable) assert.ok(!builtin || !builtin.editable, `${name} is not an editable field of the catalogue`);
    }
  });
});
