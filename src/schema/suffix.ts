// The file-name suffix of request documents, on its own: activation code needs it
// to recognize a request document without loading the schemas. No vscode import.

/** File names of request documents end with this (matched case-insensitively). */
export const REQUEST_DOCUMENT_SUFFIX = '.workitems.json';
