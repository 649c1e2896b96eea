// The request document (*.workitems.json): shape, work item IDs, and how the
// update body's issues land on the document's JSON paths.
import * as assert from 'node:assert/strict';
import { createChangeDocument, createRequestDocument, parseWorkItemIds, validateRequestDocument } from '../../src/schema/document';
import type { DocumentIssue } from '../../src/schema/issues';
import { formatJsonPath } from '../../src/schema/issues';

/** Fixture builder: a valid document with overrides. */
function doc(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { workItemIds: ['120', '121'], update: { moveScheduleDays: 7 }, ...overrides };
}
function find(issues: DocumentIssue[], code: string, path?: (string | number)[]): DocumentIssue {
  const hit = issues.find((i) => i.code === code && (!path || JSON.stringify(i.path) === JSON.stringify(path)));
  assert.ok(hit, `expected ${code} at ${JSON.stringify(path)}; got:\n${issues.map((i) => `${i.code} ${JSON.stringify(i.path)} ${i.message}`).join('\n')}`);
  return hit;
}

describe('schema request document', () => {
  it('a valid document gives the normalized document and no issues', () => {
    const r = validateRequestDocument({ $schema: './schemas/workitems.schema.json', description: 'Shift', workItemIds: [' 120 ', 121], update: { moveScheduleDays: 7 } });
    assert.deepEqual(r.issues, []);
    assert.equal(r.ok, true);
    assert.deepEqual(r.document, { description: 'Shift', changeSet: false, requests: [{ workItemIds: ['120', '121'], update: { moveScheduleDays: 7 } }] });
  });

  it('a document that is not an object is one error on the whole document', () => {
    for (const v of [null, [], 'x', 3]) {
      const r = validateRequestDocument(v);
      assert.equal(r.ok, false);
      assert.equal(find(r.issues, 'DOCUMENT_NOT_OBJECT', []).message, 'A request document must be a JSON object with "workItemIds" and "update", with "add" or "delete", or with "requests".');
    }
  });

  it('an unknown top-level member is an error naming it (with a fix for another capitalisation)', () => {
    const r = validateRequestDocument(doc({ comment: 'x', WorkItemIDs: '1' }));
    assert.equal(r.ok, false);
    assert.match(find(r.issues, 'DOCUMENT_UNKNOWN_MEMBER', ['comment']).message, /^Unknown member "comment": a request document has only "description", "service", "workItemIds" and "update" \(or "add", "delete" or "requests"\)\.$/);
    assert.deepEqual(find(r.issues, 'DOCUMENT_UNKNOWN_MEMBER', ['WorkItemIDs']).fix, { kind: 'rename-member', to: 'workItemIds' });
  });

  it('description must be a string', () => {
    assert.equal(find(validateRequestDocument(doc({ description: 5 })).issues, 'WRONG_TYPE', ['description']).message, '"description" must be a string, not the number 5.');
  });

  describe('workItemIds', () => {
    it('missing is an error', () => {
      const r = validateRequestDocument({ update: { clearSchedule: true } });
      assert.equal(r.ok, false);
      assert.match(find(r.issues, 'DOCUMENT_IDS_MISSING', []).message, /"workItemIds" is missing/);
    });

    it('a string of IDs separated by commas, spaces, tabs and new lines', () => {
      const r = validateRequestDocument(doc({ workItemIds: '120, 121 122\n123\r\n\t124,' }));
      assert.deepEqual(r.document!.requests[0]!.workItemIds, ['120', '121', '122', '123', '124']);
    });

    it('integers and strings may be mixed; strings are trimmed', () => {
      assert.deepEqual(validateRequestDocument(doc({ workItemIds: [120, ' 121', '122 '] })).document!.requests[0]!.workItemIds, ['120', '121', '122']);
    });

    it('an empty list or blank string is an error', () => {
      for (const workItemIds of [[], '', ' ,\n ']) {
        const r = validateRequestDocument(doc({ workItemIds }));
        assert.equal(r.ok, false);
        assert.equal(find(r.issues, 'DOCUMENT_IDS_EMPTY', ['workItemIds']).message, '"workItemIds" names no work item: add at least one ID.');
      }
    });

    it('entries that are not strings or whole numbers are errors on the entry', () => {
      const r = validateRequestDocument(doc({ workItemIds: ['1', 2.5, null, { id: 3 }] }));
      assert.equal(r.ok, false);
      assert.equal(find(r.issues, 'DOCUMENT_ID_TYPE', ['workItemIds', 1]).message, 'Each entry of "workItemIds" must be a string or a whole number, not the number 2.5.');
      find(r.issues, 'DOCUMENT_ID_TYPE', ['workItemIds', 2]);
      find(r.issues, 'DOCUMENT_ID_TYPE', ['workItemIds', 3]);
    });

    it('another type is an error on the member', () => {
      assert.match(find(validateRequestDocument(doc({ workItemIds: 120 })).issues, 'DOCUMENT_IDS_TYPE', ['workItemIds']).message, /must be a list of IDs or a string of IDs/);
    });

    it('each ID is checked with the path rule (validateWorkItemId) on its entry', () => {
      const r = validateRequestDocument(doc({ workItemIds: ['120', '..', 'a/b', ''] }));
      assert.equal(r.ok, false);
      find(r.issues, 'ID_DOT_SEGMENT', ['workItemIds', 1]);
      find(r.issues, 'ID_SLASH', ['workItemIds', 2]);
      find(r.issues, 'ID_EMPTY', ['workItemIds', 3]);
      assert.deepEqual(r.workItemIds, ['120']);
    });

    it('a whitespace-separated string cannot smuggle in bad IDs', () => {
      const r = validateRequestDocument(doc({ workItemIds: '120 ../x' }));
      find(r.issues, 'ID_SLASH', ['workItemIds']);
    });

    it('duplicates are a warning (once per ID); the list is kept for the bulk engine to deduplicate', () => {
      const r = validateRequestDocument(doc({ workItemIds: ['1', '2', '1', 1, '1'] }));
      assert.equal(r.ok, true);
      const w = r.issues.filter((i) => i.code === 'DOCUMENT_ID_DUPLICATE');
      assert.equal(w.length, 1);
      assert.deepEqual(w[0]!.path, ['workItemIds', 2]);
      assert.equal(w[0]!.severity, 'warning');
      assert.equal(w[0]!.message, 'Work item ID "1" is listed more than once; it is updated only once.');
      assert.deepEqual(r.document!.requests[0]!.workItemIds, ['1', '2', '1', '1', '1']);
    });

    it('more than 1000 IDs is fine (the bulk engine batches)', () => {
      const ids = Array.from({ length: 25_000 }, (_, i) => String(i + 1));
      const r = validateRequestDocument(doc({ workItemIds: ids.join('\n') }));
      assert.equal(r.ok, true);
      assert.equal(r.document!.requests[0]!.workItemIds.length, 25_000);
    });

    it('thousands of bad IDs are summarised after the first 50', () => {
      const r = validateRequestDocument(doc({ workItemIds: Array.from({ length: 500 }, () => '..') }));
      assert.equal(r.issues.filter((i) => i.code === 'ID_DOT_SEGMENT').length, 50);
      const more = find(r.issues, 'DOCUMENT_IDS_MORE_PROBLEMS', ['workItemIds']);
      assert.equal(more.message, '450 more problems with work item IDs are not listed.');
      assert.equal(more.severity, 'error');
    });

    it('parseWorkItemIds splits on commas and any whitespace', () => {
      assert.deepEqual(parseWorkItemIds(' 1,2\t3\n\n4 , 5 '), ['1', '2', '3', '4', '5']);
      assert.deepEqual(parseWorkItemIds(''), []);
    });
  });

  describe('update', () => {
    it('missing is an error', () => {
      const r = validateRequestDocument({ workItemIds: ['1'] });
      assert.equal(r.ok, false);
      assert.match(find(r.issues, 'DOCUMENT_UPDATE_MISSING', []).message, /"update" is missing/);
      assert.deepEqual(r.workItemIds, ['1']);
    });

    it('body issues are on paths under "update"', () => {
      const r = validateRequestDocument(doc({ update: { orderFirst: true } }));
      assert.equal(r.ok, false);
      assert.equal(r.document, undefined);
      find(r.issues, 'ORDER_WITHOUT_PARENT', ['update', 'orderFirst']);
    });

    it('warnings do not stop a document; capitalised members come back camelCase', () => {
      const r = validateRequestDocument(doc({ update: { assignmentChange: { Adds: [{ PartyId: '7', PlannedTime: 60 }] } } }));
      assert.equal(r.ok, true);
      assert.deepEqual(r.document!.requests[0]!.update, { assignmentChange: { adds: [{ partyId: '7', plannedTime: 60 }] } });
      assert.ok(r.issues.every((i) => i.severity === 'warning'));
    });
  });

  it('every issue has a message that names a member, and a path into the document', () => {
    const r = validateRequestDocument({ workItemIds: ['..'], update: { fields: { Name: '' }, foo: 1 }, bar: 2 });
    for (const i of r.issues) {
      assert.ok(i.message.length > 10 && !i.message.includes('[object'), i.message);
      assert.ok(Array.isArray(i.path));
    }
  });

  it('formatJsonPath renders paths as people write them', () => {
    assert.equal(formatJsonPath(['update', 'assignmentChange', 'adds', 0, 'partyId']), 'update.assignmentChange.adds[0].partyId');
    assert.equal(formatJsonPath(['fields', 'Odd name']), 'fields["Odd name"]');
    assert.equal(formatJsonPath([]), '(document)');
  });

  it('createRequestDocument builds a document that validates', () => {
    const d = createRequestDocument(['1', '2'], { setCompleted: true }, { description: 'Close sprint', schemaUrl: 'x.json' });
    assert.deepEqual(Object.keys(d), ['$schema', 'description', 'workItemIds', 'update']);
    assert.equal(validateRequestDocument(d).ok, true);
  });
});

