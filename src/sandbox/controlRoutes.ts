// The sandbox-only control routes under /_sandbox/ (no sign-in: loopback only): one
// stored work item as kept, the data set's dump (streamed), a reset to a data set,
// and the fault queue. No vscode import.
import { datasetJsonPieces } from './datasetJson';
import { FaultSpec } from './faults';
import type { Change } from './keeper';
import type { RouteEnv } from './live';
import type { Dataset } from './model';
import { HttpProblem, problem, type Reply } from './reply';
import { decodeSegment, keptReply, type Route } from './router';
import { DatasetError, formatPath, parseDataset } from './state';

/** Bodies of POST /_sandbox/reset and /_sandbox/faults may be a large data set. */
export const MAX_SANDBOX_BODY_BYTES = 512 * 1024 * 1024;

/** The routes under /_sandbox/ (the path after /_sandbox), on the shared state of the sandbox. */
export function controlRoutes(env: RouteEnv): Route[] {
  const { live, keeper, faults, maxBody } = env;
  return [
    {
      pattern: ['workitems', '*'],
      auth: false,
      methods: {
        GET: (c) => {
          const id = decodeSegment(c.params[0]!, 'work item ID');
          const item = live.data.workItems.find((w) => w.id === id);
          if (!item) throw problem(404, 'WORK_ITEM_NOT_FOUND', `no work item with ID ${JSON.stringify(id)}`, { params: { id } });
          return { status: 200, body: item };
        },
      },
    },
    // Streamed (never one string): a 1,000,000-item data set dumps too.
    { pattern: ['dump'], auth: false, methods: { GET: () => ({ status: 200, stream: datasetJsonPieces(live.data) }) } },
    {
      pattern: ['reset'],
      auth: false,
      methods: {
        POST: async (c) => {
          const body = await c.readBody(MAX_SANDBOX_BODY_BYTES);
          let next: Dataset;
          if (body === undefined) next = structuredClone(live.initial);
          else {
            try {
              next = parseDataset(body);
            } catch (e) {
              if (e instanceof DatasetError) {
                throw new HttpProblem(
                  400,
                  e.problems.map((p) => ({ message: p, code: 'INVALID_DATASET', params: { problem: p } })),
                );
              }
              throw e;
            }
          }
          return keptReply(
            await keeper.change((): Change<Reply> => {
              const before = live.data;
              live.data = next;
              live.changed();
              const counts = { users: live.data.users.length, organizations: live.data.organizations.length, workItems: live.data.workItems.length, processCategories: live.data.processCategories.length };
              return { value: { status: 200, body: { reset: true, ...counts } }, undo: () => ((live.data = before), live.changed()) };
            }),
          );
        },
      },
    },
    {
      pattern: ['faults'],
      auth: false,
      methods: {
        GET: () => ({ status: 200, body: faults.pending() }),
        POST: async (c) => {
          const body = await c.readBody(maxBody);
          const parsed = FaultSpec.safeParse(body ?? {});
          if (!parsed.success) {
            throw new HttpProblem(
              400,
              parsed.error.issues.map((i) => ({
                message: `${formatPath(i.path)}: ${i.message}`,
                code: 'INVALID_BODY',
                field: formatPath(i.path),
                params: { field: formatPath(i.path), problem: i.message },
              })),
            );
          }
          const f = faults.add(parsed.data);
          return { status: 200, body: { queued: f, pending: faults.pending().length } };
        },
        DELETE: () => {
          faults.clear();
          return { status: 200, body: { cleared: true } };
        },
      },
    },
  ];
}
