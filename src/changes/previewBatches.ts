// A preview's table built as its reads come back, without holding up the next read: each
// batch's rows are made (PreviewTableBuilder) and handed on (`rows(from)`, e.g. posted to the
// Before/After page) just after the reader has sent its next request (setImmediate), so that
// work overlaps the service's time; `flush()` makes what is left at once (after the last read).
// No vscode import (the benchmark runs it too).
import type { ItemValues } from '../bulk/effects';
import type { ReadValuesOptions } from '../bulk/readValues';
import type { PreviewTableBuilder } from '../webview/changeTable';

export class PreviewBatches {
  private readonly queue: { batch: readonly string[]; items: ReadonlyMap<string, ItemValues> }[] = [];
  private scheduled = false;
  private stopped = false;

  constructor(
    readonly builder: PreviewTableBuilder,
    /** New rows from index `from` (to the last made). */
    private readonly rows: (from: number) => void,
  ) {}

  /** For readValues: a batch came back (its rows are made once the next read has left). */
  readonly onItems: NonNullable<ReadValuesOptions['onItems']> = (batch, items) => {
    if (this.stopped) return;
    this.queue.push({ batch, items });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  };

  /** The read failed or was cancelled: nothing more is made or handed on. */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
  }

  /** Makes the rows of every batch come back so far, now. */
  flush(): void {
    for (let q = this.queue.shift(); q; q = this.queue.shift()) {
      const from = this.builder.addRead(q.batch, q.items);
      if (this.builder.made > from) this.rows(from);
    }
  }
}
