// Fault injection for tests (POST /_sandbox/faults). Sandbox-only, never part of
// the service API. No vscode import.
import { z } from 'zod';

export const FaultSpec = z.strictObject({
  /** Delay before the request is handled. */
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  /** Answer with this status instead of handling the request (nothing is applied). */
  status: z.number().int().min(400).max(599).optional(),
  /** Adds `Retry-After`; without `status` the answer is 429. */
  retryAfterSeconds: z.number().int().min(0).optional(),
  /** Handle the request (an update is applied), then destroy the connection without answering. */
  dropAfterApply: z.literal(true).optional(),
  /**
   * Handle the request (an update or add is applied), then answer this status instead of its
   * answer: a gateway that forwarded the request and answered 503 (or 429) itself.
   */
  statusAfterApply: z.number().int().min(400).max(599).optional(),
  /** Handle the request (an update or add is applied), then wait this long before answering (a slow answer). */
  answerDelayMs: z.number().int().min(0).max(600_000).optional(),
  /** Destroy the connection without handling the request (nothing is applied). */
  dropBeforeApply: z.literal(true).optional(),
  /** How many matching requests the fault applies to (default 1). */
  times: z.number().int().min(1).default(1),
  /** Only requests with this method (case-insensitive). */
  method: z.string().min(1).optional(),
  /** Only requests whose path (from the origin, e.g. /api/workitem/workItems/1) contains this, case-insensitively. */
  pathContains: z.string().optional(),
});
export type FaultSpec = z.infer<typeof FaultSpec>;

export interface Fault extends FaultSpec {
  remaining: number;
}

export class FaultQueue {
  private faults: Fault[] = [];

  add(spec: FaultSpec): Fault {
    const f: Fault = { ...spec, remaining: spec.times };
    this.faults.push(f);
    return f;
  }

  clear(): void {
    this.faults = [];
  }

  pending(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The first queued fault matching the request, consumed once. */
  take(method: string, path: string): Fault | undefined {
    const m = method.toUpperCase();
    const p = path.toLowerCase();
    const i = this.faults.findIndex(
      (f) => (f.method === undefined || f.method.toUpperCase() === m) && (f.pathContains === undefined || p.includes(f.pathContains.toLowerCase())),
    );
    if (i < 0) return undefined;
    const f = this.faults[i]!;
    f.remaining -= 1;
    if (f.remaining <= 0) this.faults.splice(i, 1);
    return { ...f };
  }
}
