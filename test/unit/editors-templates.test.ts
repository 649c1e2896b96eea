import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateRequestDocument } from '../../src/schema/document';
import { escapeSnippet, Placeholder, renderDocument } from '../../src/editors/model/render';
import { TEMPLATES, documentText, documentValue, snippetsFile } from '../../src/editors/model/templates';

const SNIPPETS = path.resolve(__dirname, '..', '..', 'snippets', 'workitems.code-snippets');

/** Resolves a snippet body as VS Code would when every default is accepted. */
function expandSnippet(body: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length && '\\$}'.includes(body[i + 1])) {
      out += body[++i];
    } else if (c === '$' && body[i + 1] === '{') {
      const colon = body.indexOf(':', i);
      i = colon; // the default text follows; its closing brace is skipped below
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--; // end of a placeholder (a `}` outside one is literal)
    } else if (c === '$' && /\d/.test(body[i + 1])) {
      while (/\d/.test(body[i + 1] ?? '')) i++;
    } else {
      out += c;
    }
  }
  return out;
}

describe('editors: request document templates', () => {
  it('covers every kind of change of the spec', () => {
    const members = new Set(TEMPLATES.flatMap((t) => Object.keys(t.update)));
    for (const m of [
      'moveScheduleDays',
      'clearSchedule',
      'setCompleted',
      'setTimeEntryLocked',
      'assignmentChange',
      'moveParentTo',
      'changeItemTypeTo',
      'fields',
      'fieldCalcTypes',
      'clearFieldCalcTypes',
      'propagateToChildren',
      'copyAssignmentsFrom',
      'restore',
    ]) {
      assert.ok(members.has(m), `no template uses ${m}`);
    }
    assert.equal(new Set(TEMPLATES.map((t) => t.id)).size, TEMPLATES.length);
    assert.equal(new Set(TEMPLATES.map((t) => t.prefix)).size, TEMPLATES.length);
  });

  for (const t of TEMPLATES) {
    it(`template "${t.id}" is a valid request document with no errors`, () => {
      const v = validateRequestDocument(documentValue(t, ['120', '121'], t.label));
      assert.equal(v.ok, true, JSON.stringify(v.issues));
      assert.deepEqual(v.issues.filter((i) => i.severity === 'error'), []);
      assert.deepEqual(v.document?.workItemIds, ['120', '121']);
    });

    it(`template "${t.id}" renders as JSON text and as a snippet that expand to the same value`, () => {
      const text = documentText(t, ['120'], { description: 'd' });
      assert.deepEqual(JSON.parse(text), documentValue(t, ['120'], 'd'));
      const snippet = documentText(t, ['120'], { description: 'd', snippet: true });
      assert.deepEqual(JSON.parse(expandSnippet(snippet)), documentValue(t, ['120'], 'd'));
    });
  }

  it('a template without IDs has a placeholder ID the user must replace', () => {
    const value = documentValue(TEMPLATES[0], []) as { workItemIds: string[] };
    assert.deepEqual(value.workItemIds, ['WORK-ITEM-ID']);
  });

  it('wraps long ID lists instead of one ID per line, and stays valid JSON', () => {
    const ids = Array.from({ length: 500 }, (_, i) => String(1000 + i));
    const text = documentText(TEMPLATES[0], ids);
    assert.deepEqual((JSON.parse(text) as { workItemIds: string[] }).workItemIds, ids);
    const lines = text.split('\n');
    assert.ok(lines.length < 100, `${lines.length} lines`);
    assert.ok(lines.every((l) => l.length <= 100), 'a line is longer than 100 characters');
  });

  it('escapes snippet syntax in text and inside placeholders', () => {
    assert.equal(escapeSnippet('a$b}c\\d'), 'a\\$b\\}c\\\\d');
    const s = renderDocument({ a: '$x}', b: new Placeholder('p$q"r') }, { snippet: true });
    assert.match(s, /"a": "\\\$x\\}"/);
    assert.deepEqual(JSON.parse(expandSnippet(s)), { a: '$x}', b: 'p$q"r' });
  });

  it('snippets/workitems.code-snippets is generated from the templates (run with UPDATE_SNIPPETS=1 to refresh)', () => {
    const expected = `${JSON.stringify(snippetsFile(), null, 2)}\n`;
    if (process.env.UPDATE_SNIPPETS === '1') fs.writeFileSync(SNIPPETS, expected);
    assert.equal(fs.readFileSync(SNIPPETS, 'utf8'), expected);
  });
});
