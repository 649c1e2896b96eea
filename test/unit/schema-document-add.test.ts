// Request documents that add work items ("add": the parent and the body of POST
// …/subItems) and delete them ("delete": the IDs): one test per rule, named after it, each
// on the exact JSON path the editor underlines. A document with any error is never sent.
import * as assert from 'node:assert/strict';
import { createChangeDocument, validateRequestDocument, type DocumentIssue } from '../../src/schema/document';
import { ERROR_CODES } from '../../src/schema/error-codes';

const TASK = { ItemTypeId: '42', Name: 'Design' };

function codesAt(issues: readonly DocumentIssue[], path: (string | number)[]): string[] {
  return issues.filter((i) => JSON.stringify(i.path) === JSON.stringify(path)).map((i) => i.code);
}

function errors(value: unknown): DocumentIssue[] {
  return validateRequestDocument(value).issues.filter((i) => i.severity === 'error');
}

describe('schema request document: add and delete requests', () => {
  it('an add request reads as its parent and the body of one POST (the parent out of the body)', () => {
    const r = validateRequestDocument({ add: { parentId: 3001, fields: TASK, subItems: [{ fields: { ItemTypeId: '42', Name: 'Review' } }], orderLast: true } });
    assert.equal(r.ok, true, JSON.stringify(r.issues));
    const [only] = r.document!.requests;
    assert.equal(only!.kind, 'add');
    assert.deepEqual(only!.workItemIds, [], 'an add names no existing item to change');
    assert.deepEqual(only!.add, { parentId: '3001', item: { fields: TASK, subItems: [{ fields: { ItemTypeId: '42', Name: 'Review' } }], orderLast: true } });
  });

  it('an add and a delete stand in a change set beside updates, each on its own path', () => {
    const r = validateRequestDocument({
      requests: [
        { workItemIds: ['120'], update: { moveScheduleDays: 1 } },
        { description: 'new work', add: { parentId: '10', fields: TASK } },
        { delete: { workItemIds: ['121', '122'] } },
      ],
    });
    assert.equal(r.ok, true, JSON.stringify(r.issues));
    assert.deepEqual(
      r.document!.requests.map((q) => [q.kind ?? 'update', q.workItemIds, q.description]),
      [
        ['update', ['120'], undefined],
        ['add', [], 'new work'],
        ['delete', ['121', '122'], undefined],
      ],
    );
  });

  it('ADD_PARENT_MISSING: an add without "parentId" is an error on the add', () => {
    assert.deepEqual(codesAt(errors({ add: { fields: TASK } }), ['add']), ['ADD_PARENT_MISSING']);
  });

  it('a parentId that is no work item ID is an error on parentId (as an ID of workItemIds is)', () => {
    const issues = errors({ requests: [{ add: { parentId: '../7', fields: TASK } }] });
    assert.equal(codesAt(issues, ['requests', 0, 'add', 'parentId']).length, 1, JSON.stringify(issues));
    assert.deepEqual(codesAt(errors({ add: { parentId: true, fields: TASK } }), ['add', 'parentId']), ['WRONG_TYPE']);
  });

  it('ADD_FIELDS_MISSING: a new item without "fields" is one error on the item', () => {
    assert.deepEqual(codesAt(errors({ add: { parentId: '10' } }), ['add']), ['ADD_FIELDS_MISSING']);
    assert.deepEqual(codesAt(errors({ add: { parentId: '10', fields: TASK, subItems: [{}] } }), ['add', 'subItems', 0]), ['ADD_FIELDS_MISSING']);
  });

  it('ADD_ITEM_TYPE_MISSING: the fields of a new item need ItemTypeId', () => {
    assert.deepEqual(codesAt(errors({ add: { parentId: '10', fields: { Name: 'x' } } }), ['add', 'fields']), ['ADD_ITEM_TYPE_MISSING']);
  });

  it('ADD_NAME_MISSING: the fields of a new item need Name, in sub-items too', () => {
    const issues = errors({ add: { parentId: '10', fields: TASK, subItems: [{ fields: { ItemTypeId: '42' } }] } });
    assert.deepEqual(codesAt(issues, ['add', 'subItems', 0, 'fields']), ['ADD_NAME_MISSING']);
  });

  it('ADD_ID_BY_NAME: an item type or status written by name is a warning on its value, in sub-items too; IDs and placeholders are not', () => {
    const v = validateRequestDocument({
      add: { parentId: '10', fields: { ItemTypeId: '作業', Name: 'x', StatusTypeId: '進行中' }, subItems: [{ fields: { ItemTypeId: 'Task', Name: 'y' } }, { fields: { ItemTypeId: ' 42 ', Name: 'z', StatusTypeId: '51' } }] },
    });
    const named = v.issues.filter((i) => i.code === 'ADD_ID_BY_NAME');
    assert.deepEqual(
      named.map((i) => [i.severity, i.path, i.params]),
      [
        ['warning', ['add', 'fields', 'ItemTypeId'], { field: 'ItemTypeId', value: '作業' }],
        ['warning', ['add', 'fields', 'StatusTypeId'], { field: 'StatusTypeId', value: '進行中' }],
        ['warning', ['add', 'subItems', 0, 'fields', 'ItemTypeId'], { field: 'ItemTypeId', value: 'Task' }],
      ],
    );
    assert.ok(v.ok, 'a warning: the document can still be sent');
    const placeholder = validateRequestDocument({ add: { parentId: '10', fields: { ItemTypeId: 'ITEM-TYPE-ID', Name: 'x' } } });
    assert.deepEqual(placeholder.issues.filter((i) => i.code === 'ADD_ID_BY_NAME'), []);
  });

  it("the fields of a new item get the update's field checks on their own path (read-only, types, ranges, unknown names)", () => {
    const issues = errors({
      add: { parentId: '10', fields: { ...TASK, ActualTime: 5, PlannedTime: 'soon' }, subItems: [{ fields: { ...TASK, Name: '' } }] },
    });
    assert.deepEqual(codesAt(issues, ['add', 'fields', 'ActualTime']), ['FIELD_NOT_EDITABLE']);
    assert.deepEqual(codesAt(issues, ['add', 'fields', 'PlannedTime']), ['FIELD_VALUE_TYPE']);
    assert.deepEqual(codesAt(issues, ['add', 'subItems', 0, 'fields', 'Name']), ['NAME_EMPTY']);
    const warned = validateRequestDocument({ add: { parentId: '10', fields: { ...TASK, Startdate: '2027-01-04' } } }).issues;
    assert.ok(codesAt(warned, ['add', 'fields', 'Startdate']).length === 1, JSON.stringify(warned));
  });

  it('ItemTypeId is set when the item is made: a string is taken, anything else is an error', () => {
    assert.equal(validateRequestDocument({ add: { parentId: '10', fields: TASK } }).ok, true);
    assert.deepEqual(codesAt(errors({ add: { parentId: '10', fields: { ItemTypeId: 42, Name: 'x' } } }), ['add', 'fields', 'ItemTypeId']), ['FIELD_VALUE_TYPE']);
  });

  it('ORDER_MULTIPLE: one order member per new item', () => {
    assert.deepEqual(codesAt(errors({ add: { parentId: '10', fields: TASK, orderFirst: true, orderBefore: '12' } }), ['add', 'orderBefore']), ['ORDER_MULTIPLE']);
  });

  it('an unknown member of a new item is an error with "did you mean" (strict as the help)', () => {
    const issues = errors({ add: { parentId: '10', fields: TASK, subItem: [] } });
    const [issue] = issues.filter((i) => JSON.stringify(i.path) === JSON.stringify(['add', 'subItem']));
    assert.equal(issue?.code, 'UNKNOWN_MEMBER_DID_YOU_MEAN', JSON.stringify(issues));
    assert.equal(issue?.params?.expected, 'subItems');
  });

  it('ADD_TOO_MANY_ITEMS: one add creates at most 1000 items with its sub-items', () => {
    const subItems = Array.from({ length: 1000 }, (_, i) => ({ fields: { ItemTypeId: '42', Name: `t${i}` } }));
    const issues = errors({ add: { parentId: '10', fields: { ItemTypeId: '41', Name: 'big' }, subItems } });
    assert.deepEqual(codesAt(issues, ['add']), ['ADD_TOO_MANY_ITEMS']);
    assert.match(issues.find((i) => i.code === 'ADD_TOO_MANY_ITEMS')!.message, /adds 1001 items .* at most 1000/);
    assert.equal(validateRequestDocument({ add: { parentId: '10', fields: { ItemTypeId: '41', Name: 'big' }, subItems: subItems.slice(1) } }).ok, true);
  });

  it('PLACEHOLDER_LEFT: "PARENT-ID" and other placeholders in an add or a delete are errors, as in an update', () => {
    const issues = errors({ requests: [{ add: { parentId: 'PARENT-ID', fields: { ItemTypeId: 'ITEM-TYPE-ID', Name: 'x' } } }, { delete: { workItemIds: ['WORK-ITEM-ID'] } }] });
    assert.ok(codesAt(issues, ['requests', 0, 'add', 'parentId']).includes('PLACEHOLDER_LEFT'), JSON.stringify(issues));
    assert.ok(codesAt(issues, ['requests', 0, 'add', 'fields', 'ItemTypeId']).includes('PLACEHOLDER_LEFT'));
    assert.ok(codesAt(issues, ['requests', 1, 'delete', 'workItemIds', 0]).includes('PLACEHOLDER_LEFT'));
  });

  it('DOCUMENT_REQUEST_TWO_KINDS: a request updates, adds or deletes, not two of them', () => {
    const issues = errors({ requests: [{ workItemIds: ['1'], update: { moveScheduleDays: 1 }, add: { parentId: '10', fields: TASK } }] });
    assert.deepEqual(codesAt(issues, ['requests', 0, 'workItemIds']), ['DOCUMENT_REQUEST_TWO_KINDS']);
    assert.deepEqual(codesAt(issues, ['requests', 0, 'update']), ['DOCUMENT_REQUEST_TWO_KINDS']);
    assert.deepEqual(codesAt(errors({ add: { parentId: '10', fields: TASK }, delete: { workItemIds: ['1'] } }), ['delete']), ['DOCUMENT_REQUEST_TWO_KINDS']);
  });

  it('DOCUMENT_BOTH_FORMS: "add" or "delete" beside "requests" is an error on it', () => {
    assert.deepEqual(codesAt(errors({ add: { parentId: '10', fields: TASK }, requests: [{ workItemIds: ['1'], update: { moveScheduleDays: 1 } }] }), ['add']), ['DOCUMENT_BOTH_FORMS']);
  });

  it('a delete reads its IDs as workItemIds are read (a list or a string), with their checks on their paths', () => {
    const r = validateRequestDocument({ delete: { workItemIds: '121, 122\n123' } });
    assert.deepEqual(r.document?.requests[0]?.workItemIds, ['121', '122', '123']);
    assert.deepEqual(codesAt(errors({ delete: {} }), ['delete']), ['DOCUMENT_IDS_MISSING']);
    assert.deepEqual(codesAt(errors({ delete: { workItemIds: ['1', { id: 2 }] } }), ['delete', 'workItemIds', 1]), ['DOCUMENT_ID_TYPE']);
    assert.deepEqual(codesAt(errors({ delete: { workItemIds: ['1'], recursive: true } }), ['delete', 'recursive']), ['UNKNOWN_MEMBER']);
    assert.deepEqual(codesAt(errors({ delete: ['1'] }), ['delete']), ['WRONG_TYPE']);
  });

  it('DOCUMENT_DELETED_ITEM_NAMED: an item deleted by one request of a change is named by no other', () => {
    const issues = errors({ requests: [{ workItemIds: ['120', '121'], update: { moveScheduleDays: 1 } }, { delete: { workItemIds: ['121'] } }] });
    assert.deepEqual(codesAt(issues, ['requests', 0, 'workItemIds', 1]), ['DOCUMENT_DELETED_ITEM_NAMED']);
    const twice = errors({ requests: [{ delete: { workItemIds: ['121'] } }, { delete: { workItemIds: ['121'] } }] });
    assert.deepEqual(codesAt(twice, ['requests', 1, 'delete', 'workItemIds', 0]), ['DOCUMENT_DELETED_ITEM_NAMED']);
  });

  it('ADD_PARENT_DELETED_IN_CHANGE: nothing is added below an item the change deletes', () => {
    const issues = errors({ requests: [{ add: { parentId: '11', fields: TASK } }, { delete: { workItemIds: ['11'] } }] });
    assert.deepEqual(codesAt(issues, ['requests', 0, 'add', 'parentId']), ['ADD_PARENT_DELETED_IN_CHANGE']);
  });

  it('every new code has an English template that names what to do', () => {
    for (const code of ['ADD_PARENT_MISSING', 'ADD_FIELDS_MISSING', 'ADD_ITEM_TYPE_MISSING', 'ADD_NAME_MISSING', 'ADD_TOO_MANY_ITEMS', 'DOCUMENT_REQUEST_TWO_KINDS', 'DOCUMENT_DELETED_ITEM_NAMED', 'ADD_PARENT_DELETED_IN_CHANGE'] as const) {
      assert.equal(ERROR_CODES[code].severity, 'error', code);
      assert.ok(ERROR_CODES[code].message.length > 30, code);
    }
  });

  it('createChangeDocument writes adds and deletes in the shape the document reads back', () => {
    const add = { parentId: '10', item: { fields: TASK, orderLast: true } };
    const one = createChangeDocument([{ workItemIds: [], update: {}, kind: 'add', add }], { service: 'https://pm.example.com/api' });
    assert.deepEqual(one, { service: 'https://pm.example.com/api', add: { parentId: '10', fields: TASK, orderLast: true } });
    const set = createChangeDocument([
      { workItemIds: ['5', '6'], update: {}, kind: 'delete', description: 'deletes what the job added' },
      { workItemIds: ['1'], update: { moveScheduleDays: -1 } },
    ]);
    const back = validateRequestDocument(set);
    assert.equal(back.ok, true, JSON.stringify(back.issues));
    assert.deepEqual(
      back.document!.requests.map((r) => [r.kind ?? 'update', r.workItemIds, r.description]),
      [
        ['delete', ['5', '6'], 'deletes what the job added'],
        ['update', ['1'], undefined],
      ],
    );
    assert.deepEqual(validateRequestDocument(one).document!.requests[0]!.add, add);
  });
});
