// The reduced integration tiers of `npm test` (scripts/test.mjs) select their tests by a tag in the
// titles (mocha's grep on the full title): integration-plain runs the tests tagged @errors against
// sandboxes with plain errors, test-cli the tests tagged @cli under @vscode/test-cli's runner. This
// checks, from the steps scripts/test.mjs reports (`--list`) and the titles written in
// test/integration/*.test.ts, that each tier still passes its grep and that the grep still selects
// what the tier is for. (At run time, test/integration/errorsTag.test.ts fails the integration
// tier when a test gets a failure answer from a server without carrying @errors.)
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as acorn from 'acorn';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..');
const INTEGRATION = path.join(ROOT, 'test', 'integration');

interface ListedStep {
  name: string;
  cmd: string;
  args: string[];
}

interface IntegrationTest {
  file: string;
  /** Suite titles and the test's own, joined by spaces as mocha's fullTitle() does; `${…}` for an expression in a template title. */
  fullTitle: string;
}

type Node = acorn.Node & Record<string, unknown>;

function titleOf(arg: Node | undefined): string | undefined {
  if (!arg) return undefined;
  if (arg.type === 'Literal' && typeof arg.value === 'string') return arg.value;
  if (arg.type === 'TemplateLiteral') return (arg.quasis as { value: { cooked: string } }[]).map((q) => q.value.cooked).join('${…}');
  return undefined;
}

/** Every describe/it call written in a file, each `it` with the titles of the describe calls around it. */
function testsOf(file: string): IntegrationTest[] {
  const js = esbuild.transformSync(fs.readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' }).code;
  const program = acorn.parse(js, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as Node;
  const out: IntegrationTest[] = [];
  const walk = (node: unknown, suites: string[]): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, suites));
    if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
    const n = node as Node;
    const callee = n.type === 'CallExpression' ? (n.callee as Node) : undefined;
    const name = callee?.type === 'Identifier' ? (callee.name as string) : undefined;
    const args = (n.arguments ?? []) as Node[];
    const title = name === 'describe' || name === 'it' ? titleOf(args[0]) : undefined;
    if (title !== undefined && name === 'it') out.push({ file: path.basename(file), fullTitle: [...suites, title].join(' ') });
    const inner = title !== undefined && name === 'describe' ? [...suites, title] : suites;
    for (const [key, value] of Object.entries(n)) if (key !== 'type' && key !== 'start' && key !== 'end') walk(value, inner);
  };
  walk(program, []);
  return out;
}

const steps = JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'test.mjs'), '--list'], { encoding: 'utf8', env: { ...process.env, WIS_TEST_TIERS: '' } })) as ListedStep[];
const tests = fs
  .readdirSync(INTEGRATION)
  .filter((f) => f.endsWith('.test.ts'))
  .sort()
  .flatMap((f) => testsOf(path.join(INTEGRATION, f)));

function step(name: string): ListedStep {
  const s = steps.find((x) => x.name === name);
  assert.ok(s, `scripts/test.mjs has a ${name} step: ${steps.map((x) => x.name).join(', ')}`);
  return s;
}

/** The offline runner's arguments of a step (after test/runners/offline.ts). */
function runnerArgs(name: string): string[] {
  const s = step(name);
  const at = s.args.indexOf('test/runners/offline.ts');
  assert.ok(at >= 0, `${name} runs test/runners/offline.ts: ${s.cmd} ${s.args.join(' ')}`);
  return s.args.slice(at + 1);
}

/** The --grep a step passes, and the tests it selects (as mocha does: the string is a regular expression on the full title). */
function selection(name: string): { grep: string; selected: IntegrationTest[] } {
  const args = runnerArgs(name);
  const at = args.indexOf('--grep');
  assert.ok(at >= 0 && args[at + 1], `${name} passes --grep to the runner: ${args.join(' ')}`);
  const grep = args[at + 1]!;
  const re = new RegExp(grep);
  return { grep, selected: tests.filter((t) => re.test(t.fullTitle)) };
}

const filesOf = (list: IntegrationTest[]) => [...new Set(list.map((t) => t.file))].sort();

describe('npm test: what each integration tier runs', () => {
  it('reads the titles of the integration suites (a parse that finds no test would let every check below pass)', () => {
    assert.ok(tests.length > 150, `${tests.length} tests found`);
    assert.ok(tests.some((t) => t.fullTitle === 'activation @cli activates without error'), 'suite titles are joined to the test title');
  });

  it('the integration tier runs every test: no --grep, no other mode', () => {
    assert.deepEqual(runnerArgs('integration'), []);
  });

  it('integration-plain passes --plain-errors and the @errors grep; the selection is not empty and holds every test of plainErrors.test.ts and messages.test.ts', () => {
    assert.ok(runnerArgs('integration-plain').includes('--plain-errors'));
    const { grep, selected } = selection('integration-plain');
    assert.equal(grep, '@errors');
    assert.ok(selected.length >= 10, `${selected.length} tests tagged ${grep}`);
    for (const file of ['plainErrors.test.ts', 'messages.test.ts']) {
      const all = tests.filter((t) => t.file === file);
      assert.ok(all.length > 0, `${file} has tests`);
      assert.deepEqual(all.filter((t) => !selected.includes(t)).map((t) => t.fullTitle), [], `every test of ${file} is tagged ${grep}`);
    }
    // Error paths of more than the message suites: sign-in refusals, missing items, failed loads.
    assert.ok(filesOf(selected).length >= 5, `files with ${grep} tests: ${filesOf(selected).join(', ')}`);
  });

  it('test-cli passes --test-cli and the @cli grep: every activation test and a test that sends a document, a small share of the suites', () => {
    assert.ok(runnerArgs('test-cli').includes('--test-cli'));
    const { grep, selected } = selection('test-cli');
    assert.equal(grep, '@cli');
    const activation = tests.filter((t) => t.file === 'activation.test.ts');
    assert.deepEqual(activation.filter((t) => !selected.includes(t)).map((t) => t.fullTitle), [], `every activation test is tagged ${grep}`);
    assert.ok(
      selected.some((t) => t.file === 'requests.test.ts' && /sends a good document/.test(t.fullTitle)),
      `a document sent to the sandbox is among the ${grep} tests: ${selected.map((t) => t.fullTitle).join('; ')}`,
    );
    assert.ok(selected.length < tests.length / 5, `${selected.length} of ${tests.length} tests tagged ${grep}: the tier checks the runner, the integration tier the extension`);
  });

  it('every tag in a title is one a tier selects (a misspelt tag selects nothing)', () => {
    const greps = ['integration-plain', 'test-cli'].map((n) => new RegExp(selection(n).grep));
    const unknown = tests.flatMap((t) => (t.fullTitle.match(/@[A-Za-z][\w-]*/g) ?? []).filter((tag) => !greps.some((g) => g.test(tag))).map((tag) => `${tag} in "${t.fullTitle}"`));
    assert.deepEqual(unknown, []);
  });

  it('the run-time check of the integration tier (errorsTag.test.ts) looks for the tag that integration-plain selects', () => {
    const text = fs.readFileSync(path.join(INTEGRATION, 'errorsTag.test.ts'), 'utf8');
    const m = /const TAG = \/(.+)\/;/.exec(text);
    assert.ok(m, 'errorsTag.test.ts declares its TAG');
    const tag = new RegExp(m[1]!);
    const { grep, selected } = selection('integration-plain');
    assert.ok(tag.test(grep), `${tag} matches ${grep}`);
    assert.ok(selected.every((t) => tag.test(t.fullTitle)), 'every test the tier selects passes the check');
  });
});
