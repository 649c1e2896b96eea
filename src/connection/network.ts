// Which network the service client uses in VS Code. By default VS Code's own: requests go
// through the extension host's global fetch, which VS Code patches with its network support
// (the proxy of `http.proxy`, the system or a PAC file, proxy sign-in, `http.noProxy`,
// `http.proxyStrictSSL`, the system's certificates). When `workItemStudio.network.proxy` or
// `workItemStudio.network.caFile` is set, the extension's own undici dispatcher is used with
// them instead (src/api/dispatcher.ts), as it is when VS Code's support for fetch is off.
// The log says which, without credentials. Read when a client is first needed, never at activation.
import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import type { FetchFunction } from '../api/hostFetchDispatcher';
import { readSettings, restricted } from '../common/config';
import { core } from '../core/load';

export async function networkDispatcher(log: vscode.LogOutputChannel): Promise<Dispatcher> {
  const s = readSettings();
  const http = vscode.workspace.getConfiguration('http');
  const ownProxy = String(restricted<string>('network.proxy', '') ?? '').trim();
  const caFile = s.network.caFile.trim();
  const vscodeProxy = http.get<string>('proxy')?.trim() || undefined;
  const fetchSupport = http.get<boolean>('fetchAdditionalSupport', true) !== false;
  const hostFetch = extensionHostFetch();

  if (!ownProxy && !caFile && fetchSupport && hostFetch) {
    const proxy = vscodeProxy ? `http.proxy ${shownProxy(vscodeProxy)}` : "the system's or the environment's, if any";
    log.info(
      `Network: VS Code's (proxy ${proxy}; http.proxySupport ${String(http.get('proxySupport', 'override'))}, system certificates ${http.get<boolean>('systemCertificates', true) !== false ? 'on' : 'off'}).`,
    );
    return new (core().FetchDispatcher)(hostFetch, { proxies: core().proxyEndpointsFor(vscodeProxy, process.env) });
  }

  const why = ownProxy || caFile ? `${[ownProxy && 'workItemStudio.network.proxy', caFile && 'workItemStudio.network.caFile'].filter(Boolean).join(' and ')} set` : 'http.fetchAdditionalSupport is off';
  const noProxy = http.get<unknown>('noProxy');
  const dispatcher = core().createDispatcher({
    proxyUrl: ownProxy || vscodeProxy,
    proxySetting: ownProxy ? 'workItemStudio.network.proxy' : 'http.proxy',
    noProxy: Array.isArray(noProxy) ? noProxy.filter((x) => typeof x === 'string').join(',') : undefined,
    strictSSL: http.get<boolean>('proxyStrictSSL', true),
    caCertificates: caFile ? await core().loadCaFile(caFile) : [],
    connections: Math.max(2, s.bulk.concurrency + 2),
    connectTimeoutMs: Math.min(s.network.requestTimeoutSeconds * 1000, 30_000),
  });
  const info = core().dispatcherInfo(dispatcher);
  if (info) {
    log.info(
      `Network: the extension's own (${why}): proxy ${info.httpsProxy ?? info.httpProxy ?? 'none'} (${info.proxySource}), strict TLS ${info.strictSSL}, system CAs ${info.systemCertificates}, extra CAs ${info.extraCertificates}.`,
    );
  }
  return dispatcher;
}

/** The extension host's global fetch, looked up at each request (VS Code patches it), or undefined where there is none. */
function extensionHostFetch(): FetchFunction | undefined {
  if (typeof globalThis.fetch !== 'function') return undefined;
  return (url, init) => globalThis.fetch(url, init);
}

/** A proxy URL for the log: without user name and password. */
function shownProxy(raw: string): string {
  try {
    return core().redactUrl(core().parseProxyUrl(raw, 'http.proxy'));
  } catch {
    return '(not a valid URL)';
  }
}
