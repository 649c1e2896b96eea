// Forms for the common changes (shift schedule, set status, leader, assignees, complete,
// lock time entry), in the real extension host against the
// demo sandbox: each form run with scripted answers (the command's `answers`) opens a
// request document with the IDs, a description and the body the templates write; the
// document is sent as any other, and the sandbox then holds the new values.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, closeUntitledDocuments } from './support';

type SendOutcome = { baseUrl: string; result: { outcome: string; requests: { state: string; ids: string[] }[] } };
type SandboxItem = {
  plannedStartDate?: string;
  plannedFinishDate?: string;
  statusTypeId?: string;
  leaderId?: string;
  timeEntryLocked?: boolean;
  actualProgress?: number;
  assignments?: { partyId: string; plannedTime?: number }[];
};

describe('forms: change the selected work items without writing JSON', function () {
  this.timeout(180_000);
  const config = () => vscode.workspace.getConfiguration('workItemStudio');
  let organizationsBefore: string[] | undefined;
  let origin: string | undefined;

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    organizationsBefore = config().inspect<string[]>('organizations')?.globalValue;
    // The users to choose from by name: those of the demo's root organization.
    await config().update('organizations', ['1001'], vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('organizations', organizationsBefore, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** Runs a form; answers the opened document's parsed text and the document. */
  async function form(command: string, options: { ids?: string[]; answers: Record<string, unknown> }): Promise<{ doc: vscode.TextDocument; value: { description?: string; workItemIds: string[]; update: unknown } }> {
    const editor = (await vscode.commands.executeCommand(command, options)) as vscode.TextEditor | undefined;
    assert.ok(editor, `${command} opened no document`);
    assert.match(editor.document.uri.path, /\.workitems\.json$/);
    return { doc: editor.document, value: JSON.parse(editor.document.getText()) as { description?: string; workItemIds: string[]; update: unknown } };
  }

  async function send(doc: vscode.TextDocument): Promise<void> {
    const [sent] = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', doc.uri)) as SendOutcome[];
    assert.ok(sent, 'nothing was sent');
    assert.equal(sent.result.outcome, 'succeeded', JSON.stringify(sent.result.requests));
    origin = new URL(sent.baseUrl).origin;
  }

  const item = async (id: string): Promise<SandboxItem> => (await (await fetch(`${origin}/_sandbox/workitems/${id}`)).json()) as SandboxItem;

  it('Shift Schedule on the checked items: moveScheduleDays, sent, both items a week later', async () => {
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    const revealed = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['134', '135'] })) as unknown[];
    assert.equal(revealed.length, 2, 'items 134 and 135 were not found in the view');
    // No IDs given: the checked items of the Work Items view.
    const { doc, value } = await form('workItemStudio.shiftScheduleForm', { answers: { days: '+7' } });
    assert.deepEqual([...value.workItemIds].sort(), ['134', '135']);
    assert.deepEqual(value.update, { moveScheduleDays: 7 });
    assert.ok(value.description?.includes('+7'), value.description);
    await send(doc);
    assert.equal((await item('134')).plannedStartDate?.slice(0, 10), '2026-05-21');
    assert.equal((await item('135')).plannedStartDate?.slice(0, 10), '2026-05-22');
  });

  it('Shift Schedule of one item to a start date: the days between its planned start and the date', async () => {
    const { doc, value } = await form('workItemStudio.shiftScheduleForm', { ids: ['136'], answers: { date: '2026/5/20' } });
    assert.deepEqual(value, { description: value.description, workItemIds: ['136'], update: { moveScheduleDays: 4 } });
    await send(doc);
    const after = await item('136');
    assert.equal(after.plannedStartDate?.slice(0, 10), '2026-05-20');
    assert.equal(after.plannedFinishDate?.slice(0, 10), '2026-05-25');
  });

  it('a scripted answer the form refuses names the step and the problem; nothing is opened', async () => {
    const before = vscode.workspace.textDocuments.filter((d) => !d.isClosed).length;
    const zero = (await vscode.commands.executeCommand('workItemStudio.shiftScheduleForm', { ids: ['134'], answers: { days: '0' } })) as { problem?: string };
    assert.match(zero.problem ?? '', /^Shift Schedule.*: 0 days does not move the schedule\.$/);
    const nobody = (await vscode.commands.executeCommand('workItemStudio.setLeaderForm', { ids: ['134'], answers: { leader: 'nobody-at-all' } })) as { problem?: string };
    assert.match(nobody.problem ?? '', /No user is named "nobody-at-all"/);
    const leapless = (await vscode.commands.executeCommand('workItemStudio.shiftScheduleForm', { ids: ['136'], answers: { date: '2026-02-29' } })) as { problem?: string };
    assert.match(leapless.problem ?? '', /2026-02-29 is not a day of the calendar/);
    // A status the profile marks unavailable is not offered.
    const unavailable = (await vscode.commands.executeCommand('workItemStudio.setStatusForm', { ids: ['134'], answers: { status: '保留（利用不可）' } })) as { problem?: string };
    assert.match(unavailable.problem ?? '', /No status "保留（利用不可）" in the profile of project 3001/);
    assert.equal(vscode.workspace.textDocuments.filter((d) => !d.isClosed).length, before);
  });

  it('Set Status by name from the project profile: the status ID inserted, sent', async () => {
    const { doc, value } = await form('workItemStudio.setStatusForm', { ids: ['134', '135'], answers: { status: '進行中' } });
    assert.deepEqual(value.update, { fields: { StatusTypeId: '52' } });
    await send(doc);
    assert.equal((await item('134')).statusTypeId, '52');
    assert.equal((await item('135')).statusTypeId, '52');
  });

  it('Set Leader and Add / Remove Assignees by user name: IDs and login names inserted, sent', async () => {
    const leader = await form('workItemStudio.setLeaderForm', { ids: ['134'], answers: { leader: '鈴木 一郎' } });
    assert.deepEqual(leader.value.update, { fields: { LeaderId: '2102' } });
    await send(leader.doc);
    assert.equal((await item('134')).leaderId, '2102');

    const add = await form('workItemStudio.addAssigneesForm', { ids: ['135'], answers: { users: ['hanako.sato'], plannedHours: '1.5' } });
    assert.deepEqual(add.value.update, { assignmentChange: { adds: [{ partyType: 'User', user: 'hanako.sato', plannedTime: 90 }] } });
    await send(add.doc);
    assert.equal((await item('135')).assignments?.find((a) => a.partyId === '2101')?.plannedTime, 90);

    const remove = await form('workItemStudio.removeAssigneesForm', { ids: ['135'], answers: { users: ['佐藤 花子'] } });
    assert.deepEqual(remove.value.update, { assignmentChange: { removeUsers: ['hanako.sato'] } });
    await send(remove.doc);
    assert.equal((await item('135')).assignments?.some((a) => a.partyId === '2101'), false);
  });

  it('Complete and Lock Time Entry: setCompleted / setTimeEntryLocked, sent', async () => {
    const done = await form('workItemStudio.setCompletedForm', { ids: ['136'], answers: { completed: true } });
    assert.deepEqual(done.value.update, { setCompleted: true });
    await send(done.doc);
    assert.equal((await item('136')).actualProgress, 100);

    const lock = await form('workItemStudio.setTimeEntryLockedForm', { ids: ['136'], answers: { locked: true } });
    assert.deepEqual(lock.value.update, { setTimeEntryLocked: true });
    await send(lock.doc);
    assert.equal((await item('136')).timeEntryLocked, true);
  });

  it('the real QuickInput: Enter takes the active choice, Back returns to the step before, Escape opens nothing', async () => {
    const settle = () => new Promise((r) => setTimeout(r, 800));
    const picked = Promise.resolve(vscode.commands.executeCommand('workItemStudio.setCompletedForm', { ids: ['136'] }));
    await settle();
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const editor = (await picked) as vscode.TextEditor | undefined;
    assert.ok(editor, 'Enter on the first choice opened no document');
    assert.deepEqual((JSON.parse(editor.document.getText()) as { update: unknown }).update, { setCompleted: true });

    const before = vscode.workspace.textDocuments.filter((d) => !d.isClosed).length;
    const shifted = Promise.resolve(vscode.commands.executeCommand('workItemStudio.shiftScheduleForm', { ids: ['136'] }));
    await settle();
    // Step 1 of 2 (by days / to a date): the first choice; then step 2 (days); Back; Escape.
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await settle();
    await vscode.commands.executeCommand('workbench.action.quickInputBack');
    await settle();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await shifted, undefined, 'a form left with Escape opens nothing');
    assert.equal(vscode.workspace.textDocuments.filter((d) => !d.isClosed).length, before);
  });

  it('is offered in the Work Items item context menu (submenu) and the palette', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['shiftScheduleForm', 'setStatusForm', 'setLeaderForm', 'addAssigneesForm', 'removeAssigneesForm', 'setCompletedForm', 'setTimeEntryLockedForm']) {
      assert.ok(commands.includes(`workItemStudio.${c}`), c);
    }
  });
});
