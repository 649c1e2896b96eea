// Shared steps of the fault tests of adds (not a test file itself): changes of small adds below
// folders of the sandbox, the rounds that settle a job after its faults (Retry Failed, Resume,
// as the user would run them), and the check that every add made its items exactly once and
// is either succeeded with exactly their IDs or reported unknown with them among its candidates.
import * as assert from 'node:assert/strict';
import { addedItems, confirmUnknown, JobJournal, resumeJob, retryFailed, unknownAddIndexes, type ChangeRequest, type RunOptions } from '../../src/bulk';
import type { Sandbox } from '../../src/sandbox';

export const FOLDER = '41';
export const TASK = '42';

/** An add of a folder `name` with `subs` tasks below it (`name 1`, `name 2`, ...). */
export function addOf(parentId: string, name: string, subs: number): ChangeRequest {
  const subItems = Array.from({ length: subs }, (_, i) => ({ fields: { ItemTypeId: TASK, Name: `${name} ${i + 1}` } }));
  return { workItemIds: [], update: {}, kind: 'add', add: { parentId, item: { fields: { ItemTypeId: FOLDER, Name: name }, ...(subs > 0 ? { subItems } : {}) } } };
}

/** Folders of the sandbox new items can go below (live, in a project that is not locked, without actuals). */
export function parentFolders(sandbox: Sandbox): string[] {
  const locked = new Set(sandbox.data.projects.filter((p) => p.isLocked).map((p) => p.id));
  return sandbox.data.workItems
    .filter((w) => w.itemTypeId === FOLDER && w.parentId !== null && !w.isDeleted && !locked.has(w.projectId) && !(w.actualTime > 0) && !(w.actualCost > 0))
    .map((w) => w.id);
}

/** An item of the sandbox and its live items below it, depth first. */
export function liveSubtree(sandbox: Sandbox, id: string): string[] {
  const children = new Map<string, string[]>();
  for (const w of sandbox.data.workItems) {
    if (w.isDeleted || w.parentId === null) continue;
    const list = children.get(w.parentId);
    if (list) list.push(w.id);
    else children.set(w.parentId, [w.id]);
  }
  const out: string[] = [];
  const walk = (x: string): void => {
    out.push(x);
    for (const c of children.get(x) ?? []) walk(c);
  };
  walk(id);
  return out;
}

/** What became of the adds of the jobs checked. */
export interface AddTally {
  adds: number;
  /** Succeeded as answered (sent once, the answer came). */
  answered: number;
  /** Of unknown outcome at some point, then found below the parent by their key. */
  foundByKey: number;
  /** Reported unknown with candidates (the real item among them), then named by "the user". */
  undecided: number;
  /** Items an add made more than once. */
  duplicates: number;
  /** Adds left unknown, failed or unsent without the item they made among their candidates. */
  unreported: string[];
}

export function newTally(): AddTally {
  return { adds: 0, answered: 0, foundByKey: 0, undecided: 0, duplicates: 0, unreported: [] };
}

/**
 * What the user does after a job met faults, in rounds until nothing changes: Retry Failed
 * when some request failed, Resume while some request is unsent or an add of unknown outcome
 * was not looked for successfully (an undecided add keeps its candidates: that is for the user).
 */
export async function settleJob(file: string, opts: RunOptions): Promise<void> {
  for (let round = 0; round < 8; round++) {
    const journal = await JobJournal.load(file);
    if (journal.indexesIn('failed').length > 0) {
      await retryFailed(journal, opts);
      continue;
    }
    const open = unknownAddIndexes(journal).filter((i) => !(journal.requests[i]!.candidates?.length ?? 0));
    if (journal.indexesIn('pending').length > 0 || open.length > 0) {
      await resumeJob(journal, { ...opts, withoutUndo: true });
      continue;
    }
    return;
  }
}

/**
 * Checks each add of a settled job against the sandbox: the items it made exist once; a
 * succeeded add names exactly them; an unknown one has the real item among its candidates,
 * and naming it (as the user would) gives the add exactly those IDs. `tally` counts the paths.
 */
export async function checkAdds(sandbox: Sandbox, file: string, tally: AddTally, label: string): Promise<void> {
  let journal = await JobJournal.load(file);
  const live = sandbox.data.workItems.filter((w) => !w.isDeleted);
  const chosen = new Map<number, string>();
  for (const [part, p] of journal.plan.parts.entries()) {
    if (p.kind !== 'add' || !p.add) continue;
    tally.adds++;
    const index = journal.plan.requests.find((r) => (r.part ?? 0) === part)!.index;
    const r = journal.requests[index]!;
    const name = String(p.add.item.fields.Name);
    const made = live.filter((w) => w.parentId === p.add!.parentId && w.name === name);
    tally.duplicates += Math.max(0, made.length - 1);
    const where = `${label}: add "${name}" below ${p.add.parentId} (${r.state}, ${r.attempts} attempt(s))`;
    if (r.state === 'succeeded') {
      if (made.length === 0) tally.unreported.push(`${where}: succeeded, but nothing was made`);
      else if (r.matched === 'key') tally.foundByKey++;
      else tally.answered++;
      continue;
    }
    if ((r.state === 'unknown' || r.state === 'cancelled') && made.length === 1 && r.candidates?.some((c) => c.id === made[0]!.id)) {
      tally.undecided++;
      chosen.set(index, made[0]!.id);
      continue;
    }
    tally.unreported.push(`${where}: ${made.length} item(s) made, candidates ${JSON.stringify(r.candidates ?? [])}${r.checkError ? `, look failed: ${r.checkError.message}` : ''}${r.error ? `, ${r.error.message}` : ''}`);
  }
  if (chosen.size > 0) {
    await confirmUnknown(journal, [...chosen.keys()], chosen);
    journal = await JobJournal.load(file);
  }
  // Every succeeded add (answered, found, or named) holds exactly the IDs of what it made: what its undo deletes.
  for (const a of addedItems(journal.plan, journal.requests)) {
    if (a.state !== 'succeeded') continue;
    const p = journal.plan.parts[a.part]!;
    const made = live.filter((w) => w.parentId === a.parentId && w.name === String(p.add!.item.fields.Name));
    if (made.length !== 1) continue;
    assert.deepEqual([...a.ids].sort(), liveSubtree(sandbox, made[0]!.id).sort(), `${label}: the IDs of the add below ${a.parentId} are exactly the items it made`);
    assert.deepEqual(a.top, [made[0]!.id], `${label}: the add's item below ${a.parentId}`);
  }
}
