// Which placeholders of the l10n bundle hold text (words that are Japanese in the Japanese
// UI: itemsText(...), another l10n.t result, a field's or a person's name) and which hold
// numbers or what reads like them (counts, IDs, times, URLs, file names). Japanese typography
// differs between the two (l10n/glossary.json "typography"): "{0} 件" but "{0}を元に戻します";
// and by end: itemsText(3) = "3 件" starts as a number and ends as a word ("に {0}を").
//
// Derived from src/ by a small static analysis, so it cannot go stale: every
// vscode.l10n.t('key', a0, a1, ...) call is found with the TypeScript compiler API (the
// linter's TypeScript 6, scripts/lint; the project's TypeScript 7 has no compiler API) and
// each argument expression is classified from its type (number), from where its value comes
// from (a call of l10n.t, whose Japanese translation gives the value's ends; a function's
// return expressions; a variable's initializer; what the callers pass for a parameter; what
// src/ gives a property of its interfaces; the parts of a template), and at last from its name
// (name, label, title → text; id, url, path, date → number). Arguments it cannot decide are
// "unknown"; l10n/glossary.json "placeholders" decides them (with a reason), and the tests fail
// on any left undecided beside Japanese text. The spacing rules that use the result are in
// ./l10n-spacing.ts. `npx tsx test/unit/l10n-placeholders.ts` prints every use and why.

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
// The types of the linter's TypeScript 6 (the project's own TypeScript 7 declares no compiler API).
import type * as TS from '../../scripts/lint/node_modules/typescript/lib/typescript';

/**
 * What a placeholder holds, by the two ends of its Japanese value: "number" (digits or Latin
 * letters at both ends: a count, an ID, a URL), "text" (Japanese at both ends: a name, a kind
 * of change), "count" (a number first, a Japanese counter last: itemsText(3) = "3 件"),
 * "text-number" (the other way round).
 */
export type PlaceholderKind = 'number' | 'text' | 'count' | 'text-number';
export type Classified = PlaceholderKind | 'unknown';
/** What the analysis finds of one argument: a number, or text (translations, names, composed strings), or unknown. */
type Found = 'number' | 'text' | 'unknown';

/** One argument of one call: where it is, its source text and what the analysis found. */
export interface PlaceholderUse {
  key: string;
  placeholder: string;
  file: string;
  line: number;
  expression: string;
  kind: Found;
  why: string;
  /**
   * For text: what each end of the value may be: "number" (a digit, a Latin letter), "text"
   * (Japanese, a name), or "key:<l10n key>" (that translation's end).
   */
  starts: string[];
  ends: string[];
}

const root = path.resolve(__dirname, '..', '..');

function loadTypeScript(): typeof TS {
  const lint = createRequire(path.join(root, 'scripts', 'lint', 'package.json'));
  return lint('typescript') as typeof TS;
}

/** Names whose values are numbers or read like them (IDs, URLs, paths, times), as whole words of a camelCase name. */
const NUMBER_NAME = /(?:^|[a-z_])(?:id|ids|Id|Ids|ID|IDs|url|Url|URL|uri|Uri|path|Path|file|File|host|Host|time|Time|date|Date|at|At|count|Count|total|Total|index|Index|line|Line|port|Port|status|login|Login|loginName|LoginName|version|Version|number|Number|seconds|Seconds|minutes|Minutes|hours|Hours|millis|size|Size|length|Length|max|Max|min|Min|limit|Limit|key|Key|code|Code|job|Job|variable|Variable|env|Env|origin|Origin|range|Range)$/;
/** Names whose values are words a person reads (translated in the Japanese UI, or names). */
const TEXT_NAME = /(?:^|[a-z_])(?:name|Name|names|Names|label|Label|labels|Labels|title|Title|text|Text|texts|Texts|reason|Reason|message|Message|detail|Detail|details|Details|kind|Kind|description|Description|summary|Summary|phrase|Phrase|what|What|where|Where|list|List|display|Display|caption|Caption|heading|Heading|word|Word|words|Words|service|Service|sandbox|Sandbox|who|Who|person|Person|people|People|user|User|users|Users|project|Project|organization|Organization|field|Field|fields|Fields|condition|Condition|filter|Filter|error|Error|problem|Problem|outcome|Outcome|header|Header|items|Items|requests|Requests|workItems|WorkItems|problems|Problems|change|Change|changes|Changes|direction|Direction|value|Value|values|Values|status|Status|state|State|type|Type|target|Target|category|Category|group|Group|role|Role)$/;
/** Functions whose results are text in the display language or names. */
const TEXT_FUNCTION = /(?:Text|Label|Name|Names|Title|Phrase|Message|Summary|Description|Reason|Words|List|describe\w*|localize\w*|label\w*|name\w*|phrase\w*|words\w*|summar\w*|text\w*)$/;
/** Functions whose results are numbers or read like them. */
const NUMBER_FUNCTION = /^(?:String|Number|toFixed|toString|toLocaleString|toLocaleTimeString|toLocaleDateString|toISOString|format(?:Time|Date|Hours|Minutes|Number|Duration|Count|Size|Bytes|Seconds)\w*|\w*(?:Time|Date|Hours|Minutes|Seconds|Url|Uri|Path|Id|Ids|Count))$/;

