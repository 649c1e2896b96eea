// The placeholder values that templates, snippets and commands put into a new
// request document for the user to replace ("WORK-ITEM-ID", "PARENT-ID",
// "login-name", ...). Left in a document, one is an error that blocks sending:
// the service would answer 404 (or assign nobody). Example values of templates
// (7 days, "New name", dates) are real values and not listed. No vscode import.

/** Every placeholder text a template or a command inserts (a unit test keeps it in step with TEMPLATES). */
export const PLACEHOLDER_TEXTS: readonly string[] = [
  'WORK-ITEM-ID',
  'PARENT-ID',
  'SIBLING-ID',
  'ITEM-TYPE-ID',
  'SOURCE-ITEM-ID',
  'FOLDER-ID',
  'login-name',
];

/** Whether a text is a placeholder the user has not replaced yet. */
export function isPlaceholderText(text: string): boolean {
  return PLACEHOLDER_TEXTS.includes(text.trim());
}

/** Whether a placeholder's text looks like one (an upper-case "…-ID" marker or "login-name"), for the unit test. */
export function looksLikePlaceholder(text: string): boolean {
  return /^[A-Z][A-Z-]*-ID$/.test(text) || text === 'login-name';
}
