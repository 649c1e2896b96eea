// The vscode-free model of the work item table: rows and columns, sorting,
// filters (structured and typed), edits with undo / redo, fill down and paste,
// grouping of edits into request documents, CSV / TSV export and import, new items
// (drafts) from a pasted outline and from imported rows without an ID.
export * from './apply';
export * from './cells';
export * from './columns';
export * from './csv';
export * from './delimited';
export * from './edits';
export * from './filter';
export * from './filter-messages';
export * from './filter-text';
export * from './group';
export * from './lookup';
export * from './names';
export * from './sort';
export * from './text';
export * from './filterStore';
export * from './layout';
export * from './load';
export * from './session';
export * from './window';
export * from './editView';
export * from './pending';
export * from './encoding';
export * from './importLimits';
export * from './importReport';
export * from './drafts';
export * from './outline';
export type { DefaultItemTypes } from './new-fields';
export { childPath, type NewRowsOptions } from './import-new';
