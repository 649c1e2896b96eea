// The sort pick of the Process Categories view: what a typed `code asc` means.
// No vscode import (the labels are localized by the command).
import type { SortDirection } from './filters';

export interface SortOrder {
  field: string;
  direction: SortDirection;
}

/**
 * Reads a typed order: `code asc`, `Code descending`, `code` (ascending), `-code` (descending),
 * field names matched case-insensitively against `fields`. Undefined when it names no field.
 */
export function parseSortText(text: string, fields: readonly string[]): SortOrder | undefined {
  const t = text.trim().replace(/,/g, ' ');
  const m = /^(-)?\s*([A-Za-z][A-Za-z0-9_]*)\s*(asc|ascending|desc|descending|up|down)?$/i.exec(t);
  if (!m) return undefined;
  const field = fields.find((f) => f.toLowerCase() === m[2]!.toLowerCase());
  if (!field) return undefined;
  const word = m[3]?.toLowerCase();
  const direction: SortDirection = m[1] || word === 'desc' || word === 'descending' || word === 'down' ? 'desc' : 'asc';
  return { field, direction };
}

/** The `orderby` text of an order, also what a person types to pick it (`code asc`). */
export function sortText(order: SortOrder): string {
  return `${order.field} ${order.direction}`;
}
