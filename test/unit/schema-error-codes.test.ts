// The one table of problem codes: client checks and the sandbox's update engine.
import * as assert from 'node:assert/strict';
import { ERROR_CODES, fillTemplate, formatErrorCode, isErrorCode } from '../../src/schema/error-codes';
import { SANDBOX_ERROR_CODES, SANDBOX_SHARED_CLIENT_CODES } from '../../src/schema/sandbox-error-codes';

describe('schema error codes', () => {
  it('holds the sandbox codes, and the shared ones say both sides produce them', () => {
    for (const code of Object.keys(SANDBOX_ERROR_CODES)) assert.ok(isErrorCode(code), code);
    for (const code of Object.keys(SANDBOX_SHARED_CLIENT_CODES)) {
      assert.ok(isErrorCode(code), code);
      assert.deepEqual([...ERROR_CODES[code].producedBy].sort(), ['client', 'sandbox'], code);
    }
  });

  it('every client code has a severity and a non-empty English template', () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      assert.ok(info.message.length > 10, code);
      if ((info.producedBy as readonly string[]).includes('client')) assert.ok('severity' in info, `${code} has no severity`);
    }
  });

  it('templates are filled like vscode.l10n.t fills them', () => {
    assert.equal(fillTemplate('a {x} b {y}', { x: 1 }), 'a 1 b {y}');
    assert.equal(formatErrorCode('ORDER_WITHOUT_PARENT', { member: 'orderLast' }), '"orderLast" needs "moveParentTo": name the parent item to move under.');
    assert.equal(isErrorCode('toString'), false);
  });
});
