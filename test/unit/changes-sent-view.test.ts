// A Before/After view whose document was sent: the page shows Send disabled (a click
// posts nothing), "Preview Again" first, and carries the send time; and Send asks first
// before an irreversible change (clearSchedule deletes schedule links).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderChangesPage } from '../../src/changes/model/page';
import { irreversibleChanges } from '../../src/changes/model/irreversible';

/** Runs media/changes/page.js (the page's script) over fake buttons: what it saves as state and posts on clicks. */
function runPageScript(body: Record<string, string>, buttons: { command: string; disabled?: boolean }[]): { state: unknown; posted: unknown[]; click(i: number): void } {
  const js = fs.readFileSync(path.join(__dirname, '..', '..', 'media', 'changes', 'page.js'), 'utf8');
  const out = { state: undefined as unknown, posted: [] as unknown[], click: (i: number) => handlers[i]!() };
  const handlers: (() => void)[] = [];
  const fakes = buttons.map((b) => ({ disabled: !!b.disabled, dataset: { command: b.command }, addEventListener: (_: string, h: () => void) => handlers.push(h) }));
  const api = { setState: (s: unknown) => (out.state = s), postMessage: (m: unknown) => out.posted.push(m) };
  const document = { body: { dataset: body }, querySelectorAll: (q: string) => (q === 'button[data-command]' ? fakes : []), getElementById: () => null };
  new Function('acquireVsCodeApi', 'document', js)(() => api, document);
  return out;
}

const base = { title: 'Before/After: a.workitems.json', lines: ['Service: Sandbox'], section: '<section id="wis-changes"></section>', nonce: 'n0nce', cspSource: 'vscode-resource:' };

describe('changes: a sent Before/After view cannot send again', () => {
  it('renders Send disabled and the send time when sent', () => {
    const html = renderChangesPage({
      ...base,
      documentUri: 'file:///a.workitems.json',
      sentAt: '2026-11-26T09:00:00.000Z',
      buttons: [
        { command: 'refresh', label: 'Preview Again' },
        { command: 'send', label: 'Send', secondary: true, disabled: true, title: 'Already sent' },
      ],
    });
    assert.match(html, /<body data-document="file:\/\/\/a\.workitems\.json" data-sent="2026-11-26T09:00:00\.000Z">/);
    assert.match(html, /<button data-command="send" class="secondary" disabled aria-disabled="true" title="Already sent">Send<\/button>/);
    assert.ok(html.indexOf('data-command="refresh"') < html.indexOf('data-command="send"'), 'Preview Again comes first');
    assert.match(html, /<script nonce="n0nce" src="media\/changes\/page\.js"><\/script>/);
    const page = runPageScript({ document: 'file:///a.workitems.json' }, [{ command: 'refresh' }, { command: 'send', disabled: true }]);
    assert.deepEqual(page.state, { document: 'file:///a.workitems.json' }, 'the view keeps its document for a window reload');
    page.click(1);
    assert.deepEqual(page.posted, [], 'a disabled button posts nothing');
    page.click(0);
    assert.deepEqual(page.posted, [{ command: 'refresh' }]);
  });

  it('renders Send enabled before the send', () => {
    const html = renderChangesPage({ ...base, buttons: [{ command: 'refresh', label: 'Refresh' }, { command: 'send', label: 'Send', secondary: true }] });
    assert.match(html, /<button data-command="send" class="secondary">Send<\/button>/);
    assert.ok(!/data-sent=/.test(html));
  });
});

describe('editors: irreversible changes are named before sending', () => {
  it('clearSchedule deletes schedule links, which no undo puts back', () => {
    assert.deepEqual(irreversibleChanges({ clearSchedule: true }), ['links-deleted']);
    assert.deepEqual(irreversibleChanges({ clearSchedule: true, moveScheduleDays: 2 }), ['links-deleted']);
  });
  it('other changes can be undone, and restore ignores clearSchedule', () => {
    assert.deepEqual(irreversibleChanges({ moveScheduleDays: 2 }), []);
    assert.deepEqual(irreversibleChanges({ clearSchedule: false }), []);
    assert.deepEqual(irreversibleChanges({ restore: true, clearSchedule: true }), []);
  });
});
