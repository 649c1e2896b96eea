import * as assert from 'node:assert/strict';
import { renderResultHtml } from '../../src/changes/model/results';
import { totalsOf, type JobResult, type RequestResult } from '../../src/bulk';
import { userIdAt, userIdsInText, userIdsInValue, userLabel } from '../../src/people/model';
import { assignUsersUpdate, documentTemplate } from '../../src/schema/templates';
import { validateRequestDocument } from '../../src/schema/document';
import { toValue } from '../../src/schema/render';

describe('people: user IDs in documents and results', () => {
  const text = `{
  "workItemIds": ["1"],
  "update": {
    "assignmentChange": { "adds": [{ "partyType": "User", "partyId": "2104" }, { "partyType": "User", "user": "tanaka" }] },
    "fields": { "LeaderId": "2101", "Name": "u-999" },
    "leaderId": " 2102 "
  }
}`;

  it('finds the values of partyId, LeaderId/leaderId and the like (not other members)', () => {
    const found = userIdsInText(text);
    assert.deepEqual(found.map((u) => [u.member, u.id]), [['partyId', '2104'], ['LeaderId', '2101'], ['leaderId', '2102']]);
    assert.equal(text.slice(found[0]!.offset, found[0]!.offset + found[0]!.length), '"2104"');
    assert.equal(userIdAt(text, text.indexOf('2101') + 2)?.id, '2101');
    assert.equal(userIdAt(text, text.indexOf('u-999')), undefined, 'Name is not a user ID');
    assert.deepEqual(userIdsInText('{ "partyId": '), [], 'a broken text gives what it can');
  });

  it('"0" names no user (official help: "0" is "no value" for an ID): no hover, no hint, no lookup', () => {
    const none = '{ "workItemIds": ["1"], "update": { "fields": { "LeaderId": "0" } }, "updatedBy": "0", "createdBy": " 0 " }';
    assert.deepEqual(userIdsInText(none), []);
    assert.equal(userIdAt(none, none.indexOf('"0"') + 1), undefined);
    assert.deepEqual([...userIdsInValue({ items: [{ id: '1', updatedBy: '0', assignments: [{ partyId: '2104' }] }] })], ['2104']);
  });

  it('shows a user by name and login name', () => {
    assert.equal(userLabel({ id: '2104', name: '田中 美咲', loginName: 'misaki.tanaka' }), '田中 美咲 (misaki.tanaka)');
    assert.equal(userLabel({ id: 'u-1', name: 'No Login' }), 'No Login');
  });

  it('a result view shows the name beside updatedBy and assignments when known', () => {
    const response = { items: [{ id: '7', updatedBy: '2104', assignments: [{ partyId: '2101', plannedTime: 60 }] }], affectedItems: [] };
    assert.deepEqual([...userIdsInValue([response])].sort(), ['2101', '2104']);
    const requests: RequestResult[] = [{ index: 0, ids: ['7'], path: '/workitem/workItems/7', state: 'succeeded', attempts: 1, status: 200, response: response as unknown as RequestResult['response'] }];
    const result: JobResult = { jobId: 'j', outcome: 'succeeded', requests, totals: totalsOf(requests), startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z', durationMs: 5 };
    const names: Record<string, string> = { '2104': '田中 美咲 (misaki.tanaka)' };
    const html = renderResultHtml({ result, serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c', userLabel: (id) => names[id] });
    assert.match(html, /updatedBy<\/span>: 2104 <span class="muted">\(2104: 田中 美咲 \(misaki\.tanaka\)\)<\/span>/);
    assert.doesNotMatch(html, /2101:/, 'an unknown user shows the ID only');
  });
});

describe('people: Assign to Work Items… writes login names', () => {
  it('adds users by login name (user), as the templates do; by ID only without a login name', () => {
    const update = assignUsersUpdate([{ id: '2104', loginName: 'misaki.tanaka' }, { id: 'u-9' }]);
    assert.deepEqual(update.assignmentChange.adds, [{ partyType: 'User', user: 'misaki.tanaka' }, { partyType: 'User', partyId: 'u-9' }]);
    const value = toValue(documentTemplate(update, ['120'])) as Record<string, unknown>;
    assert.equal(validateRequestDocument(value).ok, true);
  });
});
