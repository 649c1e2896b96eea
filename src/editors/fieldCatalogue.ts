// The connected service's field catalogue for request documents: read on first need
// (a request document open, a completion, a hover, a send) while signed in, kept per
// service and user, refreshed by "Refresh Field Catalogue". Without it (a service
// without /system/fieldTypes, 404, network) the built-in official system fields apply,
// and this says so once per service: a log line and an information message.
import * as vscode from 'vscode';
import type { FieldCatalogueCache, CatalogueState } from '../api/catalogue';
import type { ConnectionManager } from '../common/connection';
import type { ProcessCategory } from '../schema/api';
import type { ProjectProfile } from '../schema/catalogue';
import type { ServiceFieldCatalogue } from '../schema/service-fields';
import { core } from '../core/load';

/** Process categories offered by completion, at most (one page). */
const PROCESS_CATEGORY_LIMIT = 1000;

export class FieldCatalogueService implements vscode.Disposable {
  /** Made on first use: activation loads nothing of the core (src/core). */
  private cacheInstance: FieldCatalogueCache | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a catalogue was read (or fell back), or refreshed. */
  readonly onDidChange = this.changed.event;
  /** Project of a work item, per service key and ID (one read each). */
  private readonly projectOf = new Map<string, Promise<string | undefined>>();
  /** Process categories, per service key (one read each). */
  private readonly categories = new Map<string, Promise<readonly ProcessCategory[]>>();
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly connections: ConnectionManager,
  ) {
    this.disposables.push(connections.onDidChange(() => this.changed.fire()));
  }

  private get cache(): FieldCatalogueCache {
    this.cacheInstance ??= new (core().FieldCatalogueCache)({
      logger: this.log,
      // Once per service (again after a refresh); the cache logs the reason.
      onFallback: () => {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('The service does not describe its fields; request documents are checked against the built-in official system fields (custom fields are not known).'),
        );
      },
    });
    return this.cacheInstance;
  }

  /** The key of the current service and user; undefined when not connected or not signed in (nothing is read then). */
  private key(): string | undefined {
    const info = this.connections.current;
    if (!info || !this.connections.isSignedIn) return undefined;
    return core().catalogueKey(info.baseUrl, this.connections.signedInAs);
  }

  /** The catalogue read so far for the current service (no read). */
  peek(): CatalogueState | undefined {
    const key = this.key();
    return key === undefined ? undefined : this.cache.peek(key);
  }

  /** The service's fields when it described them (no read). */
  peekCatalogue(): ServiceFieldCatalogue | undefined {
    const s = this.peek();
    return s?.kind === 'service' ? s.catalogue : undefined;
  }

  /** The catalogue of the current service, read now if needed; undefined when not signed in or the read was cancelled. */
  async get(): Promise<CatalogueState | undefined> {
    const key = this.key();
    if (key === undefined) return undefined;
    const had = this.cache.peek(key);
    try {
      const client = await this.connections.getClient({ background: true });
      const state = await this.cache.get(key, client);
      if (!had) this.changed.fire();
      return state;
    } catch (e) {
      this.log.debug(`Field catalogue not read: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  /** Starts a read when none was made for the current service (for synchronous callers such as diagnostics). */
  prefetch(): void {
    const key = this.key();
    if (key !== undefined && this.cache.peek(key) === undefined) void this.get();
  }

  /** A project's profile on the current service (undefined without one). */
  async profile(projectId: string): Promise<ProjectProfile | undefined> {
    const key = this.key();
    if (key === undefined) return undefined;
    try {
      const client = await this.connections.getClient({ background: true });
      return await this.cache.profile(key, client, projectId);
    } catch {
      return undefined;
    }
  }

  /** The project of a work item (read once per service and ID), undefined when it cannot be read. */
  async projectOfWorkItem(id: string): Promise<string | undefined> {
    const key = this.key();
    if (key === undefined) return undefined;
    const k = `${key}\u0000${id}`;
    let pending = this.projectOf.get(k);
    if (!pending) {
      pending = (async () => {
        try {
          const client = await this.connections.getClient({ background: true });
          const [item] = await client.getWorkItems([id], ['ProjectId']);
          const p = item?.fields?.ProjectId;
          return typeof p === 'string' || typeof p === 'number' ? String(p) : undefined;
        } catch (e) {
          this.log.debug(`Field catalogue: the project of work item ${id} could not be read: ${e instanceof Error ? e.message : String(e)}`);
          return undefined;
        }
      })();
      this.projectOf.set(k, pending);
    }
    return pending;
  }

  /** The process categories (not deleted) of the current service, read once per service and user; empty when they cannot be read. */
  async processCategories(): Promise<readonly ProcessCategory[]> {
    const key = this.key();
    if (key === undefined) return [];
    let pending = this.categories.get(key);
    if (!pending) {
      pending = (async () => {
        try {
          const client = await this.connections.getClient({ background: true });
          return (await client.listProcessCategories({ includeDeleted: false, limit: PROCESS_CATEGORY_LIMIT })).data.filter((c) => c.isDeleted !== true);
        } catch (e) {
          this.log.debug(`Field catalogue: the process categories could not be read: ${e instanceof Error ? e.message : String(e)}`);
          this.categories.delete(key);
          return [];
        }
      })();
      this.categories.set(key, pending);
    }
    return pending;
  }

  /** "Refresh Field Catalogue": forgets what was read for every service and reads the current one again. */
  async refresh(): Promise<CatalogueState | undefined> {
    this.cacheInstance?.refresh();
    this.projectOf.clear();
    this.categories.clear();
    this.changed.fire();
    if (this.key() === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Sign in to a service to read its field catalogue.'));
      return undefined;
    }
    const state = await this.get();
    if (state?.kind === 'service') {
      const custom = state.fieldTypes.filter((f) => f.isSystemField === false).length;
      void vscode.window.showInformationMessage(vscode.l10n.t('Field catalogue read: {0} fields ({1} custom).', state.fieldTypes.length, custom));
    }
    this.changed.fire();
    return state;
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }
}