interface Analysis {
  ts: typeof TS;
  checker: TS.TypeChecker;
  visiting: Set<TS.Node>;
  /** The calls in src/ of each function (declaration, or the arrow/function expression a name is bound to). */
  callsOf: Map<TS.Node, TS.CallExpression[]>;
  /** The calls in src/ of each method or function-valued property of an interface (`strings.title(name)`). */
  callsOfMember: Map<TS.Symbol, TS.CallExpression[]>;
  /** Where src/ gives a property named so a value (`{ p: v }`, `x.p = v`); resolved to its interface's property on demand. */
  givenByName: Map<string, (TS.PropertyAssignment | TS.ShorthandPropertyAssignment | TS.BinaryExpression)[]>;
  /** Whether a declaration is in src/. */
  inSrc: (d: TS.Declaration) => boolean;
}

/**
 * The values src/ gives a property of one of its interfaces (object literals of that type, `x.p = v`),
 * also through Pick<> and intersections (their properties' root symbols).
 */
function valuesGiven(a: Analysis, property: TS.Symbol): TS.Expression[] {
  const ts = a.ts;
  const roots = new Set(a.checker.getRootSymbols(property));
  if (![...roots].some((r) => r.declarations?.some(a.inSrc))) return [];
  const same = (s: TS.Symbol | undefined): boolean => !!s && a.checker.getRootSymbols(s).some((r) => roots.has(r));
  const out: TS.Expression[] = [];
  for (const node of a.givenByName.get(property.name) ?? []) {
    if (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) {
      const type = a.checker.getContextualType(node.parent as TS.ObjectLiteralExpression);
      const types = type?.isUnion() ? type.types : type ? [type] : [];
      if (types.some((t) => same(t.getProperty(property.name)))) out.push(ts.isPropertyAssignment(node) ? node.initializer : node.name);
    } else if (ts.isPropertyAccessExpression(node.left) && same(a.checker.getSymbolAtLocation(node.left.name))) out.push(node.right);
  }
  return out;
}

interface Verdict {
  kind: Found;
  why: string;
  starts?: string[];
  ends?: string[];
}

const unknown = (why: string): Verdict => ({ kind: 'unknown', why });
/** Text of which nothing more is known (a name): Japanese at both ends. */
const text = (why: string): Verdict => ({ kind: 'text', why, starts: ['text'], ends: ['text'] });
/** The end a character gives a value: half-width (a digit, a Latin letter, "(") is spaced like a number; a space or Japanese is not. */
const edgeOfChar = (c: string): string => (/[!-~]/.test(c) ? 'number' : 'text');
/** The ends of a text verdict (a number verdict: number; unknown: text). */
const startsOf = (v: Verdict): string[] => (v.kind === 'number' ? ['number'] : (v.starts ?? ['text']));
const endsOf = (v: Verdict): string[] => (v.kind === 'number' ? ['number'] : (v.ends ?? ['text']));
/** Text made of parts: it starts as its first part and ends as its last. */
function joined(why: string, first: { text: string } | Verdict, last: { text: string } | Verdict): Verdict {
  const start = 'why' in first ? startsOf(first) : [edgeOfChar(first.text.charAt(0))];
  const end = 'why' in last ? endsOf(last) : [edgeOfChar(last.text.charAt(last.text.length - 1))];
  return { kind: 'text', why, starts: start, ends: end };
}

function merge(a: Verdict, b: Verdict): Verdict {
  if (a.why === 'nothing') return b;
  if (b.why === 'nothing') return a;
  if (a.kind === 'text' && b.kind === 'text') return { kind: 'text', why: a.why === b.why ? a.why : `${a.why} | ${b.why}`, starts: [...new Set([...startsOf(a), ...startsOf(b)])], ends: [...new Set([...endsOf(a), ...endsOf(b)])] };
  if (a.kind === 'text' || b.kind === 'text') return a.kind === 'text' ? a : b;
  if (a.kind === 'number' && b.kind === 'number') return a;
  return a.kind === 'unknown' ? a : b;
}

