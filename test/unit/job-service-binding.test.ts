// A job belongs to the service it started on. Two real sandboxes over HTTP: the job
// starts on the first (the sandbox of Start Sandbox, or the configured service); in
// the middle of the send the service in use becomes the second (Stop Sandbox, a
// changed service URL) or the user signs out. The second must receive 0 requests;
// what did not leave is "not sent" (pending), never "outcome unknown"; the journal
// on disk records the service; resume goes to the recorded service or is refused
// with a clear message, nothing sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client';
import { JobJournal, planJob, resendUnknown, resultFromJournal, resumeJob, retryFailed, runJob, type BulkClient, type JobResult } from '../../src/bulk';
import {
  bindClient,
  bindingOf,
  InFlight,
  jobService,
  ServiceGoneError,
  ServiceMismatchError,
  type JobService,
  type ServiceBoundClient,
} from '../../src/bulk/service';
import type { Sandbox } from '../../src/sandbox';
import { ADMIN, fault, scheduledTaskIds, snapshotDates, startSandbox } from './bulk-helpers';

/** A counting HTTP proxy in front of a sandbox: every request that reaches it is counted. */
interface Counted {
  baseUrl: string;
  requests: { method: string; url: string }[];
  puts(): number;
  close(): Promise<void>;
}

async function counted(target: Sandbox): Promise<Counted> {
  const requests: { method: string; url: string }[] = [];
  const to = new URL(target.origin);
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '' });
    const fwd = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    requests,
    puts: () => requests.filter((r) => r.method === 'PUT').length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Stands for the extension's connection: the service in use and its client. `run`
 * hands out the client of the service in use NOW, as ConnectionManager.run does; so an
 * unbound job follows whatever service is in use, and a bound one must refuse.
 */
class Connection {
  current: { service: JobService; client: ServiceClient } | undefined;
  signOuts = 0;
  readonly inFlight = new InFlight();
  /** Called inside `run`, after the job's check and before the client is handed out. */
  beforeHandOut?: () => void;
  private readonly clients: ServiceClient[] = [];

  use(service: JobService): void {
    const client = new ServiceClient({ baseUrl: `${service.origin}${service.basePath}`, credentials: () => ADMIN });
    this.clients.push(client);
    this.current = { service, client };
  }

  readonly run = <T>(fn: (c: ServiceBoundClient) => Promise<T>): Promise<T> => {
    this.beforeHandOut?.();
    if (!this.current) return Promise.reject(new Error('not connected'));
    return fn(this.current.client);
  };

  bound(service: JobService): BulkClient {
    return bindClient(bindingOf(service, { current: () => this.current?.service, signOuts: () => this.signOuts }), this.run, this.inFlight);
  }

  binding(service: JobService) {
    return bindingOf(service, { current: () => this.current?.service, signOuts: () => this.signOuts });
  }

  /** The old way: every request goes to whatever service is in use. */
  unbound(): BulkClient {
    return { updateWorkItems: (ids, body, o) => this.run((c) => c.updateWorkItems(ids, body, o)) };
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
  }
}

