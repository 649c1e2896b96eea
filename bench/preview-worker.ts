// The worker thread of bench/preview.ts's "rows in a worker" side (a design measured, not
// taken): it gets each answer's bytes as read, parses them, makes the batch's rows
// (PreviewTableBuilder, as the extension host does) and posts their UTF-8 JSON bytes back
// (transferred); `finish` makes the rest, the counts and the lines.
import { parentPort, workerData } from 'node:worker_threads';
import type { ItemValues } from '../src/bulk/effects';
import type { UpdateWorkItemsBody } from '../src/schema/api';
import type { WorkItemRecord } from '../src/schema/reads';
import { ENGLISH_CHANGE_TABLE, PreviewTableBuilder } from '../src/webview/changeTable';
import { rowsBytes } from '../src/webview/changeTableData';

export type ToWorker = { reset: true } | { finish: true } | { batch: string[]; bytes: ArrayBuffer };
export type FromWorker = { from: number; rows: Uint8Array; done?: true };

const { ids, body } = workerData as { ids: string[]; body: UpdateWorkItemsBody };
let builder = new PreviewTableBuilder(ids, body, ENGLISH_CHANGE_TABLE);
const values = new Map<string, ItemValues>();

function post(m: FromWorker): void {
  parentPort!.postMessage(m, [m.rows.buffer as ArrayBuffer]);
}

parentPort!.on('message', (m: ToWorker) => {
  if ('reset' in m) {
    builder = new PreviewTableBuilder(ids, body, ENGLISH_CHANGE_TABLE);
    values.clear();
  } else if ('finish' in m) {
    const from = builder.made;
    builder.finish(values, []);
    post({ from, rows: builder.made > from ? rowsBytes(builder.table, from) : new Uint8Array(0), done: true });
  } else {
    for (const r of JSON.parse(Buffer.from(m.bytes).toString('utf8')) as WorkItemRecord[]) values.set(String(r.fields['Id']), r.fields as ItemValues);
    const from = builder.addRead(m.batch, values);
    if (builder.made > from) post({ from, rows: rowsBytes(builder.table, from) });
  }
});
