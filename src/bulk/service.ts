// A job belongs to the service it started on. Its journal records that service
// (origin and base path, the sandbox instance for a sandbox of Start Sandbox, and
// where the credentials came from, never the credentials); every request of the
// job (the run, resume, retry, resend, undo) goes there or nowhere. No vscode import.
import { z } from 'zod';
import type { BulkClient } from './types';
import type { UpdateWorkItemsBody, UpdateWorkItemsResponse } from '../schema/api';

/** Where the credentials of a job's requests come from (no secret: only where they are kept). */
export interface JobCredentialsOrigin {
  /**
   * - `secret-storage`: the credentials stored for the service's origin (`key`).
   * - `sandbox-session`: the sign-in to the sandbox of this session (kept for the session only).
   * - `none`: no credentials were stored when the job started.
   * - `given`: handed over by the caller (tests, the CLI).
   */
  source: 'secret-storage' | 'sandbox-session' | 'none' | 'given';
  /** The key they are stored under (secret-storage, sandbox-session). */
  key?: string;
  /** bearer, basic or apiKey, when known. */
  kind?: string;
  /** The login name, when the credentials name one. */
  loginName?: string;
}

/** The service a job started on. */
export interface JobService {
  /** `scheme://host[:port]`, e.g. `https://pm.example.com`. */
  origin: string;
  /** The base URL's path under the origin, e.g. `/TimeTrackerNX/api` (empty for none). */
  basePath: string;
  /** How the UI named it when the job started, e.g. "Sandbox (127.0.0.1:4567)". */
  label?: string;
  /** A sandbox of Start Sandbox: its instance (a sandbox started again, even on the same port, is another service). */
  sandbox?: { instance: string };
  credentials: JobCredentialsOrigin;
}

/**
 * Why the job's service cannot be used now:
 * - `sandbox-stopped`: the sandbox the job started on was stopped (or another one started).
 * - `service-changed`: the service in use is another one (the service URL setting changed).
 * - `signed-out`: the user signed out of the service while the job ran.
 * - `not-connected`: no service is in use.
 */
export type ServiceGoneReason = 'sandbox-stopped' | 'service-changed' | 'signed-out' | 'not-connected';

/** What a running job checks before each request. */
export interface ServiceBinding {
  readonly service: JobService;
  /** Why requests cannot go to the job's service now; undefined when they can. */
  gone(): ServiceGoneReason | undefined;
}

/** A job is paused: its service is gone; what was not sent stays `pending` ("not sent"). */
export interface JobPause {
  reason: ServiceGoneReason;
  /** Where the rest goes when the job is resumed (and nowhere else). */
  service: JobService;
}

/** Thrown by a bound client instead of sending to a service that is not the job's: nothing was sent. */
export class ServiceGoneError extends Error {
  readonly code = 'SERVICE_GONE';
  /** Nothing left: the request was refused before sending. */
  readonly sent = false;
  constructor(
    readonly reason: ServiceGoneReason,
    readonly service: JobService,
  ) {
    super(`not sent: ${GONE_TEXT[reason]}; the job's requests go only to ${serviceBaseUrl(service)}`);
    this.name = 'ServiceGoneError';
  }
}

/** Thrown when a job would be run on another service than the one it started on (nothing is sent). */
export class ServiceMismatchError extends Error {
  readonly code = 'SERVICE_MISMATCH';
  constructor(
    readonly recorded: JobService,
    readonly offered: string,
  ) {
    super(`this job belongs to ${describeService(recorded)}; it is not sent to ${offered}`);
    this.name = 'ServiceMismatchError';
  }
}

/** English text of each reason (the UI localizes by reason). */
export const GONE_TEXT: Readonly<Record<ServiceGoneReason, string>> = {
  'sandbox-stopped': 'the sandbox the job started on was stopped',
  'service-changed': 'the service in use changed since the job started',
  'signed-out': 'the user signed out of the service while the job ran',
  'not-connected': 'no service is in use',
};

/** The base URL of a service: origin and base path. */
export function serviceBaseUrl(s: Pick<JobService, 'origin' | 'basePath'>): string {
  return `${s.origin}${s.basePath}`;
}

/** A base URL split into origin and path (trailing slashes dropped); undefined when it is not an http(s) URL. */
export function splitBaseUrl(baseUrl: string): { origin: string; basePath: string } | undefined {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  return { origin: u.origin, basePath: u.pathname.replace(/\/+$/, '') };
}

/** A job's service from a base URL. */
export function jobService(baseUrl: string, extra: { label?: string; sandbox?: { instance: string }; credentials?: JobCredentialsOrigin } = {}): JobService {
  const split = splitBaseUrl(baseUrl);
  if (!split) throw new RangeError(`"${baseUrl}" is not an http(s) base URL`);
  return {
    ...split,
    ...(extra.label !== undefined ? { label: extra.label } : {}),
    ...(extra.sandbox ? { sandbox: { instance: extra.sandbox.instance } } : {}),
    credentials: extra.credentials ?? { source: 'given' },
  };
}

/** Same service: same origin, same base path, and the same sandbox instance when either is a sandbox. */
export function sameService(a: JobService, b: JobService): boolean {
  return a.origin === b.origin && a.basePath === b.basePath && a.sandbox?.instance === b.sandbox?.instance;
}

