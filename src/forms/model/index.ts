// The vscode-free part of the forms: reading inputs, the pickers' choices, the bodies and documents.
export * from './inputs';
export * from './choices';
export * from './bodies';