describe('a job belongs to the service it started on', function () {
  this.timeout(60_000);
  let a: Sandbox; // the sandbox of Start Sandbox (or the first configured service)
  let b: Sandbox; // the service in use afterwards
  let bCount: Counted;
  let dir: string;
  let conn: Connection;
  let aService: JobService;
  let bService: JobService;

  beforeEach(async () => {
    a = await startSandbox(120);
    b = await startSandbox(120); // the same generated data: every ID of the job exists there too
    bCount = await counted(b);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-bind-'));
    conn = new Connection();
    aService = jobService(a.url, { label: 'Sandbox', sandbox: { instance: 'sandbox-1' }, credentials: { source: 'sandbox-session', key: `workItemStudio.credentials:${a.origin}`, kind: 'bearer', loginName: 'admin' } });
    bService = jobService(bCount.baseUrl, { credentials: { source: 'secret-storage', key: 'workItemStudio.credentials:b', kind: 'basic' } });
    conn.use(aService);
    // Each request of the job takes a while on the first service, so one is in flight when the switch comes.
    await fault(a, { latencyMs: 25, method: 'PUT', times: 1000 });
  });
  afterEach(async () => {
    await conn.close();
    await a.close();
    await bCount.close();
    await b.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Starts a job of 10 requests on the service in use; `at` runs once `after` requests are done. */
  async function jobWithSwitch(client: BulkClient, service: JobService | undefined, after: number, at: () => void | Promise<void>): Promise<{ result: JobResult; journal: JobJournal; ids: string[] }> {
    const ids = scheduledTaskIds(a, 20);
    const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: a.url, maxIdsPerRequest: 2 });
    const journal = await JobJournal.create(dir, { source: { description: 'test' }, plan, ...(service ? { service } : {}) });
    let switched: Promise<void> | undefined;
    const result = await runJob(plan, {
      client,
      journal,
      concurrency: 2,
      minIntervalMs: 0,
      ...(service ? { service: conn.binding(service) } : {}),
      onProgress: (p) => {
        if (p.requestsDone >= after && !switched) switched = Promise.resolve(at());
      },
    });
    await switched;
    return { result, journal, ids };
  }

  /** Stop Sandbox as the extension does it: the service in use changes at once; requests already out may finish; then the sandbox closes. */
  const stopSandbox = async (): Promise<void> => {
    conn.use(bService);
    await conn.inFlight.settled(10_000);
    await a.close();
  };

  it('without a binding (as before), the rest of the job went to the other service: the harness sees it', async () => {
    const { result } = await jobWithSwitch(conn.unbound(), undefined, 3, () => conn.use(bService));
    assert.ok(bCount.puts() > 0, 'the unbound job sent to the second service');
    assert.equal(result.outcome, 'succeeded');
  });

  it('Stop Sandbox mid-job: 0 requests reach the other service; the unsent ones are "not sent", none "outcome unknown"; the result says where the rest goes', async () => {
    const before = snapshotDates(b, scheduledTaskIds(b, 20));
    const { result, journal } = await jobWithSwitch(conn.bound(aService), aService, 3, stopSandbox);
    assert.equal(bCount.puts(), 0, 'no request reached the second service');
    assert.equal(bCount.requests.length, 0);
    assert.deepEqual(snapshotDates(b, scheduledTaskIds(b, 20)), before, 'nothing changed on the second service');
    const by = result.totals.requestsByState;
    assert.equal(by.unknown + by.cancelled + by.sent, 0, `no request is of unknown outcome: ${JSON.stringify(by)}`);
    assert.ok(by.succeeded >= 3, JSON.stringify(by));
    assert.ok(by.pending > 0, 'the rest is not sent');
    assert.equal(by.succeeded + by.pending, 10, JSON.stringify(by));
    assert.equal(result.outcome, 'partial');
    assert.deepEqual(result.paused?.reason, 'sandbox-stopped');
    assert.equal(result.paused?.service.origin, a.origin, 'the result says where the rest goes');
    assert.equal(result.paused?.service.sandbox?.instance, 'sandbox-1');
    // Read back from disk: the pause and the "not sent" survive.
    const back = await JobJournal.load(journal.file);
    const r = resultFromJournal(back);
    assert.equal(r.paused?.reason, 'sandbox-stopped');
    assert.equal(r.totals.requestsByState.pending, by.pending);
    assert.equal(r.totals.requestsByState.unknown, 0);
  });

  it('the journal on disk records the service: origin, base path, the sandbox instance and where the credentials came from (no secret)', async () => {
    const { journal } = await jobWithSwitch(conn.bound(aService), aService, 3, stopSandbox);
    const onDisk = JSON.parse(await fs.readFile(journal.file, 'utf8')) as { service: JobService; runs: { paused?: string }[] };
    assert.equal(onDisk.service.origin, a.origin);
    assert.equal(onDisk.service.basePath, '/api');
    assert.deepEqual(onDisk.service.sandbox, { instance: 'sandbox-1' });
    assert.deepEqual(onDisk.service.credentials, { source: 'sandbox-session', key: `workItemStudio.credentials:${a.origin}`, kind: 'bearer', loginName: 'admin' });
    assert.equal(onDisk.runs.at(-1)?.paused, 'sandbox-stopped');
    assert.ok(!JSON.stringify(onDisk.service).includes(ADMIN.password), 'the record names where the credentials are, never them');
  });

  it('a changed service URL mid-job: 0 requests reach the new service; the job pauses', async () => {
    // Both are configured services (no sandbox): only the URL changes.
    const first = jobService(a.url, { credentials: { source: 'secret-storage', key: 'k', kind: 'basic' } });
    conn.use(first);
    const { result } = await jobWithSwitch(conn.bound(first), first, 4, () => conn.use(bService));
    assert.equal(bCount.puts(), 0);
    assert.equal(result.paused?.reason, 'service-changed');
    assert.equal(result.totals.requestsByState.unknown, 0);
    assert.ok(result.totals.requestsByState.pending > 0);
  });

  it('the service changes between the check and the hand-over of the client: the bound client refuses, nothing is sent', async () => {
    let calls = 0;
    conn.beforeHandOut = () => {
      if (++calls === 5) conn.use(bService); // after the job checked its service, before the request is handed to a client
    };
    const first = jobService(a.url, { credentials: { source: 'given' } });
    conn.use(first);
    const ids = scheduledTaskIds(a, 20);
    const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: a.url, maxIdsPerRequest: 2 });
    const result = await runJob(plan, { client: conn.bound(first), service: conn.binding(first), concurrency: 1, minIntervalMs: 0 });
    assert.equal(bCount.puts(), 0);
    assert.equal(result.requests[4]!.state, 'pending', 'the request refused at the hand-over is not sent');
    assert.equal(result.totals.requestsByState.succeeded, 4);
    assert.equal(result.totals.requestsByState.pending, 6);
    assert.equal(result.paused?.reason, 'service-changed');
  });

  it('a bound client throws ServiceGoneError (nothing sent) once its service is gone', async () => {
    const client = conn.bound(aService);
    conn.use(bService);
    await assert.rejects(
      client.updateWorkItems(['1'], { fields: { Name: 'x' } }),
      (e: unknown) => e instanceof ServiceGoneError && e.reason === 'sandbox-stopped' && e.sent === false && /not sent/.test(e.message),
    );
    assert.equal(bCount.requests.length, 0);
  });

  it('signed out mid-job: the job pauses; resumed after signing in again, the rest goes to the recorded service', async () => {
    const { result, journal } = await jobWithSwitch(conn.bound(aService), aService, 3, () => void conn.signOuts++);
    assert.equal(result.paused?.reason, 'signed-out');
    const pending = result.totals.requestsByState.pending;
    assert.ok(pending > 0);
    // Signed in again: a new binding to the same service.
    const back = await JobJournal.load(journal.file);
    const resumed = await resumeJob(back, { client: conn.bound(aService), service: conn.binding(aService), minIntervalMs: 0 });
    assert.equal(resumed.outcome, 'succeeded');
    assert.equal(resumed.paused, undefined);
    assert.equal(bCount.requests.length, 0, 'nothing went to the other service');
    assert.equal(resultFromJournal(back).paused, undefined, 'no longer paused');
  });

  it('resume after Stop Sandbox: refused with a clear message naming the recorded service; nothing sent anywhere', async () => {
    const { journal } = await jobWithSwitch(conn.bound(aService), aService, 3, stopSandbox);
    const back = await JobJournal.load(journal.file);
    const pendingBefore = back.indexesIn('pending');
    // The service in use now is the second one: resume, retry and resend are refused.
    for (const run of [
      () => resumeJob(back, { client: conn.bound(bService), service: conn.binding(bService), minIntervalMs: 0 }),
      () => retryFailed(back, { client: conn.bound(bService), service: conn.binding(bService), minIntervalMs: 0 }),
      () => resendUnknown(back, [], { client: conn.bound(bService), service: conn.binding(bService), minIntervalMs: 0 }),
    ]) {
      await assert.rejects(run(), (e: unknown) => e instanceof ServiceMismatchError && e.message.includes(a.url) && e.message.includes(bCount.baseUrl));
    }
    // A sandbox started again on the same address is another service (another instance).
    const again = jobService(a.url, { sandbox: { instance: 'sandbox-2' } });
    await assert.rejects(resumeJob(back, { client: conn.bound(again), service: conn.binding(again), minIntervalMs: 0 }), ServiceMismatchError);
    assert.equal(bCount.requests.length, 0);
    const reread = await JobJournal.load(journal.file);
    assert.deepEqual(reread.indexesIn('pending'), pendingBefore, 'the journal is unchanged');
    assert.equal(reread.data.runs.length, 1, 'no run was recorded');
  });

  it('a job whose journal records no service (older journals) is bound by its plan: another service is refused', async () => {
    const ids = scheduledTaskIds(a, 4);
    const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: a.url, maxIdsPerRequest: 2 });
    const journal = await JobJournal.create(dir, { source: {}, plan });
    await assert.rejects(runJob(plan, { client: conn.bound(bService), journal, service: conn.binding(bService), minIntervalMs: 0 }), ServiceMismatchError);
    assert.equal(bCount.requests.length, 0);
  });

  it('a journal whose recorded service is not its plan\'s is refused on creation and read as damaged', async () => {
    const ids = scheduledTaskIds(a, 2);
    const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: a.url });
    await assert.rejects(JobJournal.create(dir, { source: {}, plan, service: bService }), /not for the job's service/);
    const journal = await JobJournal.create(dir, { source: {}, plan, service: aService });
    const text = (await fs.readFile(journal.file, 'utf8')).replace(JSON.stringify(a.origin), JSON.stringify('http://127.0.0.1:1'));
    await fs.writeFile(journal.file, text);
    await assert.rejects(JobJournal.load(journal.file), /damaged: its service/);
  });
});
