// The engine's steps around an add (./engine.ts calls them in a request's turn): before it
// first leaves, one paced read of the parent's first level, journaled with the key its items
// carry; and when its outcome is unknown (on a resumption, a re-send, before a trusted retry
// of a 429/503), a paced read below the parent and the decision of ./addMatch.ts: found (it
// becomes succeeded with the IDs found, never sent again), absent (sent once), or undecided
// (it stays unknown with the candidates; sent only on the user's word). No vscode import.
import { isServiceError } from '../api/errors';
import type { Logger } from '../api/logger';
import type { Clock } from '../api/pacer';
import type { AddWorkItemRequest } from '../schema/additions';
import { idValue, workItemIdOf, type SubItemNode } from '../schema/reads';
import { ADD_KEY, addHeight, addKeyPrefix, decideAdd, foundAnswer, keyedAddItem, type AddDecision } from './addMatch';
import type { RunKind } from './journal/format';
import { ServiceGoneError, type ServiceGoneReason } from './service';
import type { AddCheck, BulkClient, JobPlan, PlanPart, RequestError, RequestResult } from './types';
import type { UpdateWorkItemsResponse } from '../schema/api';

/** What the engine gives the add steps of one run. */
export interface AddEnv {
  client: BulkClient;
  plan: JobPlan;
  records: RequestResult[];
  /** The job's id (its journal's), the first part of every key. */
  jobKey: string;
  kind: RunKind;
  /** Runs a read in the job's next paced turn. */
  paced<T>(call: () => Promise<T>): Promise<T>;
  /** Writes a change of a request (to the journal when there is one). */
  record(index: number, patch: Partial<RequestResult>): Promise<void>;
  /** A request reached its final state in this run (progress). */
  done(index: number): void;
  pause(reason: ServiceGoneReason): void;
  toError(e: unknown): RequestError;
  clock: Clock;
  settleMs: number;
  signal?: AbortSignal;
  log: Logger;
}

/** What a request's turn does after the add steps: send (with these members on its `sent` mark), or nothing more. */
export type AddTurn = { send: true; patch: Partial<RequestResult> } | { send: false };

/** Deepest ParentId chain followed for a parent's level (the service allows 16 levels). */
const MAX_CHAIN = 32;

export class AddSteps {
  /** Each item's parent as read (null: a project's root folder), shared by the adds of the run. */
  private readonly parentOf = new Map<string, string | null>();

  constructor(private readonly env: AddEnv) {}

  /** Whether the client can read below a parent (else adds of unknown outcome are not looked for). */
  get canRead(): boolean {
    return typeof this.env.client.getSubItems === 'function';
  }

  /** The body an add is sent with: its items with their keys, from what the journal holds. */
  static body(part: PlanPart, r: RequestResult): AddWorkItemRequest {
    return r.addCheck ? keyedAddItem(part.add!.item, r.addCheck.key) : part.add!.item;
  }

  /**
   * The steps of an add before it is handed to the client. `mayHaveLanded`: an earlier attempt
   * may have been applied (its outcome is unknown, or it was answered 429/503).
   */
  async beforeSend(index: number, part: PlanPart, mayHaveLanded: boolean): Promise<AddTurn> {
    const r = this.env.records[index]!;
    const key = r.addCheck?.key ?? addKeyPrefix(this.env.jobKey, this.env.plan.requests[index]?.part ?? 0);
    if (!mayHaveLanded) return this.snapshot(index, part, key);
    // The client cannot look: sent again only on the user's word (or a trusted retry), with its keys.
    if (!this.canRead) return { send: true, patch: r.addCheck ? {} : { addCheck: { key } } };
    return this.look(index, part, r, key);
  }

  /** Never applied so far: the parent's sub-items now (what is new later may be this add's), then send. */
  private async snapshot(index: number, part: PlanPart, key: string): Promise<AddTurn> {
    if (!this.canRead) return { send: true, patch: { addCheck: { key } } };
    try {
      const children = await this.readBelow(part.add!.parentId, 1, ['Id']);
      const before = children.map((c) => workItemIdOf(c)).filter((id): id is string => id !== undefined);
      const addCheck: AddCheck = { key, before };
      return { send: true, patch: { addCheck } };
    } catch (e) {
      if (await this.leftAsItWas(e)) return { send: false };
      // Not sent: the read before it failed. Retry Failed sends it (reading again first).
      const err = this.env.toError(e);
      await this.env.record(index, { state: 'failed', status: err.status, error: { ...err, step: 'add-read', message: `the add was not sent: the items below its parent could not be read first: ${err.message}` } });
      this.env.done(index);
      return { send: false };
    }
  }