describe('request document: numeric ranges written as one ID', () => {
  it('warns about 131-140 (list entry or string token), says what it stands for, and offers the expansion', () => {
    const v = validateRequestDocument({ workItemIds: ['120', '131-133', 'WI-12'], update: { setCompleted: true } });
    assert.equal(v.ok, true, 'a warning: the document can still be sent as written');
    const ranges = v.issues.filter((i) => i.code === 'DOCUMENT_ID_RANGE');
    assert.deepEqual(ranges.map((i) => [i.severity, i.path, i.fix]), [['warning', ['workItemIds', 1], { kind: 'expand-range', text: '131-133', ids: ['131', '132', '133'] }]]);
    assert.match(ranges[0]!.message, /"131-133" looks like a range of 3 work items \(131 to 133\)/);
    const s = validateRequestDocument({ workItemIds: '120, 131-133\n7-5', update: { setCompleted: true } });
    assert.deepEqual(s.issues.filter((i) => i.code === 'DOCUMENT_ID_RANGE').map((i) => i.path), [['workItemIds']]);
  });
});

describe('schema change set (a document of several requests)', () => {
  const set = (requests: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ requests, ...extra });

  it('several requests, each with its IDs and body, in order', () => {
    const r = validateRequestDocument(
      set([
        { description: 'status', workItemIds: ['120', '121'], update: { fields: { Name: 'a' } } },
        { workItemIds: '122', update: { moveScheduleDays: 7 } },
      ]),
    );
    assert.deepEqual(r.issues, []);
    assert.deepEqual(r.document, {
      changeSet: true,
      requests: [
        { description: 'status', workItemIds: ['120', '121'], update: { fields: { Name: 'a' } } },
        { workItemIds: ['122'], update: { moveScheduleDays: 7 } },
      ],
    });
    assert.deepEqual(r.workItemIds, ['120', '121', '122']);
  });

  it("a request's problems land on its own path", () => {
    const r = validateRequestDocument(set([{ workItemIds: ['1'], update: { moveScheduleDays: 1 } }, { workItemIds: ['2'], update: { moveScheduleDays: 'x' } }]));
    assert.equal(r.ok, false);
    assert.ok(r.issues.some((i) => JSON.stringify(i.path) === JSON.stringify(['requests', 1, 'update', 'moveScheduleDays'])), JSON.stringify(r.issues));
  });

  it('a request without workItemIds or update is an error on that request', () => {
    const r = validateRequestDocument(set([{ workItemIds: ['1'] }, { update: { clearSchedule: true } }]));
    find(r.issues, 'DOCUMENT_UPDATE_MISSING', ['requests', 0]);
    find(r.issues, 'DOCUMENT_IDS_MISSING', ['requests', 1]);
    assert.deepEqual(r.workItemIds, ['1']);
  });

  it('a field of an item changed by two requests is an error on the later entry, naming the field', () => {
    const r = validateRequestDocument(set([{ workItemIds: ['1', '2'], update: { moveScheduleDays: 1 } }, { workItemIds: ['3', '2'], update: { clearSchedule: true } }]));
    assert.equal(r.ok, false);
    assert.match(find(r.issues, 'DOCUMENT_ID_IN_TWO_REQUESTS', ['requests', 1, 'workItemIds', 1]).message, /"2" is already in request 1, which changes PlannedStartDate too/);
  });

  it('an item may be in two requests that change different fields of it', () => {
    const r = validateRequestDocument(set([{ workItemIds: ['1', '2'], update: { moveScheduleDays: 1 } }, { workItemIds: ['2'], update: { fields: { Name: 'x' } } }]));
    assert.deepEqual(r.issues, []);
    assert.deepEqual(r.workItemIds, ['1', '2', '2']);
  });

  it('"requests" beside "workItemIds" or "update" is an error on each of them', () => {
    const r = validateRequestDocument(set([{ workItemIds: ['1'], update: { moveScheduleDays: 1 } }], { workItemIds: ['2'], update: { moveScheduleDays: 1 } }));
    find(r.issues, 'DOCUMENT_BOTH_FORMS', ['workItemIds']);
    find(r.issues, 'DOCUMENT_BOTH_FORMS', ['update']);
    assert.equal(r.ok, false);
  });

  it('an empty list, an entry that is not an object, and an unknown member of a request are errors', () => {
    find(validateRequestDocument(set([])).issues, 'DOCUMENT_REQUESTS_EMPTY', ['requests']);
    find(validateRequestDocument(set([5])).issues, 'DOCUMENT_REQUEST_NOT_OBJECT', ['requests', 0]);
    const unknown = validateRequestDocument(set([{ workItemIds: ['1'], update: { moveScheduleDays: 1 }, Update: {} }]));
    assert.deepEqual(find(unknown.issues, 'DOCUMENT_REQUEST_UNKNOWN_MEMBER', ['requests', 0, 'Update']).fix, { kind: 'rename-member', to: 'update' });
    find(validateRequestDocument(set({})).issues, 'WRONG_TYPE', ['requests']);
  });

  it('placeholders left in a request are errors on their path', () => {
    const r = validateRequestDocument(set([{ workItemIds: ['WORK-ITEM-ID'], update: { moveScheduleDays: 1 } }]));
    find(r.issues, 'PLACEHOLDER_LEFT', ['requests', 0, 'workItemIds', 0]);
  });

  it('createChangeDocument writes one request in the single-request form and several as requests', () => {
    assert.deepEqual(createChangeDocument([{ workItemIds: ['1'], update: { moveScheduleDays: 1 } }], { description: 'd' }), { description: 'd', workItemIds: ['1'], update: { moveScheduleDays: 1 } });
    const two = createChangeDocument([{ workItemIds: ['1'], update: { moveScheduleDays: 1 } }, { workItemIds: ['2'], update: { clearSchedule: true }, description: 'x' }]);
    assert.deepEqual(validateRequestDocument(two).document?.requests.map((r) => r.workItemIds), [['1'], ['2']]);
  });
});

describe('schema: a field that may be empty takes null (an undo puts an empty value back so)', () => {
  for (const fields of [{ LeaderId: null }, { PlannedStartDate: null, PlannedFinishDate: null }, { ProcessCategoryId: null }, { TimeEntryCategoryId: null }, { StatusTypeId: null }, { Description: null }, { Code: null }]) {
    it(`${Object.keys(fields).join(', ')}: null is valid`, () => {
      const r = validateRequestDocument({ workItemIds: ['1'], update: { fields } });
      assert.deepEqual(r.issues, []);
    });
  }
  for (const fields of [{ Name: null }, { PlannedTime: null }, { ActualProgress: null }]) {
    it(`${Object.keys(fields).join(', ')}: null is refused (it has no empty value)`, () => {
      const r = validateRequestDocument({ workItemIds: ['1'], update: { fields } });
      assert.equal(r.ok, false);
    });
  }
});

