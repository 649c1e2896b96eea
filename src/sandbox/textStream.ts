// Writing a JSON answer made in pieces (strings) to an HTTP response as UTF-8,
// without joining the pieces into one string and without a new Buffer per write.
// No vscode import.
import type * as http from 'node:http';

/** Size of each write: pieces are encoded into blocks of this many bytes. */
export const TEXT_BLOCK_BYTES = 1 << 20;
/** Blocks a response may have in flight (written, not yet handed to the socket); bounds its memory. */
export const TEXT_BLOCKS = 4;

/**
 * Longest run of work on one answer between two turns of the event loop: a long answer
 * (a whole-tree subItems read, a dump) lets the other clients' requests be read and
 * answered every this many milliseconds, so none of them waits for it (or is cut off
 * by the headers timeout for a delay that is the sandbox's own).
 */
export const YIELD_AFTER_MS = 10;

const encoder = new TextEncoder();
/** One turn of the event loop: I/O of other connections (reads, timers) runs before this resolves. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Blocks no response holds, kept for the next answers (so a large answer does not allocate its blocks anew). */
const spare: Buffer[] = [];
const SPARE_BLOCKS = 8;

/**
 * Writes `pieces` (after the headers, which the caller has written: chunked, or a
 * Content-Length that the pieces add up to) as UTF-8 and ends the response; a
 * piece is text, or bytes that are UTF-8 already. The pieces are encoded straight into a few reused
 * blocks of {@link TEXT_BLOCK_BYTES} (`TextEncoder.encodeInto`, which never splits
 * a character): a full block is written and the next piece goes into a free one;
 * when every block is still in flight, the writer waits for the socket. So the
 * answer is encoded once, never held as one string or one buffer, and a slow
 * reader holds the server to at most {@link TEXT_BLOCKS} blocks. Making the pieces
 * gives way to other work every {@link YIELD_AFTER_MS} ms. Stops quietly
 * when the connection closes (the caller's generator is simply not read further).
 */
export async function writeTextPieces(res: http.ServerResponse, pieces: Iterator<string | Uint8Array>, first: readonly (string | Uint8Array)[] = []): Promise<void> {
  let held = 0;
  let wake: (() => void) | undefined;
  let closed = false;
  const wakeUp = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const onClose = (): void => {
    closed = true;
    wakeUp();
  };
  res.once('close', onClose);
  // Called once the socket is done with a block (written, or the connection is gone).
  const release = (b: Buffer): void => {
    held--;
    if (spare.length < SPARE_BLOCKS) spare.push(b);
    wakeUp();
  };
  const take = async (): Promise<Buffer | undefined> => {
    for (;;) {
      if (closed || res.destroyed) return undefined;
      if (held < TEXT_BLOCKS) {
        held++;
        return spare.pop() ?? Buffer.allocUnsafeSlow(TEXT_BLOCK_BYTES);
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  try {
    let block = await take();
    let used = 0;
    const put = async (text: string | Uint8Array): Promise<boolean> => {
      if (typeof text !== 'string') return putBytes(text);
      let from = 0;
      for (;;) {
        if (!block) return false;
        const r = encoder.encodeInto(from === 0 ? text : text.slice(from), block.subarray(used));
        used += r.written;
        from += r.read;
        if (from >= text.length) return true;
        // The block is full: write it, go on in a free one.
        const full = block;
        res.write(full.subarray(0, used), () => release(full));
        used = 0;
        block = await take();
      }
    };
    /** Bytes already UTF-8 (kept record pieces): copied into the blocks as they are. */
    const putBytes = async (bytes: Uint8Array): Promise<boolean> => {
      let from = 0;
      for (;;) {
        if (!block) return false;
        const n = Math.min(bytes.length - from, block.length - used);
        block.set(n === bytes.length ? bytes : bytes.subarray(from, from + n), used);
        used += n;
        from += n;
        if (from >= bytes.length) return true;
        const full = block;
        res.write(full.subarray(0, used), () => release(full));
        used = 0;
        block = await take();
      }
    };
    for (const text of first) if (!(await put(text))) return;
    let since = performance.now();
    for (let p = pieces.next(); !p.done; p = pieces.next()) {
      if (!(await put(p.value))) return;
      if (performance.now() - since >= YIELD_AFTER_MS) {
        await turn();
        if (closed || res.destroyed) return;
        since = performance.now();
      }
    }
    if (block && !res.destroyed) {
      const last = block;
      res.end(last.subarray(0, used), () => release(last));
    }
  } finally {
    res.off('close', onClose);
  }
}
