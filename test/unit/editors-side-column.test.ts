import * as assert from 'node:assert/strict';
import { sideColumn } from '../../src/webview/sideColumn';
import { markdownToHtml } from '../../src/webview/markdown';
import { undoSummary } from '../../src/changes/model/undoSummary';

// A tidy window: views beside the document reuse one group (never a third), and the
// undo summary is shown inside the result view as escaped HTML.

describe('editors: one group beside the document', () => {
  it('a single group: a new one beside it', () => {
    assert.equal(sideColumn([1], 1), 'beside');
    assert.equal(sideColumn([], undefined), 'beside');
  });

  it('the document in the first group and a second group: the second, reused', () => {
    assert.equal(sideColumn([1, 2], 1), 2);
    assert.equal(sideColumn([2, 1], 1), 2);
  });

  it('working in the side group (the result view, an undo document): that group, not a third', () => {
    assert.equal(sideColumn([1, 2], 2), 2);
    assert.equal(sideColumn([1, 2, 3], 3), 3);
  });

  it('more groups made by the user: the first after the document', () => {
    assert.equal(sideColumn([1, 3, 2], 1), 2);
  });

  it('whatever the order of steps (document → preview → Before/After → result → undo), the groups stay at two', () => {
    let groups = [1];
    const open = (active: number): number => {
      const c = sideColumn(groups, active);
      const column = c === 'beside' ? active + 1 : c;
      if (!groups.includes(column)) groups = [...groups, column];
      return column;
    };
    const preview = open(1);
    const beforeAfter = open(preview);
    const result = open(1);
    const undoSummary = open(result);
    open(undoSummary);
    assert.deepEqual(groups, [1, 2]);
  });
});

describe('editors: the undo summary inside the result view', () => {
  it('renders the summary Markdown as escaped HTML (headings, list, table)', () => {
    const md = undoSummary(
      {
        name: 'a<b>.workitems.json',
        jobId: 'j1',
        documents: ['undo-1-of-1.workitems.json'],
        plan: {
          documents: [{ kind: 'fields', workItemIds: ['1'], update: {} }],
          nonInvertible: [{ id: '7', member: 'restore', reason: 'no-previous-parent', partly: false }],
          items: 1,
        } as never,
      },
      {
        title: (n, j) => `Undo of ${n} (job ${j})`,
        notSent: 'Nothing has been sent.',
        documents: 'Documents',
        document: (kind, items) => `puts back the ${kind} of ${items}`,
        cannot: 'Cannot',
        column: { id: 'ID', member: 'Change', reason: 'Reason' },
        partly: '(in part)',
        reason: (r) => String(r),
        nothing: 'All can be put back.',
        more: (n) => `and ${n} more`,
      },
    );
    const html = markdownToHtml(md);
    assert.match(html, /<h2>Undo of a&lt;b&gt;\.workitems\.json \(job j1\)<\/h2>/);
    // A bullet list: the document's name says its order, no number before it.
    assert.match(html, /<ul><li>undo-1-of-1\.workitems\.json: puts back the fields of 1<\/li><\/ul>/);
    assert.doesNotMatch(html, /<ol>/);
    assert.match(html, /<table><thead><tr><th>ID<\/th><th>Change<\/th><th>Reason<\/th><\/tr><\/thead><tbody><tr><td>7<\/td><td>restore<\/td><td>no-previous-parent<\/td><\/tr><\/tbody><\/table>/);
    assert.match(html, /<p><em>Nothing has been sent\.<\/em><\/p>/);
    assert.doesNotMatch(html, /<b>/);
  });

  it('renders numbered and bulleted lists, each a list of its own', () => {
    assert.equal(markdownToHtml('1. a\n2. b<\n- c\n- d\n\n1. e'), '<ol><li>a</li><li>b&lt;</li></ol>\n<ul><li>c</li><li>d</li></ul>\n<ol><li>e</li></ol>');
    assert.equal(markdownToHtml('-not an item'), '<p>-not an item</p>');
  });
});
