// The extension's own undici dispatcher for corporate networks: proxy (explicit setting or
// the HTTPS_PROXY / HTTP_PROXY / NO_PROXY environment), proxy credentials, strict or lax
// TLS, the system's CA certificates where the runtime exposes them, extra CA certificates.
// In VS Code it is used when the extension's network settings override VS Code's network
// (src/connection/network.ts); otherwise requests go through VS Code's (./hostFetchDispatcher).
// No vscode import: the UI reads the settings and passes them in. Never calls setGlobalDispatcher.
//
// Proxy credentials travel only inside the proxy URL given to undici (which
// sends them as Proxy-Authorization); they are never logged and never put into
// an error or into `dispatcherInfo`.
import { X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as tls from 'node:tls';
import { Agent, Dispatcher, ProxyAgent } from 'undici';
import { DEFAULT_KEEP_ALIVE_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_TIMEOUTS } from './client';
import { PromiseDispatcher } from './dispatcher-base';
import { registerProxyEndpoints } from './dispatcher-info';
import type { ProxyEndpoint } from './http';

export interface DispatcherOptions {
  /** Explicit proxy (`workItemStudio.network.proxy` or `http.proxy`), e.g. `http://user:pass@proxy.corp:8080`. Overrides the environment. */
  proxyUrl?: string;
  /** The setting `proxyUrl` comes from, named by a NetworkConfigError about it. */
  proxySetting?: string;
  /** Hosts that bypass the proxy (VS Code `http.noProxy` joined with commas); added to NO_PROXY. */
  noProxy?: string;
  /** Verify the server's certificate (VS Code `http.proxyStrictSSL`). Default true. */
  strictSSL?: boolean;
  /** Extra CA certificates (PEM text or PEM/DER bytes), e.g. from the CA-file setting. */
  caCertificates?: (string | Buffer)[];
  /** Also trust the operating system's CA store where the runtime exposes it. Default true. */
  useSystemCertificates?: boolean;
  /** Environment to read HTTPS_PROXY / HTTP_PROXY / NO_PROXY from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Connections per origin at most. Default 6. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** Timeout of TCP connect plus TLS handshake (to the proxy and to the service). */
  connectTimeoutMs?: number;
}

/** What a dispatcher was built with, safe to log (no credentials). */
export interface DispatcherInfo {
  /** Proxy for https origins, credentials removed. */
  httpsProxy?: string;
  /** Proxy for http origins, credentials removed. */
  httpProxy?: string;
  /** Where the proxy setting came from. */
  proxySource: 'setting' | 'environment' | 'none';
  /** No-proxy entries in force (loopback always bypasses the proxy). */
  noProxy: string[];
  strictSSL: boolean;
  /** `added`: system CAs trusted; `unavailable`: this runtime cannot list them; `off`: not requested. */
  systemCertificates: 'added' | 'unavailable' | 'off';
  /** Number of extra CA certificates added. */
  extraCertificates: number;
}

/** A configuration problem found while building a dispatcher (bad proxy URL, unreadable CA file, ...). */
export class NetworkConfigError extends Error {
  constructor(
    /** `PROXY_URL_INVALID`, `PROXY_PROTOCOL_UNSUPPORTED`, `CA_INVALID`, `CA_FILE_UNREADABLE`. */
    readonly code: 'PROXY_URL_INVALID' | 'PROXY_PROTOCOL_UNSUPPORTED' | 'CA_INVALID' | 'CA_FILE_UNREADABLE',
    message: string,
    /**
     * Where the bad value came from, for the UI: `file` is the CA file (CA codes),
     * `variable` the environment variable holding the proxy URL, `setting` the setting holding it
     * (when known; neither: a proxy setting).
     */
    readonly origin: { file?: string; variable?: string; setting?: string } = {},
  ) {
    super(message);
    this.name = 'NetworkConfigError';
  }
}

const infos = new WeakMap<Dispatcher, DispatcherInfo>();

/** What `createDispatcher` built, for the log. */
export function dispatcherInfo(d: Dispatcher): DispatcherInfo | undefined {
  return infos.get(d);
}

/**
 * How a request to `url` would travel with a dispatcher from `createDispatcher`:
 * directly, or through a proxy (its URL without credentials). For the log.
 */
export function describeRoute(d: Dispatcher, url: string): { via: 'direct' } | { via: 'proxy'; proxy: string } {
  if (!(d instanceof ProxyRouter)) return { via: 'direct' };
  const target = new URL(url);
  const via = d.route(target);
  if (via === d.directAgent) return { via: 'direct' };
  const info = infos.get(d);
  const proxy = (target.protocol === 'https:' ? info?.httpsProxy : info?.httpProxy) ?? '';
  return { via: 'proxy', proxy };
}

/**
 * Builds the dispatcher for the service client: an Agent, or a router that sends
 * each origin through the right ProxyAgent or directly (NO_PROXY, loopback).
 * Throws {@link NetworkConfigError} for a bad proxy URL or CA certificate.
 */
export function createDispatcher(opts: DispatcherOptions = {}): Dispatcher {
  const env = opts.env ?? process.env;
  const strictSSL = opts.strictSSL ?? true;
  const connectTimeout = positive(opts.connectTimeoutMs, DEFAULT_TIMEOUTS.connectMs);
  const { ca, systemCertificates, extraCertificates } = certificateAuthorities(opts.caCertificates ?? [], opts.useSystemCertificates ?? true);
  const tlsOptions = { timeout: connectTimeout, rejectUnauthorized: strictSSL, ...(ca ? { ca } : {}) };
  const poolOptions = {
    connections: positive(opts.connections, DEFAULT_MAX_CONNECTIONS),
    keepAliveTimeout: positive(opts.keepAliveTimeoutMs, DEFAULT_KEEP_ALIVE_MS),
    keepAliveMaxTimeout: positive(opts.keepAliveTimeoutMs, DEFAULT_KEEP_ALIVE_MS) * 4,
  };

  const proxies = resolveProxies(opts, env);
  const noProxy = noProxyEntries(opts.noProxy, env);
  const direct = new Agent({ ...poolOptions, connect: tlsOptions });
  const info: DispatcherInfo = {
    httpsProxy: proxies.https && redactUrl(proxies.https),
    httpProxy: proxies.http && redactUrl(proxies.http),
    proxySource: proxies.source,
    noProxy,
    strictSSL,
    systemCertificates,
    extraCertificates,
  };
  if (!proxies.http && !proxies.https) {
    infos.set(direct, info);
    return direct;
  }
  const agents = new Map<string, ProxyAgent>();
  const proxyAgent = (url: URL | undefined): ProxyAgent | undefined => {
    if (!url) return undefined;
    let agent = agents.get(url.href);
    if (!agent) {
      agent = new ProxyAgent({
        ...poolOptions,
        uri: url.href,
        // The service's TLS (through the tunnel) and the proxy's own TLS (https proxies).
        requestTls: tlsOptions,
        proxyTls: tlsOptions,
        // Plain-http services are fetched through the proxy with absolute URLs (as curl does);
        // https services through a CONNECT tunnel.
        proxyTunnel: false,
      });
      agents.set(url.href, agent);
    }
    return agent;
  };
  const router = new ProxyRouter(direct, proxyAgent(proxies.http), proxyAgent(proxies.https), (host, port) => bypassesProxy(host, port, noProxy));
  registerProxyEndpoints(router, endpointsOf(proxies));
  infos.set(router, info);
  return router;
}

/** Sends each request directly or through the proxy for its origin's scheme. */
class ProxyRouter extends PromiseDispatcher {
  constructor(
    private readonly direct: Agent,
    private readonly httpProxy: ProxyAgent | undefined,
    private readonly httpsProxy: ProxyAgent | undefined,
    private readonly bypass: (host: string, port: number) => boolean,
  ) {
    super();
  }

  get directAgent(): Dispatcher {
    return this.direct;
  }

  /** The dispatcher a request to `origin` goes through. */
  route(origin: string | URL): Dispatcher {
    const url = typeof origin === 'string' ? new URL(origin) : origin;
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const proxy = url.protocol === 'https:' ? this.httpsProxy : this.httpProxy;
    if (!proxy || this.bypass(url.hostname, port)) return this.direct;
    return proxy;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.route(options.origin ?? '').dispatch(options, handler);
  }

  protected override closeAll(): Promise<void> {
    return this.all((d) => d.close());
  }

  protected override destroyAll(err: Error | null): Promise<void> {
    return this.all((d) => d.destroy(err));
  }

  private async all(f: (d: Dispatcher) => Promise<void>): Promise<void> {
    const ds = new Set<Dispatcher>([this.direct, ...(this.httpProxy ? [this.httpProxy] : []), ...(this.httpsProxy ? [this.httpsProxy] : [])]);
    await Promise.all([...ds].map(f));
  }
}

// ---------------------------------------------------------------------------
// Proxy resolution
// ---------------------------------------------------------------------------

export interface ResolvedProxies {
  http?: URL;
  https?: URL;
  source: 'setting' | 'environment' | 'none';
}

/**
 * The proxies in force: the explicit setting for both schemes, else
 * `https_proxy`/`HTTPS_PROXY` for https and `http_proxy`/`HTTP_PROXY` for http
 * (lower case first, as curl does). An https origin without an https proxy falls
 * back to the http one, as undici's EnvHttpProxyAgent does.
 */
export function resolveProxies(opts: Pick<DispatcherOptions, 'proxyUrl' | 'proxySetting'>, env: NodeJS.ProcessEnv): ResolvedProxies {
  const explicit = opts.proxyUrl?.trim();
  if (explicit) {
    const url = parseProxyUrl(explicit, opts.proxySetting ? `the setting ${opts.proxySetting}` : 'the proxy setting', undefined, opts.proxySetting);
    return { http: url, https: url, source: 'setting' };
  }
  const httpRaw = (env.http_proxy ?? env.HTTP_PROXY ?? '').trim();
  const httpsRaw = (env.https_proxy ?? env.HTTPS_PROXY ?? '').trim();
  const http = httpRaw ? parseProxyUrl(httpRaw, 'HTTP_PROXY', 'HTTP_PROXY') : undefined;
  const https = httpsRaw ? parseProxyUrl(httpsRaw, 'HTTPS_PROXY', 'HTTPS_PROXY') : http;
  return { http, https, source: http || https ? 'environment' : 'none' };
}

function endpointsOf(proxies: ResolvedProxies): ProxyEndpoint[] {
  return [proxies.http, proxies.https]
    .filter((u): u is URL => u !== undefined)
    .map((u) => ({ host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) || (u.protocol === 'https:' ? 443 : 80) }));
}

