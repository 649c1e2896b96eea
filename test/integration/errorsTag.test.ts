// Keeps the @errors tag honest. The integration-plain tier (scripts/test.mjs) runs only the tests
// whose title carries @errors, against sandboxes that answer failures with a status and
// [{"message"}] only (--plain-errors). Those failure answers (status 400 or more, outside
// /_sandbox/) are the only answers the mode changes, so a test that gets none runs the same in
// both tiers, and a test that gets one must carry the tag to be run in the plain tier too.
// These root hooks watch every HTTP answer served in this extension host (the suites' sandboxes
// and the extension's Start Sandbox alike) and fail the run, after the last test, naming each
// untagged test that got a failure answer. Answers outside a test (before/after hooks of a
// suite) are not counted.
import * as http from 'node:http';

const TAG = /@errors\b/;
const seen = new Map<string, string[]>();
let current: string | undefined;

const originalEnd = http.ServerResponse.prototype.end;

before(() => {
  http.ServerResponse.prototype.end = function (this: http.ServerResponse, ...args: unknown[]) {
    const req = this.req as http.IncomingMessage | undefined;
    const path = (req?.url ?? '').split('?')[0]!;
    if (current !== undefined && this.statusCode >= 400 && !/^\/_sandbox(\/|$)/i.test(path)) {
      const list = seen.get(current) ?? [];
      list.push(`${req?.method ?? '?'} ${path} ${this.statusCode}`);
      seen.set(current, list);
    }
    return (originalEnd as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof originalEnd;
});

// Root hooks: beforeEach runs before the suites' own, afterEach after theirs, so the answers a
// test's own beforeEach/afterEach hooks provoke count for the test.
beforeEach(function () {
  current = this.currentTest?.fullTitle();
});

afterEach(() => {
  current = undefined;
});

after(() => {
  http.ServerResponse.prototype.end = originalEnd;
  const untagged = [...seen].filter(([title]) => !TAG.test(title));
  if (untagged.length === 0) return;
  // One line: the harness prints the first lines of an error's stack, which repeat a long message.
  const list = untagged.map(([title, answers]) => `"${title}" (${[...new Set(answers)].join(', ')})`).join('; ');
  throw new Error(
    `${untagged.length} test(s) got a failure answer from a server but do not carry @errors in their title, ` +
      `so the integration-plain tier (failures without codes) would skip them. Add " @errors" to each title ` +
      `(or to its describe), or, if the answer belongs to a read still running from an earlier test, to that one: ${list}`,
  );
});
