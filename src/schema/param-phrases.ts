// The phrases the checks put into a problem's parameters ("the update", `the text "yes"`,
// "true or false", "0 or more", ...), as codes the UI translates whole: a parameter is
// either a name or value quoted from the document (kept as it is) or one of these
// phrases, so a Japanese sentence never holds an English fragment. No vscode import.

/** A phrase with its English template (the l10n key) and the values it holds. */
export interface ParamPhrase {
  /** The English template, `{0}`-style: the key of its translation. */
  key: string;
  /** Values quoted from the document or numbers (not translated); a nested phrase is a ParamPhrase. */
  args: (string | ParamPhrase)[];
}

/** Phrases without values, in their English form (each one a key of the l10n bundle). */
export const FIXED_PHRASES = [
  'the update',
  'a string',
  'a number',
  'a whole number',
  'true or false',
  'a list',
  'an object',
  'a valid value',
  'nothing',
  'none',
  'in range',
  'a date written yyyy-MM-dd',
  'a date (yyyy-MM-dd) or a date and time (yyyy-MM-ddTHH:mm:ss)',
  'a user ID (string)',
  'an ID (string)',
  'a list of assignments',
  'an http(s) base URL',
] as const;

/** Phrases with values: the English pattern and its template. */
const PATTERNS: readonly { re: RegExp; key: string }[] = [
  { re: /^the text ("(?:[^"\\]|\\.)*"(?:\.\.\.)?)$/s, key: 'the text {0}' },
  { re: /^the text (".*)$/s, key: 'the text {0}' },
  { re: /^the number (\S+)$/, key: 'the number {0}' },
  { re: /^between (\S+) and (\S+)$/, key: 'between {0} and {1}' },
  { re: /^(\S+) or more$/, key: '{0} or more' },
  { re: /^(\S+) or less$/, key: '{0} or less' },
];

/** Every template a phrase may use (the tests check each has a translation). */
export const PHRASE_KEYS: readonly string[] = [...FIXED_PHRASES, ...PATTERNS.map((p) => p.key), '{0} or {1}'];

/** A JSON literal as the checks quote it ("a", 12, true, null). */
const LITERAL = /^(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)$/;

/**
 * The phrase a parameter value stands for, or undefined when it is a name or a value to
 * show as it is. `"a" or "b" or "c"` (the allowed values of a member) is a list phrase.
 */
export function phraseOf(value: string): ParamPhrase | undefined {
  if ((FIXED_PHRASES as readonly string[]).includes(value)) return { key: value, args: [] };
  for (const p of PATTERNS) {
    const m = p.re.exec(value);
    if (m) return { key: p.key, args: m.slice(1) };
  }
  const parts = value.split(' or ');
  if (parts.length >= 2 && parts.every((x) => LITERAL.test(x))) {
    // Built from the right: "a" or ("b" or "c"); the translation joins each pair.
    let phrase: string | ParamPhrase = parts[parts.length - 1]!;
    for (let i = parts.length - 2; i >= 0; i--) phrase = { key: '{0} or {1}', args: [parts[i]!, phrase] };
    return phrase as ParamPhrase;
  }
  return undefined;
}

/** Fills a phrase with `translate(key, args)` at each level (English: the identity). */
export function renderPhrase(p: ParamPhrase, translate: (key: string, args: string[]) => string): string {
  return translate(
    p.key,
    p.args.map((a) => (typeof a === 'string' ? a : renderPhrase(a, translate))),
  );
}

/** The parameters with every phrase rendered by `translate`; names and values unchanged. */
export function localizeParams<T extends Readonly<Record<string, unknown>>>(params: T, translate: (key: string, args: string[]) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    const phrase = typeof v === 'string' ? phraseOf(v) : undefined;
    out[k] = phrase ? renderPhrase(phrase, translate) : v;
  }
  return out;
}
