// Request documents (`*.workitems.json`): recognising them and parsing one with the
// request-document checks. Shared by the features (people's hovers, the work items'
// Reveal, the before/after values, the editors' checks), so none imports another.
import * as vscode from 'vscode';
import { getNodeValue } from 'jsonc-parser';
import * as path from 'node:path';
import type { validateRequestDocument } from '../schema/document';
import { REQUEST_DOCUMENT_SUFFIX } from '../schema/suffix';
import type { ServiceFieldCatalogue } from '../schema/service-fields';
import { parseText, type ParsedText } from './model/locate';
import { core } from '../core/load';

export function isRequestDocumentUri(uri: vscode.Uri): boolean {
  return uri.path.toLowerCase().endsWith(REQUEST_DOCUMENT_SUFFIX);
}

export function isRequestDocument(doc: vscode.TextDocument): boolean {
  return isRequestDocumentUri(doc.uri);
}

export interface Analysis {
  parsed: ParsedText;
  /** Undefined when the text is not valid JSON. */
  validation?: ReturnType<typeof validateRequestDocument>;
}

/**
 * Parses and checks a request document's text. `catalogue`: the connected service's own
 * field catalogue, which the field checks then follow (custom fields, their types and
 * ranges); without it the built-in official system fields apply.
 */
export function analyzeText(text: string, catalogue?: ServiceFieldCatalogue): Analysis {
  const parsed = parseText(text);
  if (parsed.errors.length > 0 || !parsed.root) return { parsed };
  return { parsed, validation: core().validateRequestDocument(getNodeValue(parsed.root), catalogue ? { catalogue } : {}) };
}

/** The file name a job or view shows for a request document. */
export function documentName(uri: vscode.Uri | string | undefined): string {
  if (!uri) return vscode.l10n.t('(unknown document)');
  const u = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
  return path.posix.basename(u.path) || u.toString();
}
