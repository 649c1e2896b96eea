// Named service profiles (for example 本番 and 検証): the `workItemStudio.services` setting, each
// with a name, a base URL and optionally the sign-in method to offer first, plus the
// `workItemStudio.serviceUrl` setting as one more profile when it names another URL. One profile
// is active per workspace (the workspace state remembers its name). Free of vscode so the rules
// are unit-testable.
import { normalizeServiceUrl, serviceLabel } from './serviceUrl';

export type ProfileAuthMethod = 'token' | 'basic' | 'apiKey';

export interface ServiceProfile {
  /** What every view, job, result and undo document calls the service. */
  name: string;
  baseUrl: string;
  origin: string;
  authMethod?: ProfileAuthMethod;
  /** The profile is the `workItemStudio.serviceUrl` setting (it has no name of its own). */
  fromServiceUrl?: boolean;
}

/** An entry of the setting that was left out, and why (shown once in the log and the picker). */
export interface ProfileProblem {
  index: number;
  problem: 'not-an-object' | 'no-name' | 'bad-url' | 'duplicate-name';
}

export interface Profiles {
  list: ServiceProfile[];
  problems: ProfileProblem[];
}

/**
 * The profiles: the entries of `services` in order (an entry without a name or with a URL the
 * connect box would refuse is left out and reported), then `serviceUrl` when it is set and no
 * entry has the same URL (named by its host, as the status bar has always shown it).
 */
export function readProfiles(services: unknown, serviceUrl: string): Profiles {
  const list: ServiceProfile[] = [];
  const problems: ProfileProblem[] = [];
  const entries = Array.isArray(services) ? services : [];
  entries.forEach((entry: unknown, index) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return void problems.push({ index, problem: 'not-an-object' });
    const e = entry as Record<string, unknown>;
    const name = typeof e.name === 'string' ? e.name.trim() : '';
    if (!name) return void problems.push({ index, problem: 'no-name' });
    const url = normalizeServiceUrl(typeof e.url === 'string' ? e.url : '');
    if (!url.ok) return void problems.push({ index, problem: 'bad-url' });
    if (list.some((p) => p.name === name)) return void problems.push({ index, problem: 'duplicate-name' });
    const authMethod = e.authMethod === 'token' || e.authMethod === 'basic' || e.authMethod === 'apiKey' ? e.authMethod : undefined;
    list.push({ name, baseUrl: url.baseUrl, origin: url.origin, ...(authMethod ? { authMethod } : {}) });
  });
  const single = normalizeServiceUrl(serviceUrl);
  if (single.ok && !list.some((p) => p.baseUrl === single.baseUrl)) {
    let name = serviceLabel(single.baseUrl);
    // A named profile may already be called like the host: the setting's profile keeps its URL as its name then.
    if (list.some((p) => p.name === name)) name = single.baseUrl;
    list.push({ name, baseUrl: single.baseUrl, origin: single.origin, fromServiceUrl: true });
  }
  return { list, problems };
}

/**
 * The active profile: the one chosen in this workspace (by name) while it exists; else the
 * `serviceUrl` setting's profile (what a workspace used before profiles existed); else the first.
 */
export function activeProfile(profiles: readonly ServiceProfile[], chosen: string | undefined): ServiceProfile | undefined {
  return profiles.find((p) => p.name === chosen) ?? profiles.find((p) => p.fromServiceUrl) ?? profiles[0];
}

/**
 * The `services` setting with one more profile (Add Service Profile…): its name must be new and
 * its URL valid; entries already there are kept exactly as written.
 */
export function withProfile(services: unknown, name: string, baseUrl: string, authMethod?: ProfileAuthMethod): unknown[] {
  const entries = Array.isArray(services) ? [...(services as unknown[])] : [];
  entries.push({ name, url: baseUrl, ...(authMethod ? { authMethod } : {}) });
  return entries;
}

/** Why a name cannot be a new profile's (undefined: it can). */
export function profileNameProblem(name: string, profiles: readonly ServiceProfile[]): 'empty' | 'taken' | undefined {
  const n = name.trim();
  if (!n) return 'empty';
  return profiles.some((p) => p.name === n && !p.fromServiceUrl) ? 'taken' : undefined;
}
