// The data set of the bulk benchmarks (bench/bulk.ts, bench/journal-costs.ts), the check that a
// run changed every item, and the service in a process of its own (bench/bulk-server.ts).
import { fork } from 'node:child_process';
import * as path from 'node:path';
import type { Sandbox } from '../src/sandbox';

export const BENCH_DATASET = { workItems: 20_002, users: 50, organizations: 5, processCategories: 0, seed: 42 } as const;

/** Undefined when every tracked item of `ids` has the progress the last run set; else what is wrong. */
export function wrongProgress(sandbox: Sandbox, ids: readonly string[], completed: boolean): string | undefined {
  const want = new Set(ids);
  const wrong = sandbox.data.workItems.filter((w) => want.has(w.id) && w.tracksProgress && w.actualProgress !== (completed ? 100 : 0));
  return wrong.length > 0 ? `${wrong.length} item(s) do not have the expected progress after the run (e.g. ${wrong[0]!.id})` : undefined;
}

/** The IDs the benchmark updates: every work item below a project, in the data set's order. */
export function benchIds(sandbox: Sandbox): string[] {
  return sandbox.data.workItems.filter((w) => w.parentId !== null && !w.isDeleted).map((w) => w.id);
}

/** Where the service runs, and how the benchmark reaches it. */
export interface Service {
  url: string;
  ids: string[];
  check(ids: readonly string[], completed: boolean): Promise<void>;
  close(): Promise<void>;
}

/** The sandbox of the benchmark in a process of its own (bench/bulk-server.ts), as a service elsewhere would be. */
export async function ownProcess(): Promise<Service> {
  const child = fork(path.join(__dirname, 'bulk-server.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  type Reply = { url?: string; ids?: string[]; checked?: number; error?: string };
  const next = (): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`the service process ended (${String(code)})`));
      child.once('exit', onExit);
      child.once('message', (m: Reply) => {
        child.off('exit', onExit);
        resolve(m);
      });
    });
  const hello = await next();
  if (!hello.url || !hello.ids) throw new Error('the service process did not start');
  return {
    url: hello.url,
    ids: hello.ids,
    check: async (ids, completed) => {
      const reply = next();
      child.send({ check: { ids, completed } });
      const r = await reply;
      if (r.error !== undefined) throw new Error(r.error);
    },
    close: async () => {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.send({ close: true });
      await ended;
    },
  };
}
