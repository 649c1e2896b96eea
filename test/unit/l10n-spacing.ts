// The spacing of Japanese text beside numbers and placeholders (l10n/glossary.json
// "typography"), given what each placeholder holds (./l10n-placeholders.ts finds it from src/):
// a number gets a half-width space beside Japanese text ("{0} 件"), text none ("{3}の{2}を"),
// and each end of a value counts on its own (itemsText(3) = "3 件": "以降に {0}が").

import type { Classified, PlaceholderKind, PlaceholderUse } from './l10n-placeholders';

/** Hiragana, katakana (with ー) and kanji: what makes a string Japanese. */
export const JA = '\\u3040-\\u30ff\\u3400-\\u9fff';

export interface Decisions {
  /** Per l10n key, per positional placeholder: the kind the analysis cannot find, with the reason. */
  placeholders?: Record<string, Record<string, { kind: PlaceholderKind; why: string }>>;
  /** Named placeholders ({member}, {where}) of the problem templates: their kind by name. */
  namedPlaceholders?: Record<string, PlaceholderKind>;
}

type Edge = 'number' | 'text';

/** The two ends of a kind. */
export function edgesOf(kind: PlaceholderKind): [start: Edge, end: Edge] {
  return kind === 'count' ? ['number', 'text'] : kind === 'text-number' ? ['text', 'number'] : [kind, kind];
}

function kindOfEdges(start: Edge, end: Edge): PlaceholderKind {
  return start === end ? start : start === 'number' ? 'count' : 'text-number';
}

/**
 * The kind of each positional placeholder of each key: "number" where every use holds a
 * number; where a use holds text, the ends of the Japanese translations it comes from ("3 件"
 * starts with a number), or "text" when it may be other text (a name); then the glossary's
 * decisions; "unknown" where none decides.
 */
export function placeholderKinds(uses: readonly PlaceholderUse[], decisions: Decisions, ja: Readonly<Record<string, string>>): Map<string, Record<string, Classified>> {
  const byKey = new Map<string, PlaceholderUse[]>();
  for (const u of uses) byKey.set(`${u.key}\u0000${u.placeholder}`, [...(byKey.get(`${u.key}\u0000${u.placeholder}`) ?? []), u]);
  const memo = new Map<string, Classified>();
  const kindAt = (key: string, placeholder: string, depth: number): Classified => {
    const decided = decisions.placeholders?.[key]?.[placeholder];
    if (decided) return decided.kind;
    const id = `${key}\u0000${placeholder}`;
    const known = memo.get(id);
    if (known) return known;
    const list = byKey.get(id) ?? [];
    let kind: Classified = 'number';
    if (list.some((u) => u.kind === 'text')) {
      const texts = list.filter((u) => u.kind === 'text');
      // Each end is a number only when everything the value may be ends in one ("3 件" starts with a number).
      const edge = (source: string, side: 0 | 1): Edge => {
        if (!source.startsWith('key:')) return source === 'number' ? 'number' : 'text';
        const k = source.slice(4);
        return depth > 4 ? 'text' : templateEdges(ja[k] ?? k, (p) => kindAt(k, p, depth + 1))[side];
      };
      const start = texts.flatMap((u) => u.starts).every((x) => edge(x, 0) === 'number') ? 'number' : 'text';
      const end = texts.flatMap((u) => u.ends).every((x) => edge(x, 1) === 'number') ? 'number' : 'text';
      kind = kindOfEdges(start, end);
    } else if (list.some((u) => u.kind === 'unknown')) kind = 'unknown';
    memo.set(id, kind);
    return kind;
  };
  const out = new Map<string, Record<string, Classified>>();
  for (const id of new Set([...byKey.keys(), ...Object.entries(decisions.placeholders ?? {}).flatMap(([k, d]) => Object.keys(d).map((p) => `${k}\u0000${p}`))])) {
    const [key, placeholder] = id.split('\u0000') as [string, string];
    out.set(key, { ...out.get(key), [placeholder]: kindAt(key, placeholder, 0) });
  }
  return out;
}

/**
 * The ends of a translation: a number where it starts or ends with a digit, a Latin letter, other
 * half-width characters ("(なし)", spaced like Latin text) or a number placeholder.
 */
function templateEdges(template: string, kindOfPlaceholder: (placeholder: string) => Classified): [Edge, Edge] {
  const t = template.trim();
  const edge = (placeholder: string | undefined, char: string, side: 0 | 1): Edge => {
    if (placeholder) {
      const k = kindOfPlaceholder(placeholder);
      return k === 'unknown' ? 'text' : edgesOf(k)[side];
    }
    return /[!-~]/.test(char) ? 'number' : 'text';
  };
  return [edge(/^\{\d+\}/.exec(t)?.[0], t.charAt(0), 0), edge(/\{\d+\}$/.exec(t)?.[0], t.charAt(t.length - 1), 1)];
}

/** The kind of one placeholder of a key: named ones by name, positional ones by the analysis (a key with no use in a call: number). */
export function kindOf(placeholder: string, kinds: Record<string, Classified> | undefined, decisions: Decisions): Classified {
  if (!/^\{\d+\}$/.test(placeholder)) return decisions.namedPlaceholders?.[placeholder.slice(1, -1)] ?? 'unknown';
  return kinds?.[placeholder] ?? 'number';
}

export interface SpacingProblem {
  rule: 'spacing' | 'text-spacing' | 'unclassified';
  at: string;
}

/**
 * The spacing of numbers and placeholders beside Japanese text: a digit or a number placeholder
 * gets a half-width space ("{0} 件", "6:41:00 に"); a text placeholder none ("{3}の{2}を元に戻します");
 * a placeholder of unknown kind beside Japanese text is reported.
 */
export function spacingProblems(text: string, kindOfPlaceholder: (placeholder: string) => Classified = () => 'number'): SpacingProblem[] {
  const out: SpacingProblem[] = [];
  const around = (index: number, length: number): string => text.slice(Math.max(0, index - 6), index + length + 6);
  for (const m of text.matchAll(new RegExp(`[0-9][${JA}]|[${JA}][0-9]`, 'g'))) out.push({ rule: 'spacing', at: around(m.index, m[0].length) });
  for (const m of text.matchAll(/\{\w+\}/g)) {
    const before = text.slice(0, m.index);
    const after = text.slice(m.index + m[0].length);
    // Each side: Japanese text right beside the placeholder, or after one half-width space.
    const sides = [
      { joined: new RegExp(`[${JA}]$`).test(before), spaced: new RegExp(`[${JA}] $`).test(before) },
      { joined: new RegExp(`^[${JA}]`).test(after), spaced: new RegExp(`^ [${JA}]`).test(after) },
    ];
    if (!sides.some((x) => x.joined || x.spaced)) continue;
    const kind = kindOfPlaceholder(m[0]);
    if (kind === 'unknown') {
      out.push({ rule: 'unclassified', at: `${m[0]} in ${around(m.index, m[0].length)}` });
      continue;
    }
    const edges = edgesOf(kind);
    sides.forEach((side, i) => {
      if (edges[i] === 'number' && side.joined) out.push({ rule: 'spacing', at: around(m.index, m[0].length) });
      if (edges[i] === 'text' && side.spaced) out.push({ rule: 'text-spacing', at: around(m.index, m[0].length) });
    });
  }
  return out;
}
