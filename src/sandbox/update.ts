// The sandbox's update engine: operation 1 of service-api.md
// (PUT /workitem/workItems/{ids}). No vscode import.
import type { UpdateWorkItemsResponse } from '../schema/api';
import type { Dataset, Edition } from './model';

export interface SandboxErrorEntry {
  message: string;
  code: string;
  /** Number of the error condition in service-api.md "Errors" (1-29), when one applies. */
  rule?: number;
  itemId?: string;
  field?: string;
}

export interface UpdateContext {
  /** User ID of the signed-in caller. */
  callerId: string;
  edition: Edition;
  now: Date;
}

export type UpdateOutcome =
  | { ok: true; response: UpdateWorkItemsResponse }
  | { ok: false; status: number; errors: SandboxErrorEntry[] };

/**
 * Applies an update to the items `ids` of `data`. Atomic: `data` is changed only
 * when the outcome is ok.
 */
export function applyUpdate(data: Dataset, ids: string[], body: unknown, ctx: UpdateContext): UpdateOutcome {
  void data;
  void ids;
  void body;
  void ctx;
  return { ok: false, status: 501, errors: [{ message: 'update is not implemented yet', code: 'NotImplemented' }] };
}
