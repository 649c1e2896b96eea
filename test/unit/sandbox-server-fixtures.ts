// Fixture builders and HTTP helpers for the sandbox tests (real HTTP with undici).
import { Agent, request } from 'undici';
import type { DatasetInput } from '../../src/sandbox/model';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** One agent for the tests, so keep-alive sockets can be closed at the end. */
export const agent = new Agent({ keepAliveTimeout: 1000, connections: 8 });

export async function call(
  url: string,
  opts: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'; headers?: Record<string, string>; body?: string | unknown } = {},
): Promise<Answer> {
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  const r = await request(url, { method: opts.method ?? 'GET', headers, body, dispatcher: agent });
  const text = await r.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: r.statusCode, headers: r.headers, text, json };
}

export async function signIn(baseUrl: string, loginName = 'admin', password = 'password'): Promise<string> {
  const r = await call(`${baseUrl}/auth/token`, { method: 'POST', body: { loginName, password } });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
  return (r.json as { token: string }).token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

type Org = NonNullable<DatasetInput['organizations']>[number];
type User = NonNullable<DatasetInput['users']>[number];
type Category = NonNullable<DatasetInput['processCategories']>[number];
type Item = NonNullable<DatasetInput['workItems']>[number];

/** A small data-set builder: add what a test needs, defaults for the rest. */
export class DatasetBuilder {
  private readonly d: Required<Pick<DatasetInput, 'organizations' | 'users' | 'processCategories' | 'workItems' | 'projects' | 'itemTypes'>> & DatasetInput = {
    version: 2,
    organizations: [],
    users: [],
    processCategories: [],
    workItems: [],
    projects: [{ id: 'p1', name: 'Project', allowedDateRange: { min: '2020-01-01', max: '2030-12-31' }, members: [] }],
    itemTypes: [
      { id: 'folder', name: 'Folder', isFolder: true },
      { id: 'task', name: 'Task', isFolder: false },
    ],
  };

  org(id: string, parentId: string | null, name = id, extra: Partial<Org> = {}): this {
    this.d.organizations.push({ id, parentId, name, ...extra });
    return this;
  }

  user(id: string, organizationId: string, extra: Partial<User> = {}): this {
    this.d.users.push({ id, organizationId, name: `name-${id}`, loginName: `login-${id}`, ...extra });
    return this;
  }

  category(id: string, extra: Partial<Category> = {}): this {
    this.d.processCategories.push({ id, name: `cat-${id}`, code: `C-${id}`, ...extra });
    return this;
  }

  item(id: string, parentId: string | null, extra: Partial<Item> = {}): this {
    this.d.workItems.push({ id, parentId, projectId: 'p1', order: this.d.workItems.length, itemTypeId: 'folder', name: `item-${id}`, ...extra });
    return this;
  }

  build(): DatasetInput {
    return structuredClone(this.d);
  }
}
