// Real-HTTP harness for the update-engine tests: a sandbox on 127.0.0.1:0, PUT
// with Basic credentials of the fixture users, and the /_sandbox/ endpoints to
// check that nothing changed on rejection and the right things changed on success.
import * as assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index';
import type { Dataset, DatasetInput, Edition, WorkItem } from '../../src/sandbox/model';
import { baseFixture } from './sandbox-update-fixtures';

export const NOW = new Date('2026-11-21T10:00:00Z');
/** The update stamp as the help writes it: no zone, 7 fractional digits (official help U2). */
export const STAMP = '2026-11-21T10:00:00.0000000';

export interface ErrorEntry {
  message: string;
  code: string;
  rule?: number;
  itemId?: string;
  field?: string;
}

export interface UpdateAnswer {
  items: Record<string, unknown>[];
  affectedItems: Record<string, unknown>[];
  addedTimeEntryIds: unknown[];
  addedScheduleDependencyIds: unknown[];
}

export class Harness {
  private sandbox?: Sandbox;
  private readonly agent = new Agent({ keepAliveTimeout: 1000, connections: 4 });

  constructor(
    private readonly edition: Edition = 'professional',
    private readonly now: Date = NOW,
  ) {}

  /** Starts the sandbox; `options`: further start options (e.g. `keepMetadata`). */
  async start(data: DatasetInput = baseFixture(), options: Omit<SandboxOptions, 'data' | 'edition' | 'now'> = {}): Promise<void> {
    this.sandbox = await createSandbox({ ...options, data, edition: this.edition, now: () => this.now });
  }

  /** Queues a fault of the sandbox (POST /_sandbox/faults). */
  async fault(spec: Record<string, unknown>): Promise<void> {
    const r = await this.call(`${this.sb.origin}/_sandbox/faults`, 'POST', spec);
    assert.equal(r.status, 200, r.raw);
  }

  async stop(): Promise<void> {
    await this.sandbox?.close();
    await this.agent.close();
  }

  private get sb(): Sandbox {
    if (!this.sandbox) throw new Error('sandbox not started');
    return this.sandbox;
  }

  private async call(url: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const r = await request(url, {
      method,
      body: text,
      headers: { ...(text !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      dispatcher: this.agent,
      ...(signal ? { signal } : {}),
    });
    const raw = await r.body.text();
    return { status: r.statusCode, json: raw ? (JSON.parse(raw) as unknown) : undefined, raw };
  }

  async reset(data: DatasetInput = baseFixture()): Promise<void> {
    const r = await this.call(`${this.sb.origin}/_sandbox/reset`, 'POST', data);
    assert.equal(r.status, 200, r.raw);
  }

  async put(ids: string | string[], body: unknown, login = 'admin') {
    const path = (Array.isArray(ids) ? ids : [ids]).map(encodeURIComponent).join(',');
    const auth = `Basic ${Buffer.from(`${login}:password`).toString('base64')}`;
    return this.call(`${this.sb.url}/workitem/workItems/${path}`, 'PUT', body, { authorization: auth });
  }

  /** An API request as `login` (Basic): `path` after /api, e.g. `/workitem/workItems/F1/subItems`. */
  async api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, login = 'admin', signal?: AbortSignal) {
    const auth = `Basic ${Buffer.from(`${login}:password`).toString('base64')}`;
    return this.call(`${this.sb.url}${path}`, method, body, { authorization: auth }, signal);
  }

  /** The base URL of the API (ending in /api). */
  get url(): string {
    return this.sb.url;
  }

  /** GET /workitem/workItems/{ids}?fields=...: the read fields of each item, by ID. */
  async read(ids: string[], fields: string[], login = 'admin'): Promise<Map<string, Record<string, unknown>>> {
    const auth = `Basic ${Buffer.from(`${login}:password`).toString('base64')}`;
    const q = fields.length > 0 ? `?fields=${fields.map(encodeURIComponent).join(',')}` : '';
    const r = await this.call(`${this.sb.url}/workitem/workItems/${ids.map(encodeURIComponent).join(',')}${q}`, 'GET', undefined, { authorization: auth });
    assert.equal(r.status, 200, r.raw);
    const rows = r.json as { fields: Record<string, unknown> }[];
    return new Map(rows.map((row) => [String(row.fields['Id']), row.fields]));
  }

  async item(id: string): Promise<WorkItem> {
    const r = await this.call(`${this.sb.origin}/_sandbox/workitems/${encodeURIComponent(id)}`, 'GET');
    assert.equal(r.status, 200, r.raw);
    return r.json as WorkItem;
  }

  async dump(): Promise<Dataset> {
    const r = await this.call(`${this.sb.origin}/_sandbox/dump`, 'GET');
    assert.equal(r.status, 200, r.raw);
    return r.json as Dataset;
  }

  /** Sends the update, expects it accepted, returns the response body. */
  async accepts(ids: string | string[], body: unknown, login = 'admin'): Promise<UpdateAnswer> {
    const r = await this.put(ids, body, login);
    assert.equal(r.status, 200, r.raw);
    const answer = r.json as UpdateAnswer;
    assert.deepEqual(answer.addedTimeEntryIds, []);
    assert.deepEqual(answer.addedScheduleDependencyIds, []);
    assert.ok(Array.isArray(answer.affectedItems));
    return answer;
  }

  /**
   * Sends the update, expects it rejected with `status` and an error matching
   * `expected` (every given member equal), and checks that the data set did not change.
   */
  async rejects(
    ids: string | string[],
    body: unknown,
    status: number,
    expected: Partial<ErrorEntry>,
    login = 'admin',
  ): Promise<ErrorEntry[]> {
    return this.refused(() => this.put(ids, body, login), status, expected);
  }

  /**
   * Sends a request, expects it refused with `status` and an error matching `expected`
   * (every given member equal), and checks that the data set did not change.
   */
  async refused(send: () => Promise<{ status: number; json: unknown; raw: string }>, status: number, expected: Partial<ErrorEntry>): Promise<ErrorEntry[]> {
    const before = await this.dump();
    const r = await send();
    assert.equal(r.status, status, r.raw);
    const errors = r.json as ErrorEntry[];
    assert.ok(Array.isArray(errors) && errors.length > 0, r.raw);
    for (const e of errors) {
      assert.equal(typeof e.message, 'string');
      assert.equal(typeof e.code, 'string');
    }
    const match = errors.find((e) => Object.entries(expected).every(([k, v]) => (e as unknown as Record<string, unknown>)[k] === v));
    assert.ok(match, `no error like ${JSON.stringify(expected)} in ${r.raw}`);
    if (expected.rule !== undefined) assert.match(match.message, new RegExp(`\\(error ${expected.rule}\\)`));
    if (expected.itemId !== undefined) assert.ok(match.message.includes(expected.itemId), match.message);
    assert.deepEqual(await this.dump(), before, 'the data set changed although the update was rejected');
    return errors;
  }
}

/** The one entry of a response list with the given id. */
export function entry(list: Record<string, unknown>[], id: string): Record<string, unknown> {
  const found = list.find((x) => x['id'] === id);
  assert.ok(found, `no entry for ${id} in ${JSON.stringify(list)}`);
  return found;
}

/** IDs of the live children of `parentId` in position order. */
export function childOrder(data: Dataset, parentId: string | null, projectId = 'p1'): string[] {
  return data.workItems
    .filter((w) => w.parentId === parentId && w.projectId === projectId && !w.isDeleted)
    .sort((a, b) => a.order - b.order)
    .map((w) => w.id);
}