  /** Its outcome is unknown: what is below the parent now decides whether it is sent. */
  private async look(index: number, part: PlanPart, r: RequestResult, key: string): Promise<AddTurn> {
    const env = this.env;
    const parentId = part.add!.parentId;
    const unknown: Partial<RequestResult> = r.state === 'unknown' || r.state === 'cancelled' ? {} : { state: 'unknown' };
    let decision: AddDecision;
    try {
      await this.settle(r);
      const children = await this.readBelow(parentId, addHeight(part.add!.item), ['Id', 'Name']);
      decision = decideAdd({
        item: part.add!.item,
        parentId,
        ...(r.addCheck ? { prefix: r.addCheck.key } : {}),
        ...(r.addCheck?.before ? { before: r.addCheck.before } : {}),
        children,
        metadataKept: this.keysAnswered(),
      });
    } catch (e) {
      if (await this.leftAsItWas(e)) return { send: false };
      const checkError = env.toError(e);
      env.log.warn(`bulk: request #${index}: the items below ${parentId} could not be read, so the add of unknown outcome stays so (not sent): ${checkError.message}`);
      await env.record(index, { ...unknown, checkError, candidates: undefined });
      env.done(index);
      return { send: false };
    }
    const settled: Partial<RequestResult> = { checkError: undefined, candidates: undefined };
    // Sent again, it carries its keys from now on (sent first by a version that gave it none: what is new is not known).
    const sending: Partial<RequestResult> = r.addCheck ? settled : { ...settled, addCheck: { key } };
    if (decision.kind === 'found') {
      const ids = decision.items.map((f) => f.id);
      env.log.info(`bulk: request #${index}: the add's items were found below ${parentId} by their key (${ids.join(', ')}): it succeeded, it is not sent again`);
      if (decision.others.length > 0) env.log.warn(`bulk: request #${index}: more items below ${parentId} carry the same key: ${decision.others.join(', ')}`);
      const response = foundAnswer(decision.items) as unknown as UpdateWorkItemsResponse;
      await env.record(index, { ...settled, state: 'succeeded', response, matched: 'key' });
      env.done(index);
      return { send: false };
    }
    if (decision.kind === 'absent') {
      env.log.info(`bulk: request #${index}: the add is not below ${parentId} (${decision.reason}): it is sent`);
      return { send: true, patch: sending };
    }
    const named = decision.candidates.map((c) => `${c.id} (${c.name})`).join(', ');
    if (env.kind === 'resend-unknown') {
      env.log.warn(`bulk: request #${index}: items below ${parentId} may be what the add made (${named}); it is sent again on your word`);
      return { send: true, patch: sending };
    }
    env.log.warn(`bulk: request #${index}: items below ${parentId} may be what the add made (${named}): it stays of unknown outcome`);
    await env.record(index, { ...unknown, checkError: undefined, candidates: decision.candidates });
    env.done(index);
    return { send: false };
  }

  /** Waits until the add's last attempt is `settleMs` old (its request may still be under way at the service). */
  private async settle(r: RequestResult): Promise<void> {
    const at = Date.parse(r.finishedAt ?? r.startedAt ?? '');
    if (!Number.isFinite(at)) return;
    const wait = at + this.env.settleMs - this.env.clock.now();
    if (wait > 0) {
      this.env.log.info(`bulk: waiting ${Math.round(wait)} ms before looking below the parent (the add's last attempt may still be under way)`);
      await this.env.clock.sleep(wait, this.env.signal);
    }
  }

  /**
   * A read that ended because the run was cancelled or the job's service went away: the
   * request is left as it was (true). Anything else is the read's failure (false).
   */
  private async leftAsItWas(e: unknown): Promise<boolean> {
    if (e instanceof ServiceGoneError) {
      this.env.pause(e.reason);
      return true;
    }
    return this.env.signal?.aborted === true || (isServiceError(e) && e.kind === 'cancelled');
  }

  /** An add of this job was answered with its key in the items' metadata: the service keeps metadata. */
  private keysAnswered(): boolean {
    return this.env.records.some((r) => {
      if (r.state !== 'succeeded' || r.matched !== undefined) return false;
      const items = (r.response as { items?: unknown } | undefined)?.items;
      return Array.isArray(items) && items.some((i) => typeof (i as { metadata?: Record<string, unknown> } | null)?.metadata?.[ADD_KEY] === 'string');
    });
  }

  /** The parent's sub-items, `levels` levels of them (paced; the parent's level read first, from its ParentId chain). */
  private async readBelow(parentId: string, levels: number, fields: readonly string[]): Promise<SubItemNode[]> {
    const level = await this.levelOf(parentId);
    const depth = level === undefined ? undefined : level + levels;
    const node = await this.env.paced(() => this.env.client.getSubItems!(parentId, { fields, ...(depth !== undefined ? { depth } : {}) }, { signal: this.env.signal }));
    const subs = node.fields.SubItems;
    return Array.isArray(subs) ? subs : [];
  }

  /**
   * The level of an item (a project's root folder is 0) from its ParentId chain, one paced
   * read per step not known yet; undefined without a client that reads items by ID (the
   * whole subtree is read then).
   */
  private async levelOf(id: string): Promise<number | undefined> {
    const client = this.env.client;
    if (typeof client.getWorkItems !== 'function') return undefined;
    let cur: string = id;
    const chain: string[] = [];
    for (let steps = 0; steps <= MAX_CHAIN; steps++) {
      let parent = this.parentOf.get(cur);
      if (parent === undefined) {
        const ask = cur;
        const records = await this.env.paced(() => client.getWorkItems!([ask], ['Id', 'ParentId'], { signal: this.env.signal }));
        const record = records.find((w) => workItemIdOf(w) === ask) ?? (records.length === 1 ? records[0] : undefined);
        if (!record) return undefined;
        parent = idValue(record.fields['ParentId']) ?? null;
        this.parentOf.set(ask, parent);
      }
      chain.push(cur);
      if (parent === null) return chain.length - 1;
      if (chain.includes(parent)) return undefined;
      cur = parent;
    }
    return undefined;
  }
}
