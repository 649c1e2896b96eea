// The one connection to the service: which service (setting or sandbox), the
// credentials for it (SecretStorage keyed by origin), the ServiceClient, and the
// 401 policy (one sign-in prompt for any number of concurrent 401s, then one retry).
// Created once in extension.ts and passed to every area. Construction does no
// network and no disk I/O.
// Sign-in prompts: one per service origin at a time, shared by every caller that
// needs credentials (first use and 401 alike); an explicit Sign In replaces the
// prompt in flight and its outcome goes to everyone waiting; a dismissed prompt is
// not shown again to background loads (views) until the credentials or the
// service change; a waiting caller is released by its AbortSignal.
// Beside it: its types and errors (connectionTypes.ts), building a client (serviceClient.ts),
// asking for a credential (credentialPrompt.ts), the sandbox as a service (sandboxService.ts).
import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import type { ServiceClient, Credentials } from '../api/client';
import type { BulkClient } from '../bulk/types';
import type { InFlight, JobService, ServiceBinding } from '../bulk/service';
import { readSettings } from './config';
import { ContextKeys, setContext } from './contextKeys';
import { NotConnectedError, SignInCancelledError, type ClientRequestOptions, type ConnectionDeps, type ConnectionInfo, type RunningSandbox, type SignInReason } from './connectionTypes';
import { askCredential } from './credentialPrompt';
import { Disposable } from './disposable';
import { isUnauthorized } from './messages';
import { defaultStartSandbox, startedBy } from './sandboxService';
import { CredentialStore, credentialKey, type StoredCredential } from './secrets';
import { closeQuietly, credentialLogin, newServiceClient, toClientCredentials, type BuiltClient } from './serviceClient';
import { releasable, SharedAttempt } from './sharedAttempt';
import { normalizeServiceUrl } from './serviceUrl';
import { activeProfile, readProfiles, type Profiles, type ServiceProfile } from './profiles';
import { core } from '../core/load';

export { NotConnectedError, SignInCancelledError } from './connectionTypes';
export type { ClientRequestOptions, ConnectionDeps, ConnectionInfo, RunningSandbox, SignInMethod, SignInPrompts } from './connectionTypes';
export { toClientCredentials } from './serviceClient';

/** The workspace state key of the active service profile's name. */
const ACTIVE_PROFILE_KEY = 'workItemStudio.activeServiceProfile';

function memoryState(): NonNullable<ConnectionDeps['profileState']> {
  const values = new Map<string, unknown>();
  return { get: <T>(key: string) => values.get(key) as T | undefined, update: async (key, value) => void values.set(key, value) };
}