/**
 * The proxies a proxy setting or else the environment names (none when unreadable), for
 * telling a refused connection to one of them from the service's (see registerProxyEndpoints).
 */
export function proxyEndpointsFor(proxyUrl: string | undefined, env: NodeJS.ProcessEnv): ProxyEndpoint[] {
  try {
    return endpointsOf(resolveProxies({ proxyUrl }, env));
  } catch {
    return [];
  }
}

/** Parses a proxy URL; `host:port` without a scheme means http. Never echoes credentials. */
export function parseProxyUrl(raw: string, where: string, variable?: string, setting?: string): URL {
  const origin = variable ? { variable } : setting ? { setting } : {};
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new NetworkConfigError('PROXY_URL_INVALID', `${where} is not a valid proxy URL`, origin);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkConfigError('PROXY_PROTOCOL_UNSUPPORTED', `${where} uses ${url.protocol.replace(/:$/, '')}; only http:// and https:// proxies are supported`, origin);
  }
  if (!url.hostname) throw new NetworkConfigError('PROXY_URL_INVALID', `${where} has no host name`, origin);
  return url;
}

/** The URL without user name and password, for logs. */
export function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  const had = copy.username !== '' || copy.password !== '';
  copy.username = '';
  copy.password = '';
  const s = copy.href.replace(/\/$/, '');
  return had ? s.replace('://', '://***@') : s;
}