/** A verdict seen through a step of the analysis ("x = ...", "f() returns ..."). */
const via = (v: Verdict, why: string): Verdict => ({ ...v, why });

function byName(name: string, what: string): Verdict | undefined {
  // Login names and file names (which end with their extension) are written in Latin letters, as IDs are.
  if (/(?:^|[a-z])(?:loginName|LoginName|fileName|FileName|basename|pathname|hostname)$/.test(name)) return { kind: 'number', why: `${what} ${name}` };
  if (NUMBER_NAME.test(name) && !/(?:Name|name|Names|names|Text|Label)$/.test(name)) return { kind: 'number', why: `${what} ${name}` };
  if (TEXT_NAME.test(name)) return text(`${what} ${name}`);
  return undefined;
}

function isNumberType(a: Analysis, type: TS.Type): boolean {
  const ts = a.ts;
  if (type.isUnion()) return type.types.every((t) => isNumberType(a, t) || (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) !== 0);
  return (type.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) !== 0;
}

/** The expressions a function declaration returns (arrow bodies included). */
function returnedExpressions(a: Analysis, fn: TS.SignatureDeclaration): TS.Expression[] {
  const ts = a.ts;
  const body = (fn as TS.FunctionLikeDeclarationBase).body;
  if (!body) return [];
  if (!ts.isBlock(body)) return [body];
  const out: TS.Expression[] = [];
  const walk = (n: TS.Node): void => {
    if (ts.isReturnStatement(n)) {
      if (n.expression) out.push(n.expression);
    } else if (!ts.isFunctionLike(n)) n.forEachChild(walk);
  };
  body.forEachChild(walk);
  return out;
}

function classifyDeclaration(a: Analysis, decl: TS.Declaration, name: string): Verdict {
  const ts = a.ts;
  if (ts.isVariableDeclaration(decl) && decl.initializer && !ts.isObjectBindingPattern(decl.name) && !ts.isArrayBindingPattern(decl.name)) {
    const v = classify(a, decl.initializer);
    if (v.kind !== 'unknown') return via(v, `${name} = ${v.why}`);
  }
  if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl) || ts.isArrowFunction(decl) || ts.isFunctionExpression(decl)) {
    let v: Verdict | undefined;
    for (const r of returnedExpressions(a, decl)) v = v ? merge(v, classify(a, r)) : classify(a, r);
    if (v && v.kind !== 'unknown') return via(v, `${name}() returns ${v.why}`);
  }
  if (ts.isParameter(decl) && !decl.dotDotDotToken && ts.isFunctionLike(decl.parent)) {
    // A parameter: what the function's callers in src/ pass.
    const index = decl.parent.parameters.indexOf(decl);
    let v: Verdict | undefined;
    const calls = [...(a.callsOf.get(decl.parent) ?? [])];
    // A function given as a property of an object literal (`{ title: (n) => ... }`): the calls of that property of its interface.
    const holder = decl.parent.parent;
    if (ts.isPropertyAssignment(holder) && ts.isObjectLiteralExpression(holder.parent) && (ts.isIdentifier(holder.name) || ts.isStringLiteral(holder.name))) {
      const type = a.checker.getContextualType(holder.parent);
      for (const t of type?.isUnion() ? type.types : type ? [type] : []) {
        const member = t.getProperty(holder.name.text);
        if (member) calls.push(...(a.callsOfMember.get(member) ?? []));
      }
    }
    for (const call of calls) {
      const arg = call.arguments[index];
      if (arg) v = v ? merge(v, classify(a, arg)) : classify(a, arg);
    }
    if (v && v.kind !== 'unknown') return via(v, `${name} = what callers pass: ${v.why}`);
  }
  return byName(name, 'named') ?? unknown(`${ts.SyntaxKind[decl.kind]} ${name}`);
}

function calleeName(a: Analysis, callee: TS.Expression): string {
  const ts = a.ts;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return '';
}

