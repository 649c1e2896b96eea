// The service API client (no vscode import): everything other areas use.
export * from './errors';
export * from './logger';
export * from './paths';
export * from './http';
export * from './client';
export * from './dispatcher';
export * from './reads';
export * from './limits';
export * from './pacer';
