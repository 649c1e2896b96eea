// A Before/After view whose document was sent: the page shows Send disabled (a click
// posts nothing), "Preview Again" first, and carries the send time; and Send asks first
// before an irreversible change (clearSchedule deletes schedule links).
import * as assert from 'node:assert/strict';
import { renderChangesPage } from '../../src/changes/model/page';
import { irreversibleChanges } from '../../src/editors/model/irreversible';

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
    assert.match(html, /if \(!b\.disabled\) vscode\.postMessage/, 'a disabled button posts nothing');
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
