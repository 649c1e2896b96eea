// New work items before they are rows of the table, without vscode: what an outline pasted
// from a spreadsheet, the rows of an import without an ID, Add Row, Add Sub-item and
// Duplicate Rows give. A list of drafts is in tree order (a parent before its children,
// siblings in order); nothing is added to the service until the table's review is sent.

/** Whether an ID is a new row's (`new-1`, …; never an ID of the service: those are numbers). */
export const isNewRowId = (id: string): boolean => id.startsWith('new-');

/** Where a new item goes: below an existing item (its ID) or below an earlier draft of the same list (its index). */
export type DraftParent = { readonly id: string } | { readonly draft: number };

/** One new item to add. */
export interface NewItemDraft {
  readonly parent: DraftParent;
  /** Values by system name, as an edit of the cell gives them (cells.ts parseCellInput). */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The line of the source it came from (1-based), for messages. */
  readonly line?: number;
}

/** Whether a draft's parent is another draft of the list. */
export const isDraftParent = (p: DraftParent): p is { readonly draft: number } => 'draft' in p;

/**
 * Checks the shape every producer promises: each parent draft comes earlier in the list.
 * Returns the index of the first draft that breaks it, or -1.
 */
export function firstMisplacedDraft(drafts: readonly NewItemDraft[]): number {
  for (let i = 0; i < drafts.length; i++) {
    const p = drafts[i]!.parent;
    if (isDraftParent(p) && !(Number.isInteger(p.draft) && p.draft >= 0 && p.draft < i)) return i;
  }
  return -1;
}
