import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Every UI string exists in English and Japanese: manifest strings through
// package.nls*.json, code strings through vscode.l10n.t and l10n/bundle.l10n.ja.json.

const root = path.resolve(__dirname, '..', '..');
const readJson = (p: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));

function manifestKeys(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    const m = /^%([^%]+)%$/.exec(value);
    if (m) found.add(m[1]);
  } else if (Array.isArray(value)) {
    value.forEach((v) => manifestKeys(v, found));
  } else if (value && typeof value === 'object') {
    Object.values(value).forEach((v) => manifestKeys(v, found));
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** String literals passed as the first argument of `l10n.t(`; template literals are reported as errors. */
export function l10nStrings(code: string): { strings: string[]; nonLiteral: string[] } {
  const source = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  const strings: string[] = [];
  const nonLiteral: string[] = [];
  const re = /\bl10n\.t\(\s*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    const start = re.lastIndex;
    const quote = source[start];
    if (quote !== "'" && quote !== '"') {
      if (quote === '{') continue; // l10n.t({ message, args, comment }) form
      nonLiteral.push(source.slice(start, start + 40));
      continue;
    }
    let i = start + 1;
    let text = '';
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') {
        const next = source[i + 1];
        text += next === 'n' ? '\n' : next === 't' ? '\t' : next;
        i += 2;
      } else {
        text += source[i++];
      }
    }
    strings.push(text);
  }
  return { strings, nonLiteral };
}

/** True for text with English words and no Japanese character, after removing names that stay as they are. */
export function looksUntranslated(text: string): boolean {
  const stripped = text
    .replace(/\{\d+\}/g, '')
    .replace(/Work Item Studio|JSON|VSIX|URL|ID|CodeLens|Basic|Bearer|HTTP|HTTPS|TLS|CA|DNS|API|\$\([a-z-]+\)/g, '')
    .replace(/`[^`]*`/g, '')
    .replace(/https?:\/\/\S+/g, '');
  return /[A-Za-z]{3,}/.test(stripped) && !/[\u3040-\u30ff\u3400-\u9fff]/.test(stripped);
}

describe('localization', () => {
  const manifest = readJson('package.json');
  const nls = readJson('package.nls.json');
  const nlsJa = readJson('package.nls.ja.json');

  it('every %key% of the manifest has an English string', () => {
    const missing = [...manifestKeys(manifest)].filter((k) => typeof nls[k] !== 'string');
    assert.deepEqual(missing, [], `missing in package.nls.json: ${missing.join(', ')}`);
  });

  it('every %key% of the manifest has a Japanese string', () => {
    const missing = [...manifestKeys(manifest)].filter((k) => typeof nlsJa[k] !== 'string');
    assert.deepEqual(missing, [], `missing in package.nls.ja.json: ${missing.join(', ')}`);
  });

  it('package.nls.ja.json has no key that package.nls.json lacks', () => {
    const extra = Object.keys(nlsJa).filter((k) => !(k in nls));
    assert.deepEqual(extra, [], `stale keys in package.nls.ja.json: ${extra.join(', ')}`);
  });

  it('every vscode.l10n.t string in src has a Japanese translation', () => {
    const bundle = readJson('l10n/bundle.l10n.ja.json');
    const missing = new Set<string>();
    const nonLiteral: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      const found = l10nStrings(fs.readFileSync(file, 'utf8'));
      for (const s of found.strings) if (typeof bundle[s] !== 'string') missing.add(`${path.relative(root, file)}: ${s}`);
      nonLiteral.push(...found.nonLiteral.map((s) => `${path.relative(root, file)}: ${s}`));
    }
    assert.deepEqual(nonLiteral, [], 'l10n.t must be called with a string literal so it can be translated');
    assert.deepEqual([...missing], [], 'missing in l10n/bundle.l10n.ja.json');
  });

  it('no Japanese string is left in English', () => {
    const bundle = readJson('l10n/bundle.l10n.ja.json');
    const all: Record<string, unknown> = { ...nlsJa, ...bundle };
    const english = Object.entries(all).filter(([, v]) => typeof v === 'string' && looksUntranslated(v));
    assert.deepEqual(english.map(([k]) => k), [], 'Japanese strings that are still English');
  });

  it('the l10n.t extractor reads literals, escapes and skips message objects', () => {
    const r = l10nStrings(`vscode.l10n.t('a {0}', x); l10n.t("it\\'s"); l10n.t({ message: 'm', args: [], comment: [] }); l10n.t(name)`);
    assert.deepEqual(r.strings, ['a {0}', "it's"]);
    assert.equal(r.nonLiteral.length, 1);
  });
});
