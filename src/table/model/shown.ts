// The shapes of the table's rows and cell editors as the page gets them: types only (no
// import, no code), so that the page's scripts (src/table/web/, through src/table/protocol.ts)
// see these and nothing else of the model.
/** One row as the webview gets it: its ID, level (tree column) and the shown text of each column. */
export interface ShownRow {
  id: string;
  level: number;
  /** Some sub-items (a folder or a container). */
  container: boolean;
  cells: string[];
  /** Hover texts of user cells shown by name: column key → each user's name with the ID ("田中 美咲 (2104)"), a line each. */
  titles?: Record<string, string>;
}

/** A shown row whose edited cells are marked: column key → the value before, as shown. */
export interface EditedShownRow extends ShownRow {
  edited?: Record<string, string>;
}

/** The in-cell editor of a column: an input of a kind, or a list of choices. */
export interface CellEditorSpec {
  kind: 'text' | 'number' | 'date' | 'choice';
  /** The text the editor starts with (for a choice: the chosen value). */
  value: string;
  /** Choices of a list or user column: `value` is what is committed (an ID), `label` what is shown. */
  choices?: { value: string; label: string }[];
  /** An empty choice (clear the field) is offered. */
  allowEmpty?: boolean;
}