/** How one argument expression of a vscode.l10n.t call is classified. */
function classify(a: Analysis, expression: TS.Expression): Verdict {
  const ts = a.ts;
  let e = expression;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  if (a.visiting.has(e)) return unknown('cycle');
  a.visiting.add(e);
  try {
    if (isNumberType(a, a.checker.getTypeAtLocation(e))) return { kind: 'number', why: 'number type' };
    if ((ts.isIdentifier(e) && e.text === 'undefined') || e.kind === ts.SyntaxKind.NullKeyword) return { kind: 'number', why: 'nothing' };
    if (ts.isNumericLiteral(e)) return { kind: 'number', why: 'number literal' };
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return /[\u3040-\u30ff\u3400-\u9fff]|[A-Za-z]{2,} [A-Za-z]/.test(e.text) ? text('literal text') : { kind: 'number', why: `literal ${JSON.stringify(e.text)}` };
    if (ts.isTemplateExpression(e)) {
      let v: Verdict = { kind: 'number', why: 'template' };
      const spans = e.templateSpans.map((s) => classify(a, s.expression));
      for (const x of spans) v = merge(v, x);
      if (v.kind !== 'text') return v;
      const last = e.templateSpans[e.templateSpans.length - 1]!.literal;
      return joined(`template with ${v.why}`, e.head.text ? e.head : spans[0]!, last.text ? last : spans[spans.length - 1]!);
    }
    if (ts.isConditionalExpression(e)) return merge(classify(a, e.whenTrue), classify(a, e.whenFalse));
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === ts.SyntaxKind.PlusToken) {
        const left = classify(a, e.left);
        const right = classify(a, e.right);
        const v = merge(left, right);
        return v.kind === 'text' ? joined(`concatenation with ${v.why}`, left, right) : v;
      }
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) return merge(classify(a, e.left), classify(a, e.right));
    }
    if (ts.isCallExpression(e)) {
      const name = calleeName(a, e.expression);
      const callee = e.expression.getText();
      if (/(?:^|\.)l10n\.t$/.test(callee)) {
        const first = e.arguments[0];
        return first && ts.isStringLiteralLike(first) ? { kind: 'text', why: 'l10n.t', starts: [`key:${first.text}`], ends: [`key:${first.text}`] } : text('l10n.t of a message object');
      }
      // Array and string methods: what the receiver holds.
      if (ts.isPropertyAccessExpression(e.expression) && /^(?:join|slice|trim|padStart|padEnd|toUpperCase|toLowerCase|concat|filter|sort|at|pop|shift|find|split|replace|replaceAll|substring)$/.test(name)) {
        const receiver = e.expression.expression;
        if (ts.isCallExpression(receiver) && calleeName(a, receiver.expression) === 'map' && receiver.arguments[0] && (ts.isArrowFunction(receiver.arguments[0]) || ts.isFunctionExpression(receiver.arguments[0]))) {
          let v: Verdict | undefined;
          for (const r of returnedExpressions(a, receiver.arguments[0])) v = v ? merge(v, classify(a, r)) : classify(a, r);
          if (v) return via(v, `${name} of map to ${v.why}`);
        }
        const v = classify(a, receiver);
        return via(v, `${name} of ${v.why}`);
      }
      if (name === 'String' && e.arguments[0]) return classify(a, e.arguments[0]);
      if (name && (/(?:^|[a-z])(?:fileName|FileName|loginName|LoginName|basename)$/.test(name) || (NUMBER_FUNCTION.test(name) && !TEXT_FUNCTION.test(name)))) return { kind: 'number', why: `${name}()` };
      // A function of the project: what it returns.
      const symbol = a.checker.getSymbolAtLocation(e.expression);
      const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? a.checker.getAliasedSymbol(symbol) : symbol;
      for (const d of target?.declarations ?? []) {
        if (d.getSourceFile().fileName.includes(`${path.sep}src${path.sep}`) && (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || (ts.isVariableDeclaration(d) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))))) {
          const fn = ts.isVariableDeclaration(d) ? (d.initializer as TS.ArrowFunction) : d;
          let v: Verdict | undefined;
          for (const r of returnedExpressions(a, fn)) v = v ? merge(v, classify(a, r)) : classify(a, r);
          if (v && v.kind !== 'unknown') return via(v, `${name}() returns ${v.why}`);
        }
      }
      if (name && TEXT_FUNCTION.test(name)) return text(`${name}()`);
      return byName(name, 'call of') ?? unknown(`call of ${callee}`);
    }
    if (ts.isIdentifier(e)) {
      // `{ name }`: the variable, not the property.
      const symbol = ts.isShorthandPropertyAssignment(e.parent) ? a.checker.getShorthandAssignmentValueSymbol(e.parent) : a.checker.getSymbolAtLocation(e);
      const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? a.checker.getAliasedSymbol(symbol) : symbol;
      const decl = target?.valueDeclaration ?? target?.declarations?.[0];
      if (decl) return classifyDeclaration(a, decl, e.text);
      return byName(e.text, 'named') ?? unknown(`identifier ${e.text}`);
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const name = ts.isPropertyAccessExpression(e) ? e.name.text : '';
      const found = a.checker.getSymbolAtLocation(ts.isPropertyAccessExpression(e) ? e.name : e);
      // A name of the core (`core().NAME`) is a re-export: the declaration it names.
      const symbol = found && found.flags & ts.SymbolFlags.Alias ? a.checker.getAliasedSymbol(found) : found;
      const decl = symbol?.valueDeclaration;
      if (decl && (ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl)) && decl.initializer && decl.getSourceFile().fileName.includes(`${path.sep}src${path.sep}`)) {
        const v = classify(a, decl.initializer);
        if (v.kind !== 'unknown') return v;
      }
      // A name that says number (an ID, a date, a URL) is one; else a property of an interface is what src/ gives it.
      const named = byName(name, 'member');
      if (named?.kind === 'number') return named;
      let given: Verdict | undefined;
      for (const value of symbol ? valuesGiven(a, symbol) : []) given = given ? merge(given, classify(a, value)) : classify(a, value);
      if (given && given.kind !== 'unknown') return via(given, `.${name} is given ${given.why}`);
      return named ?? (ts.isElementAccessExpression(e) ? classify(a, e.expression) : unknown(`member ${e.getText()}`));
    }
    return unknown(ts.SyntaxKind[e.kind]);
  } finally {
    a.visiting.delete(e);
  }
}