/** Whether a base URL (as a client or a plan has it) is the service's. */
export function isServiceBaseUrl(s: JobService, baseUrl: string): boolean {
  const split = splitBaseUrl(baseUrl);
  return !!split && split.origin === s.origin && split.basePath === s.basePath;
}

/** "Sandbox (…) at http://…/api" or the base URL. */
export function describeService(s: JobService): string {
  const url = serviceBaseUrl(s);
  return s.label && s.label !== url ? `${s.label} (${url})` : url;
}

/** The journal's record of the service, checked on reading (tolerant on unknown members). */
export const JobServiceShape = z.looseObject({
  origin: z.string().regex(/^https?:\/\/[^/?#\s]+$/),
  basePath: z.string().regex(/^(\/[^?#\s]*)?$/),
  label: z.string().optional(),
  sandbox: z.looseObject({ instance: z.string().min(1) }).optional(),
  credentials: z.looseObject({
    source: z.enum(['secret-storage', 'sandbox-session', 'none', 'given']),
    key: z.string().optional(),
    kind: z.string().optional(),
    loginName: z.string().optional(),
  }),
});

/** A client of one service, as the connection hands it out (ServiceClient satisfies it). */
export interface ServiceBoundClient extends BulkClient {
  readonly baseUrl: string;
}

/**
 * Runs `fn` with the client of the service in use (the connection's; it may sign in,
 * and retries once after a 401), for a request of a job.
 */
export type UseClient = <T>(fn: (client: ServiceBoundClient) => Promise<T>, signal?: AbortSignal) => Promise<T>;

/**
 * A BulkClient whose every request goes to the job's service or nowhere: before a
 * request is handed to a client, the binding must hold and the client must be one of
 * the job's service (not whatever service is in use by then). Otherwise it throws
 * ServiceGoneError and nothing is sent.
 */
export function bindClient(binding: ServiceBinding, use: UseClient, inFlight?: InFlight): BulkClient {
  const check = (client?: ServiceBoundClient): void => {
    const why = binding.gone();
    if (why) throw new ServiceGoneError(why, binding.service);
    if (client && !isServiceBaseUrl(binding.service, client.baseUrl)) throw new ServiceGoneError('service-changed', binding.service);
  };
  const bound = <T>(send: (client: ServiceBoundClient) => Promise<T>, signal?: AbortSignal): Promise<T> => {
    try {
      check();
    } catch (e) {
      return Promise.reject(e);
    }
    const call = use((client) => {
      check(client);
      return send(client);
    }, signal);
    return inFlight ? inFlight.track(call) : call;
  };
  const missing = (what: string): Promise<never> => Promise.reject(new RangeError(`the client of this service cannot ${what}`));
  return {
    updateWorkItems: (ids: readonly string[], body: UpdateWorkItemsBody, o?: { signal?: AbortSignal; path?: string }): Promise<UpdateWorkItemsResponse> =>
      bound((client) => client.updateWorkItems(ids, body, o), o?.signal),
    addSubItems: (parentId, body, o) => bound((client) => (client.addSubItems ? client.addSubItems(parentId, body, o) : missing('add work items')), o?.signal),
    deleteWorkItems: (ids, o) => bound((client) => (client.deleteWorkItems ? client.deleteWorkItems(ids, o) : missing('delete work items')), o?.signal),
    // The reads around an add (./addSteps.ts) go to the job's service too.
    getSubItems: (id, q, o) => bound((client) => (client.getSubItems ? client.getSubItems(id, q, o) : missing('read sub-items')), o?.signal),
    getWorkItems: (ids, fields, o) => bound((client) => (client.getWorkItems ? client.getWorkItems(ids, fields, o) : missing('read work items')), o?.signal),
  };
}

/**
 * A binding from two questions the connection answers: the service in use now
 * (undefined when none) and how many times the user signed out so far. The job's
 * service is gone when the service in use is another one, or a sign-out happened
 * since the binding was made.
 */
export function bindingOf(service: JobService, now: { current(): JobService | undefined; signOuts(): number }): ServiceBinding {
  const signOutsAtStart = now.signOuts();
  return {
    service,
    gone(): ServiceGoneReason | undefined {
      const cur = now.current();
      if (service.sandbox && (!cur || cur.sandbox?.instance !== service.sandbox.instance)) return 'sandbox-stopped';
      if (!cur) return 'not-connected';
      if (!sameService(service, cur)) return 'service-changed';
      if (now.signOuts() !== signOutsAtStart) return 'signed-out';
      return undefined;
    },
  };
}

/**
 * The requests of jobs under way, so that stopping a service (Stop Sandbox) lets
 * the ones that already left finish, instead of cutting them off into "outcome unknown".
 */
export class InFlight {
  private readonly calls = new Set<Promise<unknown>>();

  get size(): number {
    return this.calls.size;
  }

  track<T>(call: Promise<T>): Promise<T> {
    const settled = call.then(
      () => undefined,
      () => undefined,
    );
    this.calls.add(settled);
    void settled.then(() => this.calls.delete(settled));
    return call;
  }

  /** Resolves true once every call tracked so far has settled, false when `limitMs` passed first. */
  async settled(limitMs: number): Promise<boolean> {
    if (this.calls.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), limitMs);
    });
    try {
      return await Promise.race([Promise.all([...this.calls]).then(() => true as const), limit]);
    } finally {
      clearTimeout(timer);
    }
  }
}
