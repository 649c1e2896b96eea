// Reading the current values of a job's items with a cancellable progress notification that
// says how many read requests it takes; a read that ends within QUIET_READ_MS shows none (small
// jobs read in one request, in milliseconds). Used by Preview, Send (values before) and after a run.
import * as vscode from 'vscode';
import type { SharedPacing } from '../api/pacer';
import type { ReadValues, ReadValuesOptions } from '../bulk/readValues';
import type { JobPlan } from '../bulk';
import { abortOn } from '../common/abortOn';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import { itemsText, requestsText } from '../common/wording';
import { readRequestCount, subItemReader, workItemReader } from './reader';
import { core } from '../core/load';

/** Reads that end sooner show no progress notification. */
const QUIET_READ_MS = 700;

/**
 * Services (by base URL) that refused the fields only a prediction needs (TracksProgress, …):
 * later reads in this window ask without them, so no call is spent on a refusal again.
 */
const refusedExtras = new Set<string>();

/**
 * Reads with a cancellable progress notification that says how many read requests it
 * takes. A read that ends within {@link QUIET_READ_MS} shows no notification (small jobs
 * read in one request, in milliseconds).
 */
export async function readWithProgress(
  connections: ConnectionManager,
  log: vscode.LogOutputChannel,
  ids: readonly string[],
  plan: JobPlan,
  info: ConnectionInfo,
  /** The time line of the Send or Preview this read belongs to. */
  pacing: SharedPacing,
  title: (requests: string) => string,
  /** After each batch of the work-item reads (the preview builds its table as they come). */
  onItems?: ReadValuesOptions['onItems'],
): Promise<ReadValues> {
  const neededOnly = refusedExtras.has(info.baseUrl);
  const bodies = core().planBodies(plan);
  const fields = neededOnly ? core().neededFieldsForAll(bodies) : core().fieldsToReadForAll(bodies);
  const count = readRequestCount(info.baseUrl, ids, fields);
  const abort = new AbortController();
  let report: ((done: number, total: number) => void) | undefined;
  let latest: [number, number] | undefined;
  const reading = core().readValues(workItemReader(connections, pacing), ids, bodies, {
    signal: abort.signal,
    subItems: subItemReader(connections, pacing),
    onItems,
    neededOnly,
    onProgress: (done, total) => {
      latest = [done, total];
      report?.(done, total);
    },
  });
  const settled = reading.then(
    () => true,
    () => true,
  );
  const quick = await Promise.race([settled, new Promise<false>((resolve) => setTimeout(() => resolve(false), QUIET_READ_MS))]);
  if (!quick) {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: title(count === undefined ? '?' : requestsText(count)), cancellable: true },
      async (progress, token) => {
        const cancel = abortOn(token);
        if (cancel.signal.aborted) abort.abort();
        else cancel.signal.addEventListener('abort', () => abort.abort(), { once: true });
        let last = 0;
        report = (done, total) => {
          const percent = total > 0 ? (done / total) * 100 : 100;
          progress.report({ message: vscode.l10n.t('{0} of {1} read', done, itemsText(total)), increment: Math.max(0, percent - last) });
          last = Math.max(last, percent);
        };
        if (latest) report(...latest);
        try {
          await settled;
        } finally {
          cancel.dispose();
        }
      },
    );
  }
  const values = await reading;
  if (abort.signal.aborted) throw new vscode.CancellationError();
  if (values.refused) {
    refusedExtras.add(info.baseUrl);
    log.warn(
      `The service refused the read of fields ${values.refused.asked.join(',')} (status ${values.refused.status ?? '?'}); read again without ` +
        `${values.refused.left.join(',')}: what depends on them is predicted without them, and later reads of this service in this window ask without them.`,
    );
  }
  log.info(`Read ${values.fields.join(',')} of ${ids.length} items in ${values.requests} requests (${values.missing.length} missing).`);
  return values;
}
