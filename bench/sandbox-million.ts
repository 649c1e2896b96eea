// Benchmark and check: a 1,000,000-item data set (generateLargeProject) in the sandbox
// with a state file. The state file is saved after an update and the dump is sent as
// streams (as one string, such a data set is about 1 GB of JSON, more than V8 can hold);
// a small request made while the save runs is answered meanwhile; a save that fails
// (the state file replaced by a folder) answers 500 and is taken back; a new sandbox
// starts from the 1,000,000-item state file (read line by line).
//
// Run: NODE_OPTIONS=--max-old-space-size=12288 npx tsx bench/sandbox-million.ts
// (results: bench/results/sandbox-million.md)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createSandbox, generateLargeProject } from '../src/sandbox';
import { WHOLE_TEXT_MAX_BYTES } from '../src/sandbox/datasetRead';

const ITEMS = Number(process.env['BENCH_ITEMS'] ?? 1_000_000);
const agent = new Agent({ connections: 4, bodyTimeout: 0, headersTimeout: 0 });
const AUTH = { authorization: `Basic ${Buffer.from('admin:password').toString('base64')}`, 'content-type': 'application/json' };

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await f();
  return { ms: Math.round(performance.now() - t), value };
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-million-'));
  const file = path.join(dir, 'state.json');
  try {
    const gen = await timed(async () => generateLargeProject({ items: ITEMS }));
    rows.push(`| generate ${ITEMS.toLocaleString('en')} items | ${gen.ms} |  |`);
    const started = await timed(() => createSandbox({ data: gen.value, statePath: file }));
    const sb = started.value;
    rows.push(`| start (validate) | ${started.ms} |  |`);
    const put = (id: string, body: unknown) =>
      request(`${sb.url}/workitem/workItems/${id}`, { method: 'PUT', headers: AUTH, body: JSON.stringify(body), dispatcher: agent }).then(async (r) => ({ status: r.statusCode, text: await r.body.text() }));
    const id = String(1_000_000 + Math.floor(ITEMS / 2));

    // An update and its streamed save; a small read sent during the save.
    const update = timed(() => put(id, { fields: { Name: 'saved in a stream' } }));
    await new Promise((r) => setTimeout(r, 200));
    const small = await timed(() => request(`${sb.url}/system/users/me`, { headers: AUTH, dispatcher: agent }).then(async (r) => (await r.body.text(), r.statusCode)));
    const u = await update;
    if (u.value.status !== 200) throw new Error(`update: ${u.value.status} ${u.value.text.slice(0, 300)}`);
    const size = fs.statSync(file).size;
    rows.push(`| update + streamed save of the state file (${(size / 1e6).toFixed(0)} MB) | ${u.ms} | 200 |`);
    rows.push(`| a GET /system/users/me sent 200 ms into the save | ${small.ms} | ${small.value}, answered ${small.ms < u.ms - 200 ? 'before' : 'after'} the save ended |`);

    // The dump, streamed; its bytes counted and its ends checked.
    const dump = await timed(async () => {
      const r = await request(`${sb.origin}/_sandbox/dump`, { dispatcher: agent });
      let bytes = 0;
      let head = '';
      let tail = '';
      for await (const c of r.body) {
        const b = c as Buffer;
        if (head.length < 40) head += b.toString('utf8', 0, 40);
        bytes += b.length;
        tail = b.toString('utf8', Math.max(0, b.length - 40));
      }
      return { status: r.statusCode, chunked: r.headers['transfer-encoding'], bytes, ok: head.startsWith('{"version":2') && tail.endsWith(']}') };
    });
    rows.push(`| GET /_sandbox/dump (${(dump.value.bytes / 1e6).toFixed(0)} MB, ${dump.value.chunked}) | ${dump.ms} | ${dump.value.status}${dump.value.ok ? '' : ' BAD ENDS'} |`);

    // A save that fails: 500 and the change taken back.
    fs.renameSync(file, `${file}.kept`);
    fs.mkdirSync(file);
    const failed = await timed(() => put(id, { fields: { Name: 'not kept' } }));
    const back = sb.data.workItems.find((w) => w.id === id)!.name;
    rows.push(`| update whose save fails (state file replaced by a folder) | ${failed.ms} | ${failed.value.status}; name after it: "${back}" |`);
    fs.rmdirSync(file);
    fs.renameSync(`${file}.kept`, file);
    await sb.close();

    // A new sandbox from the state file.
    const again = await timed(() => createSandbox({ statePath: file, data: { version: 2 } as never }));
    const name = again.value.data.workItems.find((w) => w.id === id)?.name;
    rows.push(`| start from the ${(size / 1e6).toFixed(0)} MB state file (${size > WHOLE_TEXT_MAX_BYTES ? 'read line by line' : 'read as one text'}) | ${again.ms} | ${again.value.data.workItems.length.toLocaleString('en')} items; "${name}" |`);
    await again.value.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await agent.close();
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const out = [
    '# Sandbox with 1,000,000 work items',
    '',
    'Command: `NODE_OPTIONS=--max-old-space-size=12288 npx tsx bench/sandbox-million.ts` (bench/sandbox-million.ts).',
    'One run over real HTTP on loopback (the sandbox in the same process).',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpu}, ${os.cpus().length} cores, Node ${process.version}; load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} (shared machine)`,
    '',
    '| Step | ms | Result |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  console.log(out);
  if (process.env['BENCH_ITEMS'] === undefined) fs.writeFileSync(path.join(__dirname, 'results', 'sandbox-million.md'), out);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
