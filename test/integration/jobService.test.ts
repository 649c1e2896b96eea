// A job belongs to the service it started on, inside a real extension host: the real
// ConnectionManager starts a sandbox (Start Sandbox), a job runs on it through the
// client the connection binds to the job, the sandbox is stopped in the middle of the
// send (the workspace's configured service, another sandbox behind a counting proxy,
// is then the service in use). The job pauses, the rest is "not sent", the configured
// service receives 0 requests, the journal names the sandbox, and a resume on the
// configured service is refused.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox/index';
import { ConnectionManager, type SignInPrompts } from '../../src/common/connection';
import type { SecretStorageLike } from '../../src/common/secrets';
import { JobJournal, planJob, resultFromJournal, resumeJob, runJob } from '../../src/bulk';
import { ServiceMismatchError } from '../../src/bulk/service';

const log = vscode.window.createOutputChannel('Work Item Studio (job service tests)', { log: true });

const noPrompts: SignInPrompts = {
  pickMethod: async () => undefined,
  askLoginName: async () => undefined,
  askPassword: async () => undefined,
  askToken: async () => undefined,
  askApiKey: async () => undefined,
};

function memorySecrets(): SecretStorageLike {
  const data = new Map<string, string>();
  return { get: async (k) => data.get(k), store: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
}

async function countingProxy(target: Sandbox): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const to = new URL(target.origin);
  const server = http.createServer((req, res) => {
    n++;
    const fwd = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/api`,
    count: () => n,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * Runs `plan` as a job bound to `service` and calls `interrupt` (stop the sandbox, switch the
 * profile) once three requests are done; resolves when both are over.
 */
async function runInterrupted(
  connection: ConnectionManager,
  dir: string,
  plan: ReturnType<typeof planJob>,
  service: Awaited<ReturnType<ConnectionManager['jobServiceFor']>>,
  interrupt: () => Promise<void>,
  whileBound?: () => void,
): Promise<{ journal: JobJournal; result: Awaited<ReturnType<typeof runJob>> }> {
  const journal = await JobJournal.create(dir, { source: { description: 'integration' }, plan, service });
  const binding = connection.bindingFor(service);
  const bound = connection.jobClient(binding);
  whileBound?.();
  let interrupting: Promise<void> | undefined;
  const result = await runJob(plan, {
    client: bound.client,
    journal,
    service: binding,
    concurrency: 2,
    minIntervalMs: 0,
    onProgress: (p) => {
      if (p.requestsDone >= 3 && !interrupting) interrupting = interrupt();
    },
  });
  bound.done();
  await interrupting;
  return { journal, result };
}

describe('a job belongs to the service it started on (real extension host)', function () {
  this.timeout(120_000);

  it('Stop Sandbox in the middle of a job: paused, the rest "not sent", 0 requests to the configured service, resume elsewhere refused', async () => {
    const data = () => generateDataset({ workItems: 120, users: 10, organizations: 2, processCategories: 0, seed: 7 });
    const configured = await createSandbox({ data: data() });
    const proxy = await countingProxy(configured);
    let started: Sandbox | undefined;
    const connection = new ConnectionManager({
      secrets: memorySecrets(),
      log,
      prompts: noPrompts,
      serviceUrl: () => proxy.url,
      startSandbox: async () => (started = await createSandbox({ data: data() })),
    });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-job-service-'));
    try {
      await connection.startSandbox();
      const sandbox = started!;
      // Each update takes a while, so requests are in flight when the sandbox stops.
      await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 40, method: 'PUT', times: 1000 }) });
      const info = connection.current!;
      assert.equal(info.isSandbox, true);
      const ids = sandbox.data.workItems.filter((w) => w.itemTypeId !== '41' && w.plannedStartDate && !w.isDeleted).slice(0, 20).map((w) => w.id);
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: info.baseUrl, maxIdsPerRequest: 2 });
      const service = await connection.jobServiceFor(info);
      const { journal, result } = await runInterrupted(connection, dir, plan, service, () => connection.stopSandbox(), () => assert.equal(connection.runningJobServices.length, 1));
      assert.equal(proxy.count(), 0, 'no request reached the configured service');
      const by = result.totals.requestsByState;
      assert.equal(by.unknown + by.cancelled, 0, `nothing is of unknown outcome: ${JSON.stringify(by)}`);
      assert.ok(by.pending > 0, `the rest is not sent: ${JSON.stringify(by)}`);
      assert.equal(by.succeeded + by.pending, plan.requests.length);
      assert.equal(result.paused?.reason, 'sandbox-stopped');
      assert.equal(result.paused?.service.origin, sandbox.origin);

      const back = await JobJournal.load(journal.file);
      assert.equal(back.data.service?.origin, sandbox.origin);
      assert.equal(back.data.service?.credentials.source, 'sandbox-session');
      assert.equal(back.data.service?.credentials.loginName, 'admin');
      assert.equal(resultFromJournal(back).paused?.reason, 'sandbox-stopped');

      // The configured service is in use now: a resume there is refused, nothing sent.
      const now = connection.current!;
      assert.equal(now.isSandbox, false);
      const other = connection.bindingFor(await connection.jobServiceFor(now));
      const otherClient = connection.jobClient(other);
      try {
        await assert.rejects(resumeJob(back, { client: otherClient.client, service: other, minIntervalMs: 0 }), ServiceMismatchError);
      } finally {
        otherClient.done();
      }
      assert.equal(proxy.count(), 0);
    } finally {
      connection.dispose();
      await proxy.close();
      await configured.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('switching the service profile in the middle of a job: paused, the rest "not sent", 0 requests to the new profile, resume there refused', async () => {
    const data = () => generateDataset({ workItems: 120, users: 10, organizations: 2, processCategories: 0, seed: 7 });
    const prod = await createSandbox({ data: data() });
    const staging = await createSandbox({ data: data() });
    const toProd = await countingProxy(prod);
    const toStaging = await countingProxy(staging);
    const signIn: SignInPrompts = { ...noPrompts, pickMethod: async () => 'token', askLoginName: async () => 'admin', askPassword: async () => 'password' };
    const connection = new ConnectionManager({
      secrets: memorySecrets(),
      log,
      prompts: signIn,
      serviceUrl: () => '',
      services: () => [
        { name: '本番', url: toProd.url },
        { name: '検証', url: toStaging.url },
      ],
    });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-job-profile-'));
    try {
      await connection.useProfile('本番');
      assert.equal(await connection.signIn('command'), true);
      await fetch(`${prod.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 40, method: 'PUT', times: 1000 }) });
      const info = connection.current!;
      assert.equal(info.label, '本番');
      const ids = prod.data.workItems.filter((w) => w.itemTypeId !== '41' && w.plannedStartDate && !w.isDeleted).slice(0, 20).map((w) => w.id);
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: info.baseUrl, maxIdsPerRequest: 2 });
      const service = await connection.jobServiceFor(info);
      assert.equal(service.label, '本番', 'the job records the profile by its name');
      const before = toStaging.count();
      const { journal, result } = await runInterrupted(connection, dir, plan, service, () => connection.useProfile('検証'));
      assert.equal(connection.current?.label, '検証');
      assert.equal(toStaging.count(), before, 'no request of the job reached 検証');
      const by = result.totals.requestsByState;
      assert.equal(by.unknown + by.cancelled, 0, `nothing is of unknown outcome: ${JSON.stringify(by)}`);
      assert.ok(by.pending > 0, `the rest is not sent: ${JSON.stringify(by)}`);
      assert.equal(result.paused?.reason, 'service-changed');

      // 検証 is in use now: a resume there is refused, nothing sent.
      const back = await JobJournal.load(journal.file);
      assert.equal(back.data.service?.label, '本番');
      const other = connection.bindingFor(await connection.jobServiceFor(connection.current!));
      const otherClient = connection.jobClient(other);
      try {
        await assert.rejects(resumeJob(back, { client: otherClient.client, service: other, minIntervalMs: 0 }), ServiceMismatchError);
      } finally {
        otherClient.done();
      }
      assert.equal(toStaging.count(), before);
    } finally {
      connection.dispose();
      await toProd.close();
      await toStaging.close();
      await prod.close();
      await staging.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
