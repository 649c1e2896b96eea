// Renders request documents as JSON text, optionally as a snippet with tab stops.
// No vscode import (unit-tested in plain Node).

/** A value the user is expected to change: a tab stop when rendered as a snippet. */
export class Placeholder {
  constructor(readonly value: string | number | boolean) {}
}

export type Template = string | number | boolean | null | Placeholder | Template[] | { [key: string]: Template | undefined };

/** The plain JSON value of a template (placeholders replaced by their values). */
export function toValue(t: Template): unknown {
  if (t instanceof Placeholder) return t.value;
  if (Array.isArray(t)) return t.map(toValue);
  if (t !== null && typeof t === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(t)) if (v !== undefined) out[k] = toValue(v);
    return out;
  }
  return t;
}

/** Escapes text for a snippet body (outside placeholders). */
export function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (c) => `\\${c}`);
}

function isScalar(t: Template): boolean {
  return t === null || typeof t !== 'object' || t instanceof Placeholder;
}

export interface RenderOptions {
  /** Render placeholders as `${n:value}` tab stops and escape the rest. */
  snippet?: boolean;
  /** Arrays of scalars are written on as few lines as fit within this width. */
  width?: number;
}

/**
 * Pretty-prints like `JSON.stringify(value, null, 2)`, except that arrays of
 * scalars (such as a long list of work item IDs) are wrapped at `width` instead
 * of one entry per line.
 */
export function renderDocument(t: Template, options: RenderOptions = {}): string {
  const snippet = options.snippet === true;
  const width = options.width ?? 100;
  let stop = 0;
  const esc = (s: string): string => (snippet ? escapeSnippet(s) : s);
  const scalar = (v: Template): string => {
    if (v instanceof Placeholder) {
      const json = JSON.stringify(v.value);
      if (!snippet) return json;
      stop += 1;
      // Inside a placeholder `$`, `}` and `\` must be escaped as well.
      return typeof v.value === 'string' ? `"\${${stop}:${escapeSnippet(json.slice(1, -1))}}"` : `\${${stop}:${escapeSnippet(json)}}`;
    }
    return esc(JSON.stringify(v));
  };
  const walk = (v: Template, indent: string): string => {
    if (isScalar(v)) return scalar(v);
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      if (v.every(isScalar)) {
        const parts = v.map(scalar);
        const lines: string[] = [];
        let line = '';
        for (const p of parts) {
          const next = line ? `${line}, ${p}` : p;
          if (line && inner.length + next.length > width) {
            lines.push(`${line},`);
            line = p;
          } else {
            line = next;
          }
        }
        lines.push(line);
        if (lines.length === 1 && indent.length + lines[0].length + 2 <= width) return `[${lines[0]}]`;
        return `[\n${lines.map((l) => inner + l).join('\n')}\n${indent}]`;
      }
      return `[\n${v.map((e) => inner + walk(e, inner)).join(',\n')}\n${indent}]`;
    }
    const entries = Object.entries(v as { [key: string]: Template | undefined }).filter(([, e]) => e !== undefined) as [string, Template][];
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, e]) => `${inner}${esc(JSON.stringify(k))}: ${walk(e, inner)}`).join(',\n')}\n${indent}}`;
  };
  return `${walk(t, '')}\n`;
}
