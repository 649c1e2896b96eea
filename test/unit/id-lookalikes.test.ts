// Work item IDs with non-ASCII dots and slashes: a server with "best fit" or NFKC
// folding reads `．．／` as `../`, so no such ID passes the request-document check or
// the client's path builder.
import * as assert from 'node:assert/strict';
import { validateId, validateWorkItemIdForPath, workItemsPath, InvalidPathError } from '../../src/api/paths';
import { pathLookalike } from '../../src/schema/id-lookalikes';
import { validateRequestDocument } from '../../src/schema/document';
import { ERROR_CODES } from '../../src/schema/error-codes';

const LOOKALIKES: [string, string][] = [
  ['．．／', '.'], // full-width full stops and solidus: "../"
  ['．．', '.'],
  ['１２０／．．', '/'],
  ['a／b', '/'],
  ['a＼b', '\\'],
  ['‥', '..'], // TWO DOT LEADER
  ['a∕b', '/'], // DIVISION SLASH (no NFKC form)
  ['a⁄b', '/'], // FRACTION SLASH
  ['。。', '.'], // IDEOGRAPHIC FULL STOP
  ['﹒﹒', '.'], // SMALL FULL STOP
  ['％２ｅ', '%'],
  ['a？b', '?'],
  ['a＃b', '#'],
  ['120，121', ','],
];

describe('work item IDs: non-ASCII dots and slashes are refused', () => {
  for (const [id, reads] of LOOKALIKES) {
    it(`"${id}" is refused by the request document check, the ID check and the path builder (reads as "${reads}")`, () => {
      assert.equal(pathLookalike(id)?.reads, reads);
      const r = validateRequestDocument({ workItemIds: ['120', id], update: { moveScheduleDays: 1 } });
      const issue = r.issues.find((i) => i.code === 'ID_LOOKALIKE_CHARACTER');
      assert.ok(issue, JSON.stringify(r.issues));
      assert.equal(issue.severity, 'error');
      assert.deepEqual(issue.path, ['workItemIds', 1]);
      assert.match(issue.message, /is not valid: it contains ".+", which a server may read as/);
      assert.equal(r.document, undefined, 'a document with such an ID is never sent');
      assert.match(validateId(id) ?? '', /which a server may read as/);
      assert.ok(validateWorkItemIdForPath(id));
      assert.throws(() => workItemsPath(['120', id]), (e: unknown) => e instanceof InvalidPathError && e.index === 1);
    });
  }

  it('the same IDs in a comma-separated workItemIds text are refused too', () => {
    const r = validateRequestDocument({ workItemIds: '120, ．．／', update: { moveScheduleDays: 1 } });
    assert.ok(r.issues.some((i) => i.code === 'ID_LOOKALIKE_CHARACTER'), JSON.stringify(r.issues));
    assert.equal(r.document, undefined);
  });

  it('letters of any script, full-width digits included, stay valid IDs (they are encoded)', () => {
    for (const id of ['日本語ID', 'ä', 'タスク１', '１２０', '😀', 'a.b', '120']) {
      assert.equal(pathLookalike(id), undefined, id);
      assert.equal(validateId(id), undefined, id);
      const r = validateRequestDocument({ workItemIds: [id], update: { moveScheduleDays: 1 } });
      assert.ok(!r.issues.some((i) => i.code === 'ID_LOOKALIKE_CHARACTER'), id);
    }
    assert.equal(workItemsPath(['日本語ID']), '/workitem/workItems/%E6%97%A5%E6%9C%AC%E8%AA%9EID');
  });

  it('has an English template with the placeholders it is filled with', () => {
    assert.match(ERROR_CODES.ID_LOOKALIKE_CHARACTER.message, /\{id\}.*\{character\}.*\{reads\}/);
  });
});