export class ConnectionManager extends Disposable implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange: vscode.Event<void> = this.emitter.event;
  private readonly store: CredentialStore;
  private sandbox: RunningSandbox | undefined;
  /**
   * Whether a sandbox sign-in that nobody asked for (first use, a 401) may sign in as the
   * demo user admin without asking. Off once the user signed out of the sandbox or signed in
   * to it by hand: they chose who they are (e.g. `viewer`), and are asked again instead.
   */
  private sandboxAutoSignIn = true;
  private sandboxStarting: Promise<void> | undefined;
  private client: { key: string; client: ServiceClient; dispatcher?: Dispatcher } | undefined;
  private clientPending: { key: string; promise: Promise<ServiceClient> } | undefined;
  private loginName: string | undefined;
  private signedIn = false;
  private withApiKey = false;
  /** Bumped whenever the credentials change; a 401 from an older generation just retries. */
  private generation = 0;
  /** The sign-in prompt in flight per origin, shared by every caller. */
  private readonly prompt = new SharedAttempt<boolean>();
  /** The user dismissed the prompt for this origin while these credentials (generation) were in force. */
  private declined: { origin: string; generation: number } | undefined;
  private readonly warnedInsecure = new Set<string>();
  private disposed = false;
  /** The sandbox of this session's identity: a sandbox started again is another service. */
  private sandboxInstance: string | undefined;
  /** Sign-outs so far: a job bound before one pauses. */
  private signOuts = 0;
  /** Jobs running in this window, each with the service it belongs to. */
  private readonly jobs = new Set<JobService>();
  /** The requests of jobs under way (Stop Sandbox lets them finish first). */
  private jobTrafficMade?: InFlight;
  /** Made on first use: the class is the core's (src/core), which activation does not load. */
  private get jobTraffic(): InFlight {
    return (this.jobTrafficMade ??= new (core().InFlight)());
  }

  /** Where the active profile's name is kept: the workspace state, or memory (tests). */
  private readonly profileState: NonNullable<ConnectionDeps['profileState']>;

  constructor(private readonly deps: ConnectionDeps) {
    super();
    this.store = new CredentialStore(deps.secrets);
    this.profileState = deps.profileState ?? memoryState();
    this.register(
      this.emitter,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (['serviceUrl', 'services', 'sandboxLabel', 'network', 'authMethod'].some((k) => e.affectsConfiguration(`workItemStudio.${k}`)) || e.affectsConfiguration('http')) {
          this.serviceChanged();
        }
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.resetClient();
        this.changed();
        void this.refreshSignedInState();
      }),
    );
    void this.updateContext();
  }

  /** The service in use: the running sandbox first, else the active service profile (undefined when none or invalid). */
  get current(): ConnectionInfo | undefined {
    if (this.sandbox) {
      return { baseUrl: this.sandbox.url.replace(/\/+$/, ''), origin: this.sandbox.origin, label: vscode.l10n.t('Sandbox (this window)'), isSandbox: true };
    }
    const profile = activeProfile(this.profiles.list, this.chosenProfile());
    return profile ? this.infoOf(profile) : undefined;
  }

  /** A profile as a service to connect to. */
  infoOf(profile: ServiceProfile): ConnectionInfo {
    const base = { baseUrl: profile.baseUrl, origin: profile.origin, profile: profile.name, ...(profile.authMethod ? { authMethod: profile.authMethod } : {}) };
    if (profile.fromServiceUrl && startedBy(profile.baseUrl) === 'npm start') {
      return { ...base, label: vscode.l10n.t('Sandbox (started by npm start)'), isSandbox: false, startedSandbox: true };
    }
    return { ...base, label: profile.name, isSandbox: false };
  }

  /**
   * Every service one can be signed in to here, with what is stored for it (never the secret's
   * text to a log): the sandbox this window started, then each profile. The Accounts menu shows them.
   */
  async signIns(): Promise<{ info: ConnectionInfo; credential: StoredCredential | undefined }[]> {
    const infos: ConnectionInfo[] = [];
    if (this.sandbox) infos.push(this.current!);
    for (const p of this.profiles.list) infos.push(this.infoOf(p));
    return Promise.all(infos.map(async (info) => ({ info, credential: await this.store.get(info.origin) })));
  }

  /** Interactive sign-in to `info` (a profile that need not be the one in use). Resolves false when cancelled. */
  signInTo(info: ConnectionInfo): Promise<boolean> {
    return this.ask(info, 'command');
  }

  /** Signs out of `origin`, the service in use or another profile's. */
  async signOutOf(origin: string): Promise<void> {
    if (this.current?.origin === origin) return this.signOut();
    await this.store.delete(origin);
    this.deps.log.info(`Signed out of ${origin}.`);
    this.emitter.fire();
  }

  /** The service profiles of the settings (`workItemStudio.services`, then `workItemStudio.serviceUrl`). */
  get profiles(): Profiles {
    if (this.deps.serviceUrl) return readProfiles(this.deps.services?.() ?? [], this.deps.serviceUrl());
    const s = readSettings();
    return readProfiles(s.services, s.serviceUrl);
  }

  /** The name of the profile chosen in this workspace (it may no longer exist). */
  private chosenProfile(): string | undefined {
    return this.profileState.get<string>(ACTIVE_PROFILE_KEY);
  }

  /**
   * Makes `name` this workspace's service profile. Like a changed service URL: the client and
   * its sign-in are the new service's, and jobs running on the old one pause (they do not follow).
   */
  async useProfile(name: string): Promise<void> {
    if (!this.profiles.list.some((p) => p.name === name)) throw new Error(vscode.l10n.t('There is no service profile named "{0}".', name));
    await this.profileState.update(ACTIVE_PROFILE_KEY, name);
    this.serviceChanged();
  }

  /** The service in use may be another one now: its client, sign-in state and context keys. */
  private serviceChanged(): void {
    this.resetClient();
    this.changed();
    this.warnJobsLeftBehind();
    // Another service (or auth method) may be in use now: show its signed-in state, not the old one's.
    void this.refreshSignedInState();
  }

  get isSignedIn(): boolean {
    return this.signedIn;
  }

  get signedInAs(): string | undefined {
    return this.signedIn ? this.loginName : undefined;
  }

  /** True when the stored credential is an API key (it names no login). */
  get signedInWithApiKey(): boolean {
    return this.signedIn && this.withApiKey;
  }

  get sandboxUrl(): string | undefined {
    return this.sandbox?.url;
  }

  /** The service in use as a job records it (undefined when none): origin, base path, sandbox instance. */
  private currentService(): JobService | undefined {
    const info = this.current;
    if (!info) return undefined;
    return core().jobService(info.baseUrl, { label: info.label, ...(info.isSandbox && this.sandboxInstance ? { sandbox: { instance: this.sandboxInstance } } : {}) });
  }

  /**
   * The service a new job on `info` belongs to: origin, base path, the sandbox
   * instance, and where its credentials come from (the key and kind, never the secret).
   */
  async jobServiceFor(info: ConnectionInfo): Promise<JobService> {
    const stored = await this.store.get(info.origin);
    return core().jobService(info.baseUrl, {
      label: info.label,
      ...(info.isSandbox && this.sandboxInstance ? { sandbox: { instance: this.sandboxInstance } } : {}),
      credentials: stored
        ? { source: info.isSandbox ? 'sandbox-session' : 'secret-storage', key: credentialKey(info.origin), kind: stored.kind, ...(credentialLogin(stored) ? { loginName: credentialLogin(stored) } : {}) }
        : { source: 'none' },
    });
  }

  /** The binding of a job to `service`: gone once the sandbox stops, the service in use changes, or the user signs out. */
  bindingFor(service: JobService): ServiceBinding {
    return core().bindingOf(service, { current: () => this.currentService(), signOuts: () => this.signOuts });
  }

  /**
   * A client for a job of `service`: every request goes to that service (signing in
   * again after a 401 as `run` does) or is refused unsent (ServiceGoneError). The job
   * counts as running on it until `done` is called.
   */
  jobClient(binding: ServiceBinding): { client: BulkClient; done: () => void } {
    const service = binding.service;
    this.jobs.add(service);
    const client = core().bindClient(binding, (fn, signal) => this.run(fn, { signal }), this.jobTraffic);
    return { client, done: () => void this.jobs.delete(service) };
  }

  /**
   * Binds a job to its service in one call: the service its journal records (`recorded`),
   * else the one in use (`info`, with its stored sign-in); the binding that says when it is
   * gone; and a client that sends only there, counted as running until `done`.
   */
  async bindJob(recorded: JobService | undefined, info: ConnectionInfo): Promise<{ binding: ServiceBinding; client: BulkClient; done: () => void }> {
    const binding = this.bindingFor(recorded ?? (await this.jobServiceFor(info)));
    return { binding, ...this.jobClient(binding) };
  }

  /**
   * The service in use changed under running jobs (the service URL setting was edited):
   * they are not followed to the new service; they pause, and the user is told now.
   */
  private warnJobsLeftBehind(): void {
    const left = [...this.jobs].filter((s) => this.bindingFor(s).gone() === 'service-changed');
    if (left.length === 0) return;
    const where = left[0]!.label ?? `${left[0]!.origin}${left[0]!.basePath}`;
    this.deps.log.warn(`The service in use changed while ${left.length} update job(s) were sending to ${left[0]!.origin}${left[0]!.basePath}: they pause and send nothing to the new service.`);
    void vscode.window.showWarningMessage(
      vscode.l10n.t('The service URL changed while an update job was sending to {0}. The job does not follow: it pauses, and what it has not sent goes only to {0} when you resume it there.', where),
    );
  }

  /** The services of the jobs running in this window. */
  get runningJobServices(): readonly JobService[] {
    return [...this.jobs];
  }

  /**
   * The client for the current service, with the stored credentials. Signs in
   * (asking the user, one prompt shared by every concurrent caller) when nothing is
   * stored. Throws NotConnectedError when no service is configured,
   * SignInCancelledError when the user cancels, the signal's reason when aborted.
   */
  async getClient(options: ClientRequestOptions = {}): Promise<ServiceClient> {
    const info = this.requireConnection();
    for (;;) {
      const generation = this.generation;
      if (await releasable(this.store.get(info.origin), options.signal)) break;
      // Signed in (or out) while the store was read: read again rather than ask.
      if (generation !== this.generation) continue;
      if (options.background && this.isDeclined(info.origin) && !this.prompt.isPending(info.origin)) throw new SignInCancelledError();
      if (!(await this.ask(info, 'missing', options.signal))) throw new SignInCancelledError();
      break;
    }
    options.signal?.throwIfAborted();
    return this.clientFor(this.requireConnection());
  }

  /**
   * Runs a read with the client. A 401 asks the user to sign in again (one prompt
   * shared by every concurrent 401) and retries the read once.
   */
  async run<T>(read: (client: ServiceClient) => Promise<T>, options: ClientRequestOptions = {}): Promise<T> {
    const client = await this.getClient(options);
    const generation = this.generation;
    try {
      return await read(client);
    } catch (e) {
      if (!isUnauthorized(e)) throw e;
      const ok = await this.handleUnauthorized(generation, options.signal);
      if (!ok) throw e;
      return read(await this.getClient(options));
    }
  }

  /**
   * Called after a 401 that a request sent with credentials of `generation` got.
   * Resolves true when newer credentials exist (sign-in done, now or by a
   * concurrent caller); false when the user declined. Prompts at most once per
   * credential generation.
   */
  handleUnauthorized(generation = this.generation, signal?: AbortSignal): Promise<boolean> {
    if (generation !== this.generation) return Promise.resolve(true);
    const info = this.current;
    if (!info) return Promise.resolve(false);
    if (!this.prompt.isPending(info.origin)) {
      if (this.isDeclined(info.origin)) return Promise.resolve(false);
      this.deps.log.warn('The service answered 401: asking to sign in again.');
    }
    return this.ask(info, 'unauthorized', signal);
  }

  /**
   * Interactive sign-in to the current service. Resolves false when cancelled.
   * 'command' (the user asked) always shows a prompt, replacing one in flight (whose
   * waiters get this outcome); other reasons join the prompt in flight.
   */
  signIn(reason: SignInReason = 'command'): Promise<boolean> {
    let info: ConnectionInfo;
    try {
      info = this.requireConnection();
    } catch (e) {
      return Promise.reject(e);
    }
    return this.ask(info, reason);
  }

  /** The shared prompt for `info`'s origin; remembers a dismissal. */
  private async ask(info: ConnectionInfo, reason: SignInReason, signal?: AbortSignal): Promise<boolean> {
    const start = () => this.promptSignIn(info, reason);
    const ok = await (reason === 'command' ? this.prompt.replace(info.origin, start, signal) : this.prompt.join(info.origin, start, signal));
    if (!ok) this.declined = { origin: info.origin, generation: this.generation };
    return ok;
  }

  private isDeclined(origin: string): boolean {
    return this.declined?.origin === origin && this.declined.generation === this.generation;
  }

  /** Asks through the prompts and stores the credential. Resolves false when cancelled. */
  private async promptSignIn(info: ConnectionInfo, reason: SignInReason): Promise<boolean> {
    if (info.isSandbox && reason !== 'command' && this.sandboxAutoSignIn) {
      await this.signInSandboxAdmin(info);
      return true;
    }
    const credential = await askCredential(this.deps.prompts, info, reason, this.loginName, async (loginName, password) => {
      const bare = await this.newClient(info, () => ({ kind: 'none' }));
      try {
        return await bare.client.signIn(loginName, password);
      } finally {
        void closeQuietly(bare);
      }
    });
    if (!credential) return false;
    await this.store.set(info.origin, credential, { sessionOnly: info.isSandbox });
    if (info.isSandbox) this.sandboxAutoSignIn = false;
    if (this.current?.origin === info.origin) this.credentialsChanged(credential);
    else this.emitter.fire(); // another profile's sign-in: the Accounts menu shows it
    const how = credential.kind === 'apiKey' ? ' with an API key' : credential.kind === 'bearer' && !credential.loginName ? ' with a token' : ` as ${credentialLogin(credential)}`;
    this.deps.log.info(`Signed in to ${info.origin}${how} (${credential.kind}).`);
    return true;
  }

  async signOut(): Promise<void> {
    const info = this.requireConnection();
    this.signOuts++; // a running job pauses before its next request
    await this.store.delete(info.origin);
    if (info.isSandbox) this.sandboxAutoSignIn = false;
    this.credentialsChanged(undefined);
    this.deps.log.info(`Signed out of ${info.origin}.`);
  }

  /** Starts the sandbox in this extension host (loopback, free port) and uses it for this session. */
  async startSandbox(): Promise<void> {
    if (this.sandbox) return;
    this.sandboxStarting ??= (async () => {
      const start = this.deps.startSandbox ?? defaultStartSandbox;
      const sandbox = await start(readSettings().sandboxEdition, this.deps.log);
      if (this.disposed) {
        await sandbox.close();
        return;
      }
      this.sandbox = sandbox;
      this.sandboxInstance = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
      this.sandboxAutoSignIn = true;
      this.deps.log.info(`Sandbox listening on ${sandbox.url}`);
      this.resetClient();
      await this.signInSandboxAdmin(this.requireConnection());
    })().finally(() => {
      this.sandboxStarting = undefined;
    });
    return this.sandboxStarting;
  }

  async stopSandbox(): Promise<void> {
    const s = this.sandbox;
    if (!s) return;
    this.sandbox = undefined;
    this.sandboxInstance = undefined;
    // A job on the sandbox sends nothing more (its binding is gone now); the requests
    // already out may finish first, so they are not cut off into "outcome unknown".
    if (this.jobTraffic.size > 0) {
      this.changed();
      if (!(await this.jobTraffic.settled(15_000))) this.deps.log.warn('Stop Sandbox: requests of a running job did not finish within 15 s; their outcome is unknown.');
    }
    this.resetClient();
    await this.store.delete(s.origin).catch(() => undefined);
    await s.close();
    this.deps.log.info('Sandbox stopped.');
    // Back to the configured service (if any): signed in when it has stored credentials.
    this.generation++;
    this.declined = undefined;
    await this.refreshSignedInState();
  }

  /**
   * SecretStorage reported a change of `key` (undefined: any key), e.g. a sign-in or
   * sign-out in another window: forgets the cached credential so requests, the status
   * bar and the context keys use what is stored now.
   */
  async secretsChanged(key?: string): Promise<void> {
    const info = this.current;
    const affected = !!info && (key === undefined || key === credentialKey(info.origin));
    const before = affected ? await this.store.get(info.origin) : undefined;
    this.store.invalidate(key);
    const after = affected ? await this.store.get(info.origin) : undefined;
    if (before && !after) this.signOuts++; // signed out in another window: a running job pauses
    if (affected && JSON.stringify(before) !== JSON.stringify(after)) {
      // New credentials: a 401 got with the old ones retries, and a dismissed prompt may show again.
      this.generation++;
      this.declined = undefined;
    }
    await this.refreshSignedInState();
  }

  /** Re-reads the stored credentials for the status bar and context keys (no network). */
  async refreshSignedInState(): Promise<void> {
    const info = this.current;
    const c = info ? await this.store.get(info.origin) : undefined;
    this.signedIn = !!c;
    this.loginName = c ? credentialLogin(c) : undefined;
    this.withApiKey = c?.kind === 'apiKey';
    await this.updateContext();
    this.emitter.fire();
  }

  override dispose(): void {
    this.disposed = true;
    this.prompt.cancelAll(new SignInCancelledError());
    this.resetClient();
    const s = this.sandbox;
    this.sandbox = undefined;
    if (s) void s.close();
    super.dispose();
  }

  // -------------------------------------------------------------------------

  private requireConnection(): ConnectionInfo {
    const info = this.current;
    if (!info) throw new NotConnectedError();
    return info;
  }

  private async signInSandboxAdmin(info: ConnectionInfo): Promise<void> {
    const bare = await this.newClient(info, () => ({ kind: 'none' }));
    try {
      const token = await bare.client.signIn('admin', 'password');
      const credential: StoredCredential = { kind: 'bearer', token, loginName: 'admin' };
      await this.store.set(info.origin, credential, { sessionOnly: true });
      this.credentialsChanged(credential);
      this.deps.log.info(`Signed in to the sandbox ${info.origin} as admin (bearer).`);
    } finally {
      void closeQuietly(bare);
    }
  }

  private credentialsChanged(credential: StoredCredential | undefined): void {
    this.generation++;
    this.declined = undefined;
    this.signedIn = !!credential;
    this.loginName = credential ? credentialLogin(credential) : undefined;
    this.withApiKey = credential?.kind === 'apiKey';
    this.changed();
  }

  private changed(): void {
    void this.updateContext();
    this.emitter.fire();
  }

  private async updateContext(): Promise<void> {
    const info = this.current;
    await Promise.all([
      setContext(ContextKeys.connected, !!info),
      setContext(ContextKeys.sandboxRunning, !!this.sandbox),
      setContext(ContextKeys.signedIn, !!info && this.signedIn),
    ]);
  }

  private clientFor(info: ConnectionInfo): Promise<ServiceClient> {
    const key = info.baseUrl;
    if (this.client?.key === key) return Promise.resolve(this.client.client);
    if (this.clientPending?.key === key) return this.clientPending.promise;
    this.resetClient();
    const origin = info.origin;
    const promise = this.newClient(info, async () => toClientCredentials(await this.store.get(origin))).then(
      (built) => {
        if (this.clientPending?.promise !== promise) {
          // Settings changed while the dispatcher was built: this client is stale.
          void closeQuietly(built);
          return this.clientFor(this.requireConnection());
        }
        this.clientPending = undefined;
        this.client = { key, ...built };
        if (!info.isSandbox) this.maybeWarnInsecure(info);
        return built.client;
      },
      (e: unknown) => {
        if (this.clientPending?.promise === promise) this.clientPending = undefined;
        throw e;
      },
    );
    this.clientPending = { key, promise };
    return promise;
  }

  private newClient(info: ConnectionInfo, credentials: () => Credentials | Promise<Credentials>): Promise<BuiltClient> {
    return newServiceClient(info, credentials, this.deps);
  }

  private resetClient(): void {
    const c = this.client;
    this.client = undefined;
    this.clientPending = undefined;
    if (c) void closeQuietly(c);
  }

  private maybeWarnInsecure(info: ConnectionInfo): void {
    const n = normalizeServiceUrl(info.baseUrl);
    if (!n.ok || !n.insecure || this.warnedInsecure.has(info.origin)) return;
    this.warnedInsecure.add(info.origin);
    this.deps.log.warn(`${info.origin} uses plain http: credentials and data travel unencrypted.`);
    this.deps.warnInsecure?.(info);
  }
}
