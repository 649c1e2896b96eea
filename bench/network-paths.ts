// The two network paths a ServiceClient can send through, for the benches that measure the
// client: the extension's own undici dispatcher (an undici Agent: outside VS Code, and in VS Code
// when workItemStudio.network.proxy or caFile is set) and VS Code's fetch (the default in VS Code:
// FetchDispatcher over the extension host's global fetch, src/connection/network.ts). Here the
// global fetch is Node's own (its bundled undici); VS Code patches it with proxy resolution and
// the system's certificates on top, which a loopback request without a proxy does not exercise.
import { FetchDispatcher } from '../src/api/hostFetchDispatcher';

/** The names the results give the two paths. */
export const OWN_PATH = 'own undici dispatcher';
export const FETCH_PATH = "VS Code's fetch (Node's fetch here; VS Code adds proxy resolution on top)";

/** What a ServiceClient in VS Code is given by default: the global fetch, looked up at each request as the extension does. */
export function fetchDispatcher(): FetchDispatcher {
  return new FetchDispatcher((url, init) => globalThis.fetch(url, init));
}
