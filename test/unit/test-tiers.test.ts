// The reduced integration tiers of `npm test` (scripts/test.mjs) select their tests by a tag in the
// titles (mocha's grep on the full title): integration-plain runs the tests tagged @errors against
// sandboxes with plain errors, test-cli the tests tagged @cli under @vscode/test-cli's runner. This
// checks, from the steps scripts/test.mjs reports (`--list`) and the titles written in
// test/integration/*.test.ts, that each tier still passes its grep and that the grep still selects
// what the tier is for, and that no grep splits a suite whose tests build on one another. (At run
// time, test/integration/errorsTag.test.ts fails the integration tier when a test gets a failure
// answer from a server without carrying @errors.)
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
  /** The full title of the suite around it whose tests build on one another (see chainedSuites), if any. */
  chain?: string;
}

type Node = acorn.Node & Record<string, unknown>;

function titleOf(arg: Node | undefined): string | undefined {
  if (!arg) return undefined;
  if (arg.type === 'Literal' && typeof arg.value === 'string') return arg.value;
  if (arg.type === 'TemplateLiteral') return (arg.quasis as { value: { cooked: string } }[]).map((q) => q.value.cooked).join('${…}');
  return undefined;
}

function children(n: Node): unknown[] {
  return Object.entries(n)
    .filter(([key]) => key !== 'type' && key !== 'start' && key !== 'end')
    .map(([, value]) => value);
}

function visit(node: unknown, f: (n: Node, parent: Node | undefined) => boolean | void, parent?: Node): void {
  if (Array.isArray(node)) return node.forEach((n) => visit(n, f, parent));
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  const n = node as Node;
  if (f(n, parent) === false) return;
  for (const c of children(n)) visit(c, f, n);
}

/** The names a piece of code reads or writes (property names after a dot and object keys left out), and the ones it assigns. */
function namesIn(node: Node): { used: Set<string>; assigned: Set<string> } {
  const used = new Set<string>();
  const assigned = new Set<string>();
  visit(node, (n, parent) => {
    if (n.type === 'Identifier') {
      const isProperty = (parent?.type === 'MemberExpression' && parent.property === n && !parent.computed) || (parent?.type === 'Property' && parent.key === n && !parent.computed);
      if (!isProperty) used.add(n.name as string);
    }
    if (n.type === 'AssignmentExpression' && (n.left as Node).type === 'Identifier') assigned.add((n.left as Node).name as string);
    if (n.type === 'UpdateExpression' && (n.argument as Node).type === 'Identifier') assigned.add((n.argument as Node).name as string);
  });
  return { used, assigned };
}

const callName = (n: Node): string | undefined => (n.type === 'CallExpression' && (n.callee as Node).type === 'Identifier' ? ((n.callee as Node).name as string) : undefined);

/**
 * Whether the tests of a describe build on one another: a `let` of the describe's own body is set
 * by one test and used by another (the table one test opens and the next one edits). A grep that
 * takes some of such tests and not the others leaves them without what they build on.
 */
function chained(body: Node, tests: Node[]): boolean {
  const lets = new Set<string>();
  for (const st of (body.body ?? []) as Node[]) {
    if (st.type === 'VariableDeclaration' && st.kind === 'let') {
      for (const d of st.declarations as Node[]) if ((d.id as Node).type === 'Identifier') lets.add((d.id as Node).name as string);
    }
  }
  const names = tests.map((t) => namesIn(t));
  return names.some((a, i) => [...a.assigned].some((v) => lets.has(v) && names.some((b, j) => j !== i && b.used.has(v))));
}

/** Every describe/it call written in a file, each `it` with the titles of the describe calls around it. */
function testsOf(file: string): IntegrationTest[] {
  const js = esbuild.transformSync(fs.readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' }).code;
  const program = acorn.parse(js, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as Node;
  const out: IntegrationTest[] = [];
  const walk = (node: unknown, suites: string[], chain: string | undefined): void =>
    visit(node, (n) => {
      const name = callName(n);
      const args = (n.arguments ?? []) as Node[];
      const title = name === 'describe' || name === 'it' ? titleOf(args[0]) : undefined;
      if (title === undefined) return;
      if (name === 'it') {
        out.push({ file: path.basename(file), fullTitle: [...suites, title].join(' '), ...(chain === undefined ? {} : { chain }) });
        return false;
      }
      const inner = [...suites, title];
      const fn = args[1];
      const body = fn && (fn.type === 'FunctionExpression' || fn.type === 'ArrowFunctionExpression') ? (fn.body as Node) : undefined;
      const own: Node[] = [];
      if (body) {
        visit(body, (m) => {
          if (callName(m) === 'describe') return false;
          if (callName(m) === 'it') own.push(((m.arguments as Node[])[1] ?? m) as Node);
        });
      }
      walk(args.slice(1), inner, chain ?? (body && chained(body, own) ? inner.join(' ') : undefined));
      return false;
    });
  walk(program, [], undefined);
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

  it('a suite whose tests build on one another is taken whole or not at all by each tier (tag its describe)', () => {
    const chains = [...new Set(tests.flatMap((t) => (t.chain === undefined ? [] : [t.chain])))];
    assert.ok(chains.length > 0, 'the check finds such suites (the table suites build on the table opened by their first test)');
    for (const tier of ['integration-plain', 'test-cli']) {
      const { grep, selected } = selection(tier);
      const split = chains.filter((c) => {
        const own = tests.filter((t) => t.chain === c);
        const taken = own.filter((t) => selected.includes(t)).length;
        return taken > 0 && taken < own.length;
      });
      assert.deepEqual(split, [], `${tier} (${grep}) takes only some tests of these suites`);
    }
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
