// The questions of Copy Folder as Template: which item to copy (when none is chosen in
// the Work Items view), where the copy goes (an item checked in the view, or a folder of
// a project picked from a list), and the date it starts on (optional). Each is a plain
// QuickPick or InputBox titled with its step; Escape cancels the whole command.
import * as vscode from 'vscode';
import type { Project, SubItemNode } from '../schema/reads';
import type { ProjectProfile } from '../schema/catalogue';
import { folderChoices, readStartDate, type FolderChoice, type TemplateDestination } from './model';
import { problemText } from './messages';

/** What the pickers need of the connection and the Work Items view (src/templates/index.ts gives it). */
export interface PickerReads {
  /** The projects to offer: those the Work Items view has loaded, else the service's first page. */
  projects(): Promise<readonly Project[]>;
  /** A project's tree from its root folder, with few fields. */
  tree(rootId: string): Promise<SubItemNode>;
  profile(projectId: string): Promise<ProjectProfile | undefined>;
  /** The one item checked in the Work Items view other than the source, as a destination. */
  chosenInView(): Promise<TemplateDestination | undefined>;
}

const title = (step: number, total: number): string => vscode.l10n.t('Copy Folder as Template ({0}/{1})', step, total);

/** The ID of the item to copy, typed (a whole number). */
export async function askSourceId(): Promise<string | undefined> {
  const id = await vscode.window.showInputBox({
    title: vscode.l10n.t('Copy Folder as Template'),
    prompt: vscode.l10n.t('The ID of the folder (or any work item with sub-items) to copy. Tip: right-click it in the Work Items view instead.'),
    ignoreFocusOut: true,
    validateInput: (t) => (/^\s*\d+\s*$/.test(t) || t.trim() === '' ? undefined : vscode.l10n.t('"{0}" is not a work item ID.', t.trim())),
  });
  return id?.trim() || undefined;
}

type Pick = vscode.QuickPickItem & { take: () => Promise<TemplateDestination | 'back' | undefined> };

/** Where the copy goes: an item chosen in the Work Items view, or a project and then one of its folders. */
export async function pickDestination(reads: PickerReads, source: { id: string; projectId?: string }): Promise<TemplateDestination | undefined> {
  for (;;) {
    const inView = await reads.chosenInView();
    const projects = [...(await reads.projects())].filter((p) => p.workItemRootFolderId != null && p.isDeleted !== true);
    // The source's project first, then the others as the view lists them.
    projects.sort((a, b) => Number(String(b.id) === source.projectId) - Number(String(a.id) === source.projectId));
    const items: Pick[] = [];
    if (inView) {
      items.push({ label: `$(pass-filled) ${inView.name}`, description: vscode.l10n.t('checked in the Work Items view · ID {0}', inView.id), take: async () => inView });
      items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, take: async () => undefined });
    }
    for (const p of projects) {
      items.push({
        label: `$(project) ${p.name}`,
        description: String(p.id) === source.projectId ? vscode.l10n.t('{0} · the same project', p.code ?? String(p.id)) : (p.code ?? String(p.id)),
        detail: p.isFinished ? vscode.l10n.t('Finished project') : undefined,
        take: () => pickFolder(reads, p, source.id),
      });
    }
    const chosen = await vscode.window.showQuickPick(items, {
      title: title(1, 2),
      placeHolder: vscode.l10n.t('Where does the copy go? The project, then its folder'),
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    if (!chosen) return undefined;
    const taken = await chosen.take();
    if (taken !== 'back') return taken;
  }
}

/** A folder of `project` (its top level first); 'back' when the person goes back to the projects. */
async function pickFolder(reads: PickerReads, project: Project, sourceId: string): Promise<TemplateDestination | 'back' | undefined> {
  const rootId = String(project.workItemRootFolderId);
  const [tree, profile] = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading the folders of {0}', project.name) }, () =>
    Promise.all([reads.tree(rootId), reads.profile(String(project.id))]),
  );
  const choices = folderChoices(tree, String(project.id), profile, sourceId);
  type FolderPick = vscode.QuickPickItem & { folder?: FolderChoice };
  const qp = vscode.window.createQuickPick<FolderPick>();
  qp.title = title(2, 2);
  qp.placeholder = vscode.l10n.t('The folder of {0} the copy goes below (it goes last)', project.name);
  qp.matchOnDescription = true;
  qp.ignoreFocusOut = true;
  qp.buttons = [vscode.QuickInputButtons.Back];
  qp.items = choices.map((f) => ({
    label: f.level === 0 ? `$(root-folder) ${vscode.l10n.t('Top level of {0}', project.name)}` : `${'\u2003'.repeat(f.level - 1)}$(folder) ${f.name}`,
    description: f.level === 0 ? undefined : `ID ${f.id}${f.path.length > 0 ? ` · ${f.path.join(' › ')}` : ''}`,
    folder: f,
  }));
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: TemplateDestination | 'back' | undefined): void => {
      if (done) return;
      done = true;
      resolve(r);
      qp.dispose();
    };
    qp.onDidTriggerButton(() => finish('back'));
    qp.onDidAccept(() => {
      const f = qp.activeItems[0]?.folder;
      if (f) finish(f);
    });
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}

/** The date the copy starts on: a date, '' for none (the dates stay), undefined when cancelled. */
export async function askStartDate(earliest: string): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Copy Folder as Template'),
    prompt: vscode.l10n.t('The date the copy starts on (yyyy-mm-dd): every planned date moves by the same number of days. Empty: the dates stay as they are (the original starts on {0}).', earliest),
    placeHolder: earliest,
    ignoreFocusOut: true,
    validateInput: (t) => {
      const r = readStartDate(t);
      return r.ok ? undefined : problemText(r.problem);
    },
  });
  if (text === undefined) return undefined;
  const r = readStartDate(text);
  return r.ok ? (r.date ?? '') : undefined;
}

