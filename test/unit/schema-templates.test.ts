import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateRequestDocument } from '../../src/schema/document';
import { escapeSnippet, Placeholder, renderDocument } from '../../src/schema/render';
import { isPlaceholderText, looksLikePlaceholder, PLACEHOLDER_TEXTS } from '../../src/schema/placeholders';
import { SNIPPETS_FILE, TEMPLATES, documentTemplate, documentText, documentValue, snippetsFileText } from '../../src/schema/templates';

const root = path.resolve(__dirname, '..', '..');

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

describe('schema: update templates', () => {
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
    it(`template "${t.id}" is a valid request document once its placeholders are replaced, and blocks sending until then`, () => {
      const value = documentValue(t, ['120', '121'], t.label);
      const left = PLACEHOLDER_TEXTS.filter((p) => JSON.stringify(value).includes(JSON.stringify(p)));
      const asWritten = validateRequestDocument(value);
      assert.deepEqual(
        asWritten.issues.filter((i) => i.severity === 'error').map((i) => i.code),
        left.map(() => 'PLACEHOLDER_LEFT'),
        JSON.stringify(asWritten.issues),
      );
      const v = validateRequestDocument(JSON.parse(JSON.stringify(value).replace(/"(WORK-ITEM-ID|PARENT-ID|SIBLING-ID|ITEM-TYPE-ID|SOURCE-ITEM-ID|FOLDER-ID)"/g, '"130"').replace(/"login-name"/g, '"tanaka"')));
      assert.equal(v.ok, true, JSON.stringify(v.issues));
      assert.deepEqual(v.issues.filter((i) => i.severity === 'error'), []);
      assert.deepEqual(v.document!.requests[0]!.workItemIds, ['120', '121']);
    });

    it(`template "${t.id}" renders as JSON text and as a snippet that expand to the same value`, () => {
      const text = documentText(t, ['120'], { description: 'd' });
      assert.deepEqual(JSON.parse(text), documentValue(t, ['120'], 'd'));
      const snippet = documentText(t, ['120'], { description: 'd', snippet: true });
      assert.deepEqual(JSON.parse(expandSnippet(snippet)), documentValue(t, ['120'], 'd'));
    });
  }

  it('every placeholder a template inserts is listed as one (and blocks sending), and no example value is', () => {
    const texts = new Set<string>();
    const walk = (v: unknown): void => {
      if (v instanceof Placeholder) {
        if (typeof v.value === 'string' && looksLikePlaceholder(v.value)) texts.add(v.value);
      } else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    for (const t of TEMPLATES) walk(documentTemplate(t.update, []));
    assert.deepEqual([...texts].sort(), [...PLACEHOLDER_TEXTS].sort());
    for (const example of ['New name', '13,17', 'PlannedTime,PlannedCost', '2025-04-01', 'Assignments']) assert.equal(isPlaceholderText(example), false, example);
  });

  it('a placeholder left anywhere is an error on its member: IDs (list or string), nested update members, user lists', () => {
    const v = validateRequestDocument({
      workItemIds: '120, WORK-ITEM-ID 121',
      update: { moveParentTo: 'PARENT-ID', orderAfter: ' SIBLING-ID ', assignmentChange: { removeUsers: ['tanaka', 'login-name'] } },
    });
    assert.equal(v.ok, false);
    assert.deepEqual(
      v.issues.filter((i) => i.code === 'PLACEHOLDER_LEFT').map((i) => [i.path.join('.'), i.params?.value]),
      [
        ['workItemIds', 'WORK-ITEM-ID'],
        ['update.moveParentTo', 'PARENT-ID'],
        ['update.orderAfter', 'SIBLING-ID'],
        ['update.assignmentChange.removeUsers.1', 'login-name'],
      ],
    );
    assert.match(v.issues.find((i) => i.code === 'PLACEHOLDER_LEFT')!.message, /Replace the placeholder "WORK-ITEM-ID" before sending/);
    const list = validateRequestDocument({ workItemIds: ['120', 'WORK-ITEM-ID'], update: { setCompleted: true } });
    assert.deepEqual(list.issues.map((i) => [i.code, i.path.join('.')]), [['PLACEHOLDER_LEFT', 'workItemIds.1']]);
    assert.equal(validateRequestDocument({ workItemIds: ['120'], update: { fields: { Name: 'PARENT-ID of sprint' } } }).ok, true, 'a text that only contains a placeholder word is a value');
  });

  it('a template without IDs has a placeholder ID the user must replace', () => {
    const value = documentValue(TEMPLATES[0], []) as { workItemIds: string[] };
    assert.deepEqual(value.workItemIds, ['WORK-ITEM-ID']);
  });

  it('a new document without IDs (Assign to Work Items…) starts on the placeholder ID and validates once it is filled', () => {
    const update = { assignmentChange: { adds: [{ partyType: 'User', partyId: 'u-1' }] } };
    const snippet = renderDocument(documentTemplate(update, [], 'Assign $Jo'), { snippet: true });
    assert.match(snippet, /"workItemIds": \["\$\{1:WORK-ITEM-ID\}"\]/);
    assert.equal((snippet.match(/\$\{\d+:/g) ?? []).length, 1, 'the update has no other tab stop');
    const value = JSON.parse(expandSnippet(snippet.replace('WORK-ITEM-ID', '120')));
    assert.deepEqual(value, { description: 'Assign $Jo', workItemIds: ['120'], update });
    assert.equal(validateRequestDocument(value).ok, true);
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

  it('the committed snippets file is generated from the templates (run `npm run build` after changing them)', () => {
    const file = path.join(root, 'snippets', SNIPPETS_FILE);
    assert.equal(fs.readFileSync(file, 'utf8'), snippetsFileText(), `snippets/${SNIPPETS_FILE} drifted from src/schema/templates.ts: run npm run build`);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { snippets: { path: string }[] } };
    assert.ok(pkg.contributes.snippets.some((s) => s.path === `./snippets/${SNIPPETS_FILE}`), 'package.json does not contribute the snippets file');
  });

  it('the quick pick shows each template with the label and description of the table (as l10n keys)', () => {
    const source = fs.readFileSync(path.join(root, 'src', 'editors', 'requests.ts'), 'utf8');
    /** id -> the literal of `case 'id': return vscode.l10n.t('...')` inside function `name`. */
    const cases = (name: string): Map<string, string> => {
      const body = source.slice(source.indexOf(`function ${name}(`));
      const end = body.indexOf('\n}\n');
      const out = new Map<string, string>();
      for (const m of body.slice(0, end).matchAll(/case '(\w+)':\s*return vscode\.l10n\.t\((?:'([^']*)'|"([^"]*)")\);/g)) out.set(m[1]!, m[2] ?? m[3]!);
      return out;
    };
    const labels = cases('templateLabel');
    const descriptions = cases('templateDescription');
    const bundle = JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
    for (const t of TEMPLATES) {
      assert.equal(labels.get(t.id), t.label, `templateLabel('${t.id}')`);
      assert.equal(descriptions.get(t.id), t.description, `templateDescription('${t.id}')`);
      assert.equal(typeof bundle[t.label], 'string', `no Japanese for "${t.label}"`);
      assert.equal(typeof bundle[t.description], 'string', `no Japanese for "${t.description}"`);
    }
    assert.equal(labels.size, TEMPLATES.length);
    assert.equal(descriptions.size, TEMPLATES.length);
  });
});
