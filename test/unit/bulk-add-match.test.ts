// The decisions that find an add again (src/bulk/addMatch.ts), as pure functions over what the
// journal kept before the add left (its key, the parent's sub-items then) and a read of the
// parent's sub-items now: found by its key, absent (sent once), or undecided with the candidates.
import * as assert from 'node:assert/strict';
import { ADD_KEY, addHeight, addKeyPrefix, candidateAnswer, decideAdd, foundAnswer, keyedAddItem, topKeyOf, type AddMatchInput } from '../../src/bulk/addMatch';
import { addedItems } from '../../src/bulk/added';
import type { JobPlan, RequestResult } from '../../src/bulk/types';
import { METADATA_LIMITS, type AddWorkItemRequest } from '../../src/schema/additions';
import type { SubItemNode } from '../../src/schema/reads';

const PREFIX = addKeyPrefix('20260101T000000Z-0a1b2c3d', 1);
const release: AddWorkItemRequest = {
  fields: { ItemTypeId: '41', Name: 'Release' },
  metadata: { owner: 'team-a' },
  subItems: [{ fields: { ItemTypeId: '42', Name: 'Plan' } }, { fields: { ItemTypeId: '42', Name: 'Ship' }, subItems: [{ fields: { ItemTypeId: '42', Name: 'Tag' } }] }],
};

/** A node of a subItems read: its ID and name, its metadata when given, its children. */
function node(id: string, name: string, o: { metadata?: Record<string, string>; children?: SubItemNode[] } = {}): SubItemNode {
  return { fields: { Id: id, Name: name, ...(o.children ? { SubItems: o.children } : {}) }, ...(o.metadata ? { metadata: o.metadata } : {}) };
}

/** The read of the add's items as a service that keeps metadata shows them (IDs from `first`). */
function keptRelease(first: number): SubItemNode {
  const key = (p: string) => ({ [ADD_KEY]: `${PREFIX}/${p}` });
  return node(String(first), 'Release', {
    metadata: { owner: 'team-a', ...key('0') },
    children: [node(String(first + 1), 'Plan', { metadata: key('0.0') }), node(String(first + 2), 'Ship', { metadata: key('0.1'), children: [node(String(first + 3), 'Tag', { metadata: key('0.1.0') })] })],
  });
}

/** The same items as a service that drops metadata shows them. */
function droppedRelease(first: number): SubItemNode {
  return node(String(first), 'Release', { children: [node(String(first + 1), 'Plan'), node(String(first + 2), 'Ship', { children: [node(String(first + 3), 'Tag')] })] });
}

const input = (over: Partial<AddMatchInput>): AddMatchInput => ({ item: release, parentId: '10', prefix: PREFIX, before: ['11', '12'], children: [], ...over });

describe('bulk adds: the key each new item carries', () => {
  it('every item of an add gets workItemStudio.key = <job>/<part>/<path>, merged with the metadata it has (never replacing another entry)', () => {
    const sent = keyedAddItem(release, PREFIX);
    assert.deepEqual(sent.metadata, { owner: 'team-a', [ADD_KEY]: `${PREFIX}/0` });
    assert.deepEqual(sent.subItems![0]!.metadata, { [ADD_KEY]: `${PREFIX}/0.0` });
    assert.deepEqual(sent.subItems![1]!.metadata, { [ADD_KEY]: `${PREFIX}/0.1` });
    assert.deepEqual(sent.subItems![1]!.subItems![0]!.metadata, { [ADD_KEY]: `${PREFIX}/0.1.0` });
    assert.deepEqual(release.metadata, { owner: 'team-a' }, 'the document\'s body is not changed');
    assert.equal(release.subItems![0]!.metadata, undefined);
    assert.equal(sent.fields, release.fields, 'the rest of the body is as written');
  });

  it('the key is the same for the same job, part and body (a resumption sends what the first run sent)', () => {
    assert.deepEqual(keyedAddItem(release, addKeyPrefix('job-1', 2)), keyedAddItem(release, addKeyPrefix('job-1', 2)));
    assert.notDeepEqual(keyedAddItem(release, addKeyPrefix('job-1', 2)), keyedAddItem(release, addKeyPrefix('job-1', 3)));
    assert.equal(topKeyOf(release, addKeyPrefix('job-1', 2)), 'job-1/2/0');
  });

  it('an item whose metadata is full (the service keeps 32 entries) is sent without a key; one that names the key already has it replaced', () => {
    const full = Object.fromEntries(Array.from({ length: METADATA_LIMITS.entries }, (_, i) => [`k${i}`, 'v']));
    const item: AddWorkItemRequest = { fields: { ItemTypeId: '42', Name: 'Full' }, metadata: full };
    assert.deepEqual(keyedAddItem(item, PREFIX).metadata, full);
    assert.equal(topKeyOf(item, PREFIX), undefined);
    const named: AddWorkItemRequest = { fields: { ItemTypeId: '42', Name: 'Named' }, metadata: { ...full, [ADD_KEY]: 'typed by hand' } };
    delete named.metadata!.k0;
    assert.equal(keyedAddItem(named, PREFIX).metadata![ADD_KEY], `${PREFIX}/0`);
    assert.equal(Object.keys(keyedAddItem(named, PREFIX).metadata!).length, METADATA_LIMITS.entries);
  });

  it('addHeight counts the levels of an add', () => {
    assert.equal(addHeight(release), 3);
    assert.equal(addHeight({ fields: {} }), 1);
  });
});

