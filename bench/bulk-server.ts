// The sandbox of bench/bulk.ts in a process of its own (as a service elsewhere would
// be): the same generated data set, on 127.0.0.1. Started by bench/bulk.ts with
// fork; sends { url, ids } once listening, answers { check: { ids, completed } } with
// { checked: n } or { error }, and closes on { close: true }.
import { createSandbox, generateDataset } from '../src/sandbox';
import { BENCH_DATASET, benchIds, wrongProgress } from './bulk-data';

async function main(): Promise<void> {
  const sandbox = await createSandbox({ data: generateDataset(BENCH_DATASET) });
  const send = (m: unknown): void => void process.send?.(m);
  process.on('message', (m: { check?: { ids: string[]; completed: boolean }; close?: boolean }) => {
    if (m.close) {
      void sandbox.close().then(() => process.exit(0));
      return;
    }
    if (m.check) {
      const wrong = wrongProgress(sandbox, m.check.ids, m.check.completed);
      send(wrong === undefined ? { checked: m.check.ids.length } : { error: wrong });
    }
  });
  send({ url: sandbox.url, ids: benchIds(sandbox) });
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
