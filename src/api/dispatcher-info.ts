// What the client knows about a dispatcher built by `createDispatcher`: the proxy
// endpoints it may connect through, so that a refused connection to the proxy is
// reported as a proxy problem. No credentials are kept here. No vscode import.
import type { Dispatcher } from 'undici';
import type { ProxyEndpoint } from './http';

const info = new WeakMap<Dispatcher, readonly ProxyEndpoint[]>();

export function registerProxyEndpoints(dispatcher: Dispatcher, proxies: readonly ProxyEndpoint[]): void {
  info.set(dispatcher, proxies);
}

export function proxyEndpointsOf(dispatcher: Dispatcher): readonly ProxyEndpoint[] {
  return info.get(dispatcher) ?? [];
}
