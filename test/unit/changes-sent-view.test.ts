// A Before/After view whose document was sent: the page shows Send disabled (a click
// posts nothing), "Preview Again" first, and carries the send time; and Send asks first
// before an irreversible change (clearSchedule deletes schedule links).
import * as assert from 'node:assert/strict';
import { renderChangesPage } from '../../src/changes/model/page';
import { PREVIEW_BUTTONS, previewState, readPreviewMessage } from '../../src/changes/model/protocol';
import { irreversibleChanges } from '../../src/changes/model/irreversible';
import { pressed } from '../../src/webview/web/posted';

/** The page's buttons as its script reads them from the HTML (name, disabled). */
function pageButtons(html: string): { command: string; disabled: boolean }[] {
  return [...html.matchAll(/<button data-command="([^"]+)"([^>]*)>/g)].map((m) => ({ command: m[1]!, disabled: / disabled/.test(m[2]!) }));
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
    assert.match(html, /<script nonce="n0nce" src="dist\/web\/changes\.js"><\/script>/);
    assert.deepEqual(previewState('file:///a.workitems.json'), { document: 'file:///a.workitems.json' }, 'the view keeps its document for a window reload');
    const [refresh, send] = pageButtons(html);
    assert.equal(pressed(PREVIEW_BUTTONS, send!), undefined, 'a disabled button posts nothing');
    const click = pressed(PREVIEW_BUTTONS, refresh!);
    assert.deepEqual(click, { type: 'command', name: 'refresh' });
    assert.deepEqual(readPreviewMessage(click), click, 'the extension reads the press as the page posts it');
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
