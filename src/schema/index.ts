// Public surface of the schema layer (no vscode import).
export * from './api';
export * from './fields';
export * from './field-values';
export * from './error-codes';
export * from './issues';
export * from './rules';
export * from './document';
