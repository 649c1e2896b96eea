import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { NETWORK_REASON_TEXT } from '../../src/api/errors';
import { createSandbox, SANDBOX_HTTP_ERROR_CODES, type Sandbox } from '../../src/sandbox';
import { ERROR_CODES, isErrorCode } from '../../src/schema/error-codes';
import { PHRASE_KEYS } from '../../src/schema/param-phrases';
import { bearer, call, signIn } from './sandbox-server-fixtures';

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
  while (re.exec(source)) {
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
    .replace(/https?:\/\/\S+/g, '')
    // A file in the extension (the Japanese JSON Schema's path), not prose.
    .replace(/^\.\/[\w./-]+$/, '');
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

  it('every key of l10n/bundle.l10n.ja.json and l10n/bundle.l10n.json is used by a vscode.l10n.t call in src (no stale key)', () => {
    // The keys the code looks up: the literal of every l10n.t('...{0}...', ...) call (its placeholders
    // are part of the key), and the tables that l10n.t({ message, args }) translates (problem
    // templates, network reasons, problem phrases).
    const used = new Set<string>([...Object.values(ERROR_CODES).map((c) => c.message), ...Object.values(NETWORK_REASON_TEXT), ...PHRASE_KEYS]);
    for (const file of sourceFiles(path.join(root, 'src'))) for (const s of l10nStrings(fs.readFileSync(file, 'utf8')).strings) used.add(s);
    const stale = ['l10n/bundle.l10n.ja.json', 'l10n/bundle.l10n.json']
      .filter((f) => fs.existsSync(path.join(root, f)))
      .flatMap((f) => Object.keys(readJson(f)).filter((k) => !used.has(k)).map((k) => `${f}: ${k}`));
    assert.deepEqual(stale, [], 'keys no source uses (remove them, or use them)');
  });

  it('the stale-key check sees the keys of message objects and multi-line calls', () => {
    const r = l10nStrings(`vscode.l10n.t(\n  'puts back the {0} of {1}',\n  undoKindText(kind), itemsText(items)); vscode.l10n.t({ message: ERROR_CODES[code].message, args, comment: [] })`);
    assert.deepEqual(r.strings, ['puts back the {0} of {1}']);
    assert.ok(PHRASE_KEYS.includes('{0} or {1}'));
    assert.ok(Object.values(ERROR_CODES).length > 20);
  });

  it('no Japanese string is left in English', () => {
    const bundle = readJson('l10n/bundle.l10n.ja.json');
    const all: Record<string, unknown> = { ...nlsJa, ...bundle };
    const english = Object.entries(all).filter(([, v]) => typeof v === 'string' && looksUntranslated(v));
    assert.deepEqual(english.map(([k]) => k), [], 'Japanese strings that are still English');
  });

  it('no l10n.t({ message, args, comment }) call has a comment (VS Code then looks up "message/comment", not the English key)', () => {
    const withComment: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      const source = fs.readFileSync(file, 'utf8');
      for (const m of source.matchAll(/\bl10n\.t\(\s*\{[^}]*\bcomment\s*:\s*(\[[^\]]*\]|'[^']*'|"[^"]*"|`[^`]*`)/g)) {
        if (!/^\[\s*\]$|^(['"`])\1$/.test(m[1]!)) withComment.push(`${path.relative(root, file)}: ${m[0].slice(0, 80)}`);
      }
    }
    assert.deepEqual(withComment, [], 'translator comments change the lookup key; leave comment empty (or put the note in a code comment)');
  });

  it('the l10n.t extractor reads literals, escapes and skips message objects', () => {
    const r = l10nStrings(`vscode.l10n.t('a {0}', x); l10n.t("it\\'s"); l10n.t({ message: 'm', args: [], comment: [] }); l10n.t(name)`);
    assert.deepEqual(r.strings, ['a {0}', "it's"]);
    assert.equal(r.nonLiteral.length, 1);
  });

  // Problem codes: the UI translates ERROR_CODES[code].message with the entry's
  // params, and NETWORK_REASON_TEXT[reason] with no args.
  const placeholders = (text: string): string[] => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort();

  it('every ERROR_CODES template has a Japanese translation', () => {
    const bundle = readJson('l10n/bundle.l10n.ja.json');
    const missing = Object.entries(ERROR_CODES)
      .filter(([, info]) => typeof bundle[info.message] !== 'string')
      .map(([code, info]) => `${code}: ${info.message}`);
    assert.deepEqual(missing, [], 'missing in l10n/bundle.l10n.ja.json');
  });

  it('every NETWORK_REASON_TEXT text has a Japanese translation', () => {
    const bundle = readJson('l10n/bundle.l10n.ja.json');
    const missing = Object.entries(NETWORK_REASON_TEXT)
      .filter(([, text]) => typeof bundle[text] !== 'string')
      .map(([reason, text]) => `${reason}: ${text}`);
    assert.deepEqual(missing, [], 'missing in l10n/bundle.l10n.ja.json');
  });

  it('every Japanese string keeps exactly the placeholders of its English key', () => {
    const bundle = readJson('l10n/bundle.l10n.ja.json');
    const wrong = Object.entries(bundle)
      .filter(([key, ja]) => typeof ja !== 'string' || placeholders(ja).join() !== placeholders(key).join())
      .map(([key, ja]) => `${key} -> ${String(ja)}`);
    assert.deepEqual(wrong, [], 'placeholders differ between key and translation');
  });

  it('every code of the sandbox server has a template', () => {
    const missing = SANDBOX_HTTP_ERROR_CODES.filter(
      (code) => !isErrorCode(code) || !(ERROR_CODES[code].producedBy as readonly string[]).includes('sandbox'),
    );
    assert.deepEqual(missing, [], 'sandbox server codes without a template (producedBy sandbox) in src/schema/error-codes.ts');
  });

  describe('sandbox error entries can be translated', () => {
    let sb: Sandbox;
    let token: string;
    before(async () => {
      sb = await createSandbox({ maxBodyBytes: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000 });
      token = await signIn(sb.url);
    });
    after(() => sb.close());

    /** Entries of an error answer whose template placeholders are not all filled by `params`. */
    const unfilled = (json: unknown): string[] => {
      assert.ok(Array.isArray(json) && json.length > 0, `not an error body: ${JSON.stringify(json)}`);
      return (json as { code?: unknown; params?: Record<string, unknown> }[]).flatMap((e) => {
        const code = String(e.code);
        if (!isErrorCode(code)) return [`${code}: unknown code`];
        const lacking = placeholders(ERROR_CODES[code].message).filter((ph) => !(e.params && ph.slice(1, -1) in e.params));
        return lacking.length > 0 ? [`${code}: no params for ${lacking.join(', ')}`] : [];
      });
    };

    /** Raw HTTP/1.1 text to the sandbox (for what an HTTP client would refuse to send). */
    const raw = (text: string, hold = false): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = net.connect(sb.port, '127.0.0.1', () => (hold ? socket.write(text) : socket.end(text)));
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (d: string) => (answer += d));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });

    it('every server code carries the params of its template', async () => {
      const auth = bearer(token);
      const put = (ids: string, body: unknown, headers: Record<string, string> = auth) =>
        call(`${sb.url}/workitem/workItems/${ids}`, { method: 'PUT', headers, body });
      const answers = [
        await call(`${sb.url}/system/processCategories`), // UNAUTHORIZED
        await call(`${sb.url}/system/processCategories`, { headers: { authorization: 'Bearer nope' } }),
        await call(`${sb.url}/auth/token`, { method: 'POST', body: { loginName: 'admin', password: 'wrong' } }), // SIGN_IN_FAILED
        await call(`${sb.url}/auth/token`, { method: 'POST', body: { loginName: 1 } }), // INVALID_BODY
        await call(`${sb.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' }), // BODY_REQUIRED
        await call(`${sb.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), // UNSUPPORTED_MEDIA_TYPE
        await call(`${sb.origin}/nowhere`), // ROUTE_NOT_FOUND
        await call(`${sb.url}/auth/token`), // METHOD_NOT_ALLOWED
        await put('111', '{"setCompleted": tru'), // MALFORMED_JSON
        await put('111', { fields: { Description: 'x'.repeat(2000) } }), // BODY_TOO_LARGE
        await put('111,,112', {}), // ID_EMPTY
        await put('no-such-item', { setCompleted: true }), // WORK_ITEM_NOT_FOUND (update engine)
        await call(`${sb.url}/workitem/workItems/no-such-item,nor-this`, { headers: auth }), // WORK_ITEMS_NOT_FOUND
        await call(`${sb.url}/project/projects/no-such-project`, { headers: auth }), // PROJECT_NOT_FOUND
        await call(`${sb.url}/system/processCategories?limit=x`, { headers: auth }), // INVALID_QUERY_PARAMETER
        await call(`${sb.url}/system/processCategories?name=a&name=b`, { headers: auth }),
        await call(`${sb.url}/system/processCategories?includeDeleted=maybe`, { headers: auth }),
        await call(`${sb.url}/system/processCategories?orderby=colour`, { headers: auth }), // INVALID_ORDERBY
        await call(`${sb.url}/system/processCategories?orderby=name%20up`, { headers: auth }),
        await call(`${sb.url}/system/organizations/%E0%A4%A/users`, { headers: auth }), // INVALID_PATH
        await call(`${sb.origin}/_sandbox/workitems/no-such-item`), // WORK_ITEM_NOT_FOUND
        await call(`${sb.origin}/_sandbox/reset`, { method: 'POST', body: { users: 'none' } }), // INVALID_DATASET
        await call(`${sb.origin}/_sandbox/faults`, { method: 'POST', body: { times: 'twice' } }), // INVALID_BODY
        await put('111', `{"fields":${'['.repeat(100)}${']'.repeat(100)}}`), // JSON_TOO_DEEP
      ];
      await call(`${sb.origin}/_sandbox/faults`, { method: 'POST', body: { status: 503 } });
      answers.push(await call(`${sb.url}/system/processCategories`, { headers: auth })); // SANDBOX_FAULT
      const saved = sb.data.processCategories;
      (sb.data as { processCategories: unknown }).processCategories = null;
      answers.push(await call(`${sb.url}/system/processCategories`, { headers: auth })); // INTERNAL_ERROR
      sb.data.processCategories = saved;

      const bodies = answers.map((a) => a.json);
      for (const text of [
        await raw('NOT HTTP\r\n\r\n'),
        await raw(`GET /api HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(70 * 1024)}\r\n\r\n`),
        await raw('GET /api/system/processCategories HTTP/1.1\r\n\r\n'), // HOST_REQUIRED
        await raw('GET /api/system/processCategories HTTP/1.1\r\nHost: x\r\n', true), // HEADERS_TIMEOUT
        await raw(`PUT /api/workitem/workItems/111 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{`, true), // BODY_TIMEOUT
      ]) {
        bodies.push(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)));
      }
      assert.deepEqual(bodies.flatMap(unfilled), []);
      const seen = new Set(bodies.flatMap((b) => (b as { code: string }[]).map((e) => e.code)));
      assert.deepEqual(SANDBOX_HTTP_ERROR_CODES.filter((c) => !seen.has(c)), [], 'codes this test did not provoke');
    });
  });
});
