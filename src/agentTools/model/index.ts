// The language model tools' model: their inputs checked, where a find reads, a draft
// checked as the editor checks a request document, and the answers. No vscode import.
export * from './input';
export * from './answers';
export * from './draft';
export * from './source';