/** The no-proxy entries: the setting's plus NO_PROXY's, lower-cased, without duplicates. */
export function noProxyEntries(setting: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const raw = [setting ?? '', env.no_proxy ?? env.NO_PROXY ?? ''].join(',');
  const entries = raw
    .split(/[,\s]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(entries)];
}

/**
 * True when a request to host:port goes direct. Loopback always does (the
 * sandbox must never go through a corporate proxy). Entries: `*` (everything),
 * `host`, `.domain` / `*.domain` / `domain` (the domain and its subdomains),
 * `host:port`, IPv4 or IPv6 literals, IPv4 CIDR (`10.0.0.0/8`).
 */
export function bypassesProxy(hostname: string, port: number, entries: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (isLoopbackHost(host)) return true;
  for (const raw of entries) {
    if (raw === '*') return true;
    const { host: entry, port: entryPort } = parseNoProxyEntry(raw);
    if (entryPort && entryPort !== port) continue;
    if (entry.includes('/')) {
      if (inCidr(host, entry)) return true;
      continue;
    }
    const domain = entry.replace(/^\*?\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

/** `host`, `host:port`, `[v6]`, `[v6]:port`, bare IPv6, `net/bits`. */
function parseNoProxyEntry(raw: string): { host: string; port: number } {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (bracket) return { host: bracket[1], port: bracket[2] ? Number(bracket[2]) : 0 };
  if ((raw.match(/:/g) ?? []).length >= 2) return { host: raw, port: 0 };
  const withPort = /^(.*):(\d+)$/.exec(raw);
  if (withPort) return { host: withPort[1], port: Number(withPort[2]) };
  return { host: raw, port: 0 };
}

function inCidr(host: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  const a = ipv4(host);
  const b = ipv4(net);
  if (a === undefined || b === undefined || !(bits >= 0 && bits <= 32)) return false;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (a & mask) >>> 0 === (b & mask) >>> 0;
}

function ipv4(s: string): number | undefined {
  const p = s.split('.');
  if (p.length !== 4 || p.some((x) => !/^\d{1,3}$/.test(x) || Number(x) > 255)) return undefined;
  return p.reduce((acc, x) => ((acc << 8) | Number(x)) >>> 0, 0);
}

/** localhost, *.localhost, 127.0.0.0/8, ::1 and the IPv4-mapped loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\./.test(h);
}

/**
 * True when the URL sends credentials in clear text over a network: plain http to
 * a host that is not loopback. The UI warns once about it.
 */
export function isPlainHttpNonLoopback(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'http:' && !isLoopbackHost(u.hostname);
}

// ---------------------------------------------------------------------------
// Certificate authorities
// ---------------------------------------------------------------------------

type GetCACertificates = (type?: 'default' | 'system' | 'bundled' | 'extra') => string[];

/** Whether this runtime can list the operating system's CA certificates (Node 22.15+/23.5+; not Node 20). */
export function systemCertificatesSupported(): boolean {
  return typeof (tls as { getCACertificates?: GetCACertificates }).getCACertificates === 'function';
}

/**
 * The `ca` list for TLS, or undefined to keep Node's defaults. Giving `ca`
 * replaces Node's roots, so the defaults (bundled roots plus NODE_EXTRA_CA_CERTS
 * where the runtime can list them) are included first.
 */
export function certificateAuthorities(
  extra: readonly (string | Buffer)[],
  useSystem: boolean,
): { ca?: string[]; systemCertificates: DispatcherInfo['systemCertificates']; extraCertificates: number } {
  const getCA = (tls as { getCACertificates?: GetCACertificates }).getCACertificates;
  const extraPem = extra.flatMap((c, i) => toPemList(c, `CA certificate #${i + 1}`));
  let system: string[] = [];
  let systemCertificates: DispatcherInfo['systemCertificates'] = 'off';
  if (useSystem) {
    if (typeof getCA === 'function') {
      try {
        system = getCA('system');
        systemCertificates = 'added';
      } catch {
        systemCertificates = 'unavailable';
      }
    } else systemCertificates = 'unavailable';
  }
  if (extraPem.length === 0 && system.length === 0) return { systemCertificates, extraCertificates: 0 };
  let defaults: string[];
  try {
    defaults = typeof getCA === 'function' ? getCA('default') : [...tls.rootCertificates];
  } catch {
    defaults = [...tls.rootCertificates];
  }
  return { ca: [...new Set([...defaults, ...system, ...extraPem])], systemCertificates, extraCertificates: extraPem.length };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Splits a PEM bundle (or converts one DER certificate) into PEM certificates, each checked. */
export function toPemList(input: string | Buffer, what: string, file?: string): string[] {
  const origin = file ? { file } : {};
  const text = typeof input === 'string' ? input : input.toString('latin1');
  const blocks = text.match(PEM_BLOCK);
  if (blocks && blocks.length > 0) {
    return blocks.map((b, i) => {
      try {
        return new X509Certificate(b).toString();
      } catch {
        throw new NetworkConfigError('CA_INVALID', `${what}${blocks.length > 1 ? ` (certificate ${i + 1} in the file)` : ''} is not a valid PEM certificate`, origin);
      }
    });
  }
  if (typeof input !== 'string') {
    try {
      return [new X509Certificate(input).toString()];
    } catch {
      // fall through
    }
  }
  throw new NetworkConfigError('CA_INVALID', `${what} holds no certificate (expected PEM "-----BEGIN CERTIFICATE-----" or DER)`, origin);
}

/** Reads a CA file (PEM bundle or DER) for `caCertificates`. Throws {@link NetworkConfigError} naming the file. */
export async function loadCaFile(path: string): Promise<string[]> {
  let data: Buffer;
  try {
    data = await fs.readFile(path);
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'error';
    throw new NetworkConfigError('CA_FILE_UNREADABLE', `the CA file ${path} cannot be read (${code})`, { file: path });
  }
  return toPemList(data, `the CA file ${path}`, path);
}

function positive(v: number | undefined, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : dflt;
}