/** Every .ts file under src/. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

let analysed: PlaceholderUse[] | undefined;

/** Each placeholder of each positional vscode.l10n.t('key', ...args) call in src/, classified (once per process). */
export function analysePlaceholders(): PlaceholderUse[] {
  analysed ??= analyse();
  return analysed;
}

function analyse(): PlaceholderUse[] {
  const ts = loadTypeScript();
  const files = sourceFiles(path.join(root, 'src'));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    resolveJsonModule: true,
    esModuleInterop: true,
    types: ['node'],
    lib: ['lib.es2023.d.ts'],
  });
  const checker = program.getTypeChecker();
  const inSrc = (d: TS.Declaration): boolean => files.includes(path.resolve(d.getSourceFile().fileName));
  const a: Analysis = { ts, checker, visiting: new Set(), callsOf: new Map(), callsOfMember: new Map(), givenByName: new Map(), inSrc };
  const give = (name: string, node: TS.PropertyAssignment | TS.ShorthandPropertyAssignment | TS.BinaryExpression): void => {
    a.givenByName.set(name, [...(a.givenByName.get(name) ?? []), node]);
  };
  for (const sf of program.getSourceFiles()) {
    if (!files.includes(path.resolve(sf.fileName))) continue;
    const collect = (node: TS.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
        const symbol = checker.getSymbolAtLocation(callee);
        const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        for (const d of target?.declarations ?? []) {
          const init = (ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)) ? d.initializer : undefined;
          const fn = init ?? (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) ? d : undefined);
          if (fn) a.callsOf.set(fn, [...(a.callsOf.get(fn) ?? []), node]);
        }
        if (target) a.callsOfMember.set(target, [...(a.callsOfMember.get(target) ?? []), node]);
      }
      if (ts.isPropertyAssignment(node) && ts.isObjectLiteralExpression(node.parent) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) give(node.name.text, node);
      if (ts.isShorthandPropertyAssignment(node)) give(node.name.text, node);
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) give(node.left.name.text, node);
      node.forEachChild(collect);
    };
    collect(sf);
  }
  const out: PlaceholderUse[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!files.includes(path.resolve(sf.fileName))) continue;
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node) && /(?:^|\.)l10n\.t$/.test(node.expression.getText(sf)) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
        const key = node.arguments[0].text;
        node.arguments.slice(1).forEach((arg, i) => {
          const placeholder = `{${i}}`;
          if (!key.includes(placeholder)) return;
          const v = classify(a, arg);
          out.push({ key, placeholder, file: path.relative(root, sf.fileName), line: sf.getLineAndCharacterOfPosition(arg.getStart(sf)).line + 1, expression: arg.getText(sf), kind: v.kind, why: v.why, starts: v.kind === 'text' ? startsOf(v) : [], ends: v.kind === 'text' ? endsOf(v) : [] });
        });
      }
      node.forEachChild(visit);
    };
    visit(sf);
  }
  return out;
}

if (require.main === module) {
  const t0 = Date.now();
  const uses = analysePlaceholders();
  for (const u of uses) console.log(`${u.kind.padEnd(7)} ${u.file}:${u.line} ${JSON.stringify(u.key)} ${u.placeholder} = ${u.expression.replace(/\s+/g, ' ').slice(0, 70)}  [${u.why}]`);
  console.error(`${uses.length} uses, ${uses.filter((u) => u.kind === 'unknown').length} unknown, ${Date.now() - t0} ms`);
}