describe('bulk adds: deciding what became of an add of unknown outcome', () => {
  it('found: an item below the parent carries the add\'s key; its items are it and its subtree (not another job\'s items below it)', () => {
    const other = node('99', 'Not ours', { metadata: { [ADD_KEY]: 'other-job/0/0' } });
    const found = keptRelease(20);
    found.fields.SubItems!.push(other);
    const d = decideAdd(input({ children: [node('11', 'Old', { metadata: { x: 'y' } }), found] }));
    assert.equal(d.kind, 'found');
    if (d.kind !== 'found') return;
    assert.deepEqual(d.items.map((f) => [f.id, f.parentId]), [['20', '10'], ['21', '20'], ['22', '20'], ['23', '22']]);
    assert.deepEqual(d.others, []);
    // Kept as the add's answer: the undo deletes exactly the item found below the parent (its sub-items go with it).
    const answer = foundAnswer(d.items);
    const plan = { parts: [{ ids: [], update: {} }, { ids: [], update: {}, kind: 'add' as const, add: { parentId: '10', item: release } }], requests: [{ index: 0, ids: ['1'], path: '/workitem/workItems/1', part: 0 }, { index: 1, ids: ['10'], path: '/workitem/workItems/10/subItems', part: 1 }] } as unknown as JobPlan;
    const requests = [{ index: 0, ids: ['1'], path: '', state: 'succeeded', attempts: 1 }, { index: 1, ids: ['10'], path: '', state: 'succeeded', attempts: 1, response: answer }] as unknown as RequestResult[];
    const [added] = addedItems(plan, requests);
    assert.deepEqual(added!.top, ['20']);
    assert.deepEqual(added!.ids, ['20', '21', '22', '23']);
    assert.equal(added!.answered.get('20')!.Name, 'Release');
  });

  it('found twice (two sends both landed): the first is the add, the others are named', () => {
    const d = decideAdd(input({ children: [keptRelease(20), keptRelease(30)] }));
    assert.equal(d.kind, 'found');
    assert.deepEqual(d.kind === 'found' ? [d.items[0]!.id, d.others] : [], ['20', ['30']]);
  });

  it('absent: the service keeps metadata (an item below shows some) and none carries the key; also when the job\'s answers showed keys', () => {
    assert.deepEqual(decideAdd(input({ children: [node('11', 'Old', { metadata: { x: 'y' } }), node('40', 'Release')] })), { kind: 'absent', reason: 'metadata-kept' });
    assert.deepEqual(decideAdd(input({ children: [node('40', 'Release')], metadataKept: true })), { kind: 'absent', reason: 'metadata-kept' });
    // Metadata deeper in the read counts too.
    assert.deepEqual(decideAdd(input({ children: [node('11', 'Old', { children: [node('12', 'x', { metadata: { a: 'b' } })] })] })), { kind: 'absent', reason: 'metadata-kept' });
  });

  it('absent without metadata: no item new since the add was sent has its name (an old item of that name does not count)', () => {
    const d = decideAdd(input({ children: [node('11', 'Release'), node('12', 'Other'), node('50', 'Something else')] }));
    assert.deepEqual(d, { kind: 'absent', reason: 'no-new-item-named' });
    assert.deepEqual(decideAdd(input({ children: [] })), { kind: 'absent', reason: 'no-new-item-named' });
  });

  it('undecided without metadata: the new items with its name are the candidates, with their subtrees (names compared trimmed)', () => {
    const d = decideAdd(input({ children: [node('11', 'Release'), droppedRelease(60), node('70', ' Release ')] }));
    assert.equal(d.kind, 'undecided');
    assert.deepEqual(d.kind === 'undecided' ? d.candidates : [], [
      { id: '60', name: 'Release', ids: ['60', '61', '62', '63'] },
      { id: '70', name: ' Release ', ids: ['70'] },
    ]);
  });

  it('an item sent without a key (its metadata was full, or by an earlier version) is found by name only, even where metadata is kept', () => {
    const full = Object.fromEntries(Array.from({ length: METADATA_LIMITS.entries }, (_, i) => [`k${i}`, 'v']));
    const item: AddWorkItemRequest = { fields: { ItemTypeId: '42', Name: 'Full' }, metadata: full };
    const d = decideAdd(input({ item, children: [node('80', 'Full', { metadata: full })] }));
    assert.deepEqual(d, { kind: 'undecided', candidates: [{ id: '80', name: 'Full', ids: ['80'] }] });
    // An earlier version sent no key and kept no snapshot: every item of its name is a candidate.
    const old = decideAdd({ item: release, parentId: '10', children: [node('11', 'Release', { metadata: { x: 'y' } })] });
    assert.deepEqual(old, { kind: 'undecided', candidates: [{ id: '11', name: 'Release', ids: ['11'] }] });
  });

  it('a candidate the user names becomes the add\'s answer: its IDs, the top one below the parent', () => {
    const answer = candidateAnswer({ id: '60', name: 'Release', ids: ['60', '61'] }, '10');
    assert.deepEqual(answer.items, [{ id: '60', parentId: '10', Name: 'Release' }, { id: '61' }]);
  });
});
