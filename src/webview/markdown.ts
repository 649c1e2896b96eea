// The little Markdown our own summaries use (headings, emphasis lines, numbered and
// bulleted lists, pipe tables, paragraphs) as HTML for a webview: every text escaped, no
// raw HTML passed through. For the undo summary shown inside the result view. No vscode import.
import { escapeHtml } from './html';

function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

export function markdownToHtml(markdown: string, headingOffset = 1): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  let list: { tag: 'ol' | 'ul'; items: string[] } | undefined;
  const flush = (): void => {
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${i}</li>`).join('')}</${list.tag}>`);
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^(#{1,4}) (.*)$/.exec(line);
    const item = /^(?:(\d+)\.|-) (.*)$/.exec(line);
    const tag = item?.[1] === undefined ? 'ul' : 'ol';
    if (!item || list?.tag !== tag) flush();
    if (heading) {
      const level = Math.min(6, heading[1]!.length + headingOffset);
      out.push(`<h${level}>${escapeHtml(heading[2]!)}</h${level}>`);
    } else if (item) {
      (list ??= { tag, items: [] }).items.push(escapeHtml(item[2]!));
    } else if (line.startsWith('|') && lines[i + 1]?.startsWith('| ---')) {
      const head = cells(line);
      i++;
      const rows: string[][] = [];
      while (lines[i + 1]?.startsWith('|')) rows.push(cells(lines[++i]!));
      out.push(
        `<table><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
          .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
    } else if (/^_.*_$/.test(line)) {
      out.push(`<p><em>${escapeHtml(line.slice(1, -1))}</em></p>`);
    } else if (line.trim() !== '') {
      out.push(`<p>${escapeHtml(line)}</p>`);
    }
  }
  flush();
  return out.join('\n');
}
