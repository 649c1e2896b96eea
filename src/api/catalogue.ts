// The service's description of its fields, read by the client: every page of
// `GET /system/fieldTypes` (official help L1) and a project's profile with its item
// types, field types and status types (`GET /project/projects/{id}/profile`, P2).
// Cached per service (base URL + user), read on first need, dropped on refresh.
// A service without these reads (404, a network failure, an answer of another shape)
// gets the built-in official system fields instead, and the cache says so once per
// service (onFallback) until the next refresh. No vscode import.
import type { FieldType, ProjectProfile } from '../schema/catalogue';
import { serviceFieldCatalogue, type ServiceFieldCatalogue } from '../schema/service-fields';
import type { CallOptions, FieldTypesQuery } from './client';
import { ServiceError } from './errors';
import { nullLogger, type Logger } from './logger';

/** What the catalogue reader needs of the client (a ServiceClient has it). */
export interface CatalogueClient {
  listFieldTypes(q?: FieldTypesQuery, o?: CallOptions): Promise<{ totalCount: number; data: FieldType[] }>;
  getProjectProfile(projectId: string, includes?: readonly string[], o?: CallOptions): Promise<ProjectProfile>;
}

/** Field types per page; the help states no default or maximum (L1), so the client asks for a size it can take. */
export const FIELD_TYPES_PAGE_SIZE = 200;
/** A safety stop: a service with more pages than this (200 custom fields per system, plus system fields) is read this far. */
export const FIELD_TYPES_MAX_PAGES = 50;

/** Reads every page of `/system/fieldTypes` (offset paging until `totalCount` or an empty page). */
export async function readAllFieldTypes(client: CatalogueClient, o: CallOptions & { pageSize?: number } = {}): Promise<FieldType[]> {
  const limit = o.pageSize ?? FIELD_TYPES_PAGE_SIZE;
  const all: FieldType[] = [];
  for (let page = 0; page < FIELD_TYPES_MAX_PAGES; page++) {
    const r = await client.listFieldTypes({ limit, offset: all.length }, o.signal ? { signal: o.signal } : undefined);
    all.push(...r.data);
    if (r.data.length === 0 || all.length >= r.totalCount) break;
  }
  return all;
}

/** The catalogue of a service as far as it could be read. */
export type CatalogueState =
  | { kind: 'service'; fieldTypes: readonly FieldType[]; catalogue: ServiceFieldCatalogue }
  /** The service's own catalogue could not be read: the built-in official system fields apply. */
  | { kind: 'fallback'; reason: string };

/** Why a read failed, in a short English phrase for the log (never a secret: ServiceError carries none). */
export function fallbackReason(e: unknown): string {
  if (e instanceof ServiceError) {
    if (e.kind === 'http') return `the service answered ${e.status ?? 'an error'} to ${e.method} ${e.path}`;
    if (e.kind === 'invalid-response') return `the answer of ${e.method} ${e.path} has another shape (${e.messages.slice(0, 2).join('; ')})`;
    return `${e.method} ${e.path} failed (${e.kind}${e.reason ? `: ${e.reason}` : ''})`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** Failures that are not about the service's reads: not cached (the next need asks again). */
function isTransient(e: unknown): boolean {
  return e instanceof ServiceError && (e.kind === 'cancelled' || (e.kind === 'http' && e.status === 401));
}

export interface CatalogueCacheOptions {
  logger?: Logger;
  /** Called once per service when its catalogue cannot be read (again after a refresh). */
  onFallback?: (key: string, reason: string) => void;
}

/** The cache key of a service: its base URL and the user signed in to it. */
export function catalogueKey(baseUrl: string, user: string | undefined): string {
  return `${baseUrl.replace(/\/+$/, '')}\u0000${user ?? ''}`;
}

/**
 * Field catalogues and project profiles per service. Reads are shared: concurrent
 * callers of one key wait for the same read. `peek` never reads.
 */
export class FieldCatalogueCache {
  private readonly fields = new Map<string, Promise<CatalogueState>>();
  private readonly settled = new Map<string, CatalogueState>();
  private readonly profiles = new Map<string, Promise<ProjectProfile | undefined>>();
  private readonly logger: Logger;

  constructor(private readonly options: CatalogueCacheOptions = {}) {
    this.logger = options.logger ?? nullLogger;
  }

  /** The catalogue of a service when it was read already (no read). */
  peek(key: string): CatalogueState | undefined {
    return this.settled.get(key);
  }

  /** The catalogue of a service: read on first need, then kept until {@link refresh}. */
  get(key: string, client: CatalogueClient, o: CallOptions = {}): Promise<CatalogueState> {
    let pending = this.fields.get(key);
    if (!pending) {
      pending = this.read(key, client, o);
      this.fields.set(key, pending);
    }
    return pending;
  }

  private async read(key: string, client: CatalogueClient, o: CallOptions): Promise<CatalogueState> {
    const started = Date.now();
    try {
      const fieldTypes = await readAllFieldTypes(client, o);
      const state: CatalogueState = { kind: 'service', fieldTypes, catalogue: serviceFieldCatalogue(fieldTypes) };
      const custom = fieldTypes.filter((f) => f.isSystemField === false).length;
      this.logger.info(`Field catalogue: ${fieldTypes.length} field types (${custom} custom) read from the service in ${Date.now() - started} ms`);
      if (this.fields.has(key)) this.settled.set(key, state);
      return state;
    } catch (e) {
      if (isTransient(e)) {
        this.fields.delete(key);
        throw e;
      }
      const reason = fallbackReason(e);
      const state: CatalogueState = { kind: 'fallback', reason };
      this.logger.warn(`Field catalogue: the service's field types could not be read (${reason}); using the built-in official system fields`);
      if (this.fields.has(key)) {
        this.settled.set(key, state);
        this.options.onFallback?.(key, reason);
      }
      return state;
    }
  }

  /**
   * A project's profile (item types, field types, status types), read once per service
   * and project; undefined when the service cannot answer it (logged once).
   */
  profile(key: string, client: CatalogueClient, projectId: string, o: CallOptions = {}): Promise<ProjectProfile | undefined> {
    const k = `${key}\u0000${projectId}`;
    let pending = this.profiles.get(k);
    if (!pending) {
      pending = client.getProjectProfile(projectId, ['ItemTypes', 'FieldTypes', 'StatusTypes'], o).then(
        (p) => p,
        (e: unknown) => {
          if (isTransient(e)) {
            this.profiles.delete(k);
            throw e;
          }
          this.logger.warn(`Field catalogue: the profile of project ${projectId} could not be read (${fallbackReason(e)})`);
          return undefined;
        },
      );
      this.profiles.set(k, pending);
    }
    return pending;
  }

  /** Forgets what was read (one service, or every service): the next need reads again. */
  refresh(key?: string): void {
    const drop = (m: Map<string, unknown>) => {
      for (const k of [...m.keys()]) if (key === undefined || k === key || k.startsWith(`${key}\u0000`)) m.delete(k);
    };
    drop(this.fields);
    drop(this.settled);
    drop(this.profiles);
  }
}
