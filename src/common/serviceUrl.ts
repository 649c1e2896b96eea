// Service URL rules, free of vscode so they are unit-testable in plain Node.
// - normalizeServiceUrl: what the connect input box and the setting accept.
// - effectiveRestrictedValue: how a restricted setting is read (workspace values
//   are ignored in an untrusted workspace, so a cloned repository cannot point the
//   extension, and the user's credentials, at another host).

export type ServiceUrlProblem = 'empty' | 'invalid' | 'scheme' | 'credentials' | 'query';

export type NormalizedServiceUrl =
  | { ok: true; baseUrl: string; origin: string; insecure: boolean }
  | { ok: false; problem: ServiceUrlProblem };

/**
 * Accepts `http(s)://host[:port]/path`, without user info, query or fragment; the
 * trailing slash is removed so paths can be appended, and repeated slashes are one. The base URL includes `/api`
 * (it is not added: an installation may use another prefix).
 */
export function normalizeServiceUrl(raw: string): NormalizedServiceUrl {
  const text = raw.trim();
  if (text === '') return { ok: false, problem: 'empty' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'scheme' };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials' };
  if (url.search !== '' || url.hash !== '') return { ok: false, problem: 'query' };
  // Empty segments (`http://host//api`) are dropped: the client appends paths to the base and
  // checks that every request URL stays under it, which `//` would make fail for every request.
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return {
    ok: true,
    baseUrl: `${url.origin}${path}`,
    origin: url.origin,
    insecure: url.protocol === 'http:' && !isLoopbackHost(url.hostname),
  };
}

/** 127.0.0.0/8, ::1 and localhost: plain http there never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The shape of `WorkspaceConfiguration.inspect()` that matters here. */
export interface InspectedValue<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/**
 * The value of a restricted setting: in a trusted workspace the usual precedence
 * (folder > workspace > user > default); in an untrusted one, user > default only.
 */
export function effectiveRestrictedValue<T>(inspected: InspectedValue<T> | undefined, trusted: boolean, fallback: T): T {
  if (!inspected) return fallback;
  if (trusted) {
    return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue ?? inspected.defaultValue ?? fallback;
  }
  return inspected.globalValue ?? inspected.defaultValue ?? fallback;
}

/** A short label for the status bar: host[:port] plus the path when it is not just `/api`. */
export function serviceLabel(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    const path = u.pathname.replace(/\/+$/, '');
    return path === '' || path === '/api' ? u.host : `${u.host}${path.replace(/\/api$/, '')}`;
  } catch {
    return baseUrl;
  }
}
