// Durable file writes shared by the job journal and the value snapshots beside it,
// and the writing of text made of pieces. No vscode import.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A piece of a file's content: text (written as UTF-8), or bytes that are UTF-8 already (an answer as it was read). */
export type Piece = string | Uint8Array;

/** Size of the reused blocks text pieces are encoded into. */
const BLOCK_BYTES = 1 << 20;
/** Blocks kept between writes (so that the next write does not allocate, and fault in, fresh memory). */
const KEPT_BLOCKS = 4;
const kept: Buffer[] = [];
const encoder = new TextEncoder();

/**
 * Writes `pieces` at the current end of `fd` (opened for appending) or at its
 * position, synchronously: the text pieces are encoded straight into reused blocks
 * (`TextEncoder.encodeInto`, no string joined, no Buffer made per piece), the
 * bytes pieces are written as they are, all with one `writev` when nothing is left
 * over. When it returns, every byte is in the operating system (it survives the
 * process being killed). Throws what the file system throws.
 */
export function writePiecesSync(fd: number, pieces: readonly Piece[]): void {
  const views: Uint8Array[] = [];
  const used: Buffer[] = [];
  let block: Buffer | undefined;
  let off = 0;
  const flushViews = (): void => {
    writevAll(fd, views);
    views.length = 0;
    kept.push(...used.splice(0));
    kept.length = Math.min(kept.length, KEPT_BLOCKS);
    block = undefined;
    off = 0;
  };
  try {
    for (const piece of pieces) {
      if (typeof piece !== 'string') {
        if (piece.length > 0) views.push(piece);
        continue;
      }
      let rest = piece;
      while (rest.length > 0) {
        if (!block || off >= block.length - 3) {
          // Blocks in use are in `views`; past a few, write them out and reuse them.
          if (used.length >= KEPT_BLOCKS) flushViews();
          block = kept.pop() ?? Buffer.allocUnsafeSlow(BLOCK_BYTES);
          used.push(block);
          off = 0;
        }
        const { read, written } = encoder.encodeInto(rest, block.subarray(off));
        if (written > 0) views.push(block.subarray(off, off + written));
        off += written;
        rest = read >= rest.length ? '' : rest.slice(read);
        if (read === 0 && written === 0) off = block.length; // no room for the next character: take a new block
      }
    }
    writevAll(fd, views);
  } finally {
    for (const b of used) if (kept.length < KEPT_BLOCKS) kept.push(b);
  }
}

/** writev until every byte of `views` is written (a write may take fewer). */
function writevAll(fd: number, views: Uint8Array[]): void {
  let list = views.filter((v) => v.length > 0);
  while (list.length > 0) {
    let n = list.length === 1 ? fs.writeSync(fd, list[0]!) : fs.writevSync(fd, list.slice(0, 1024));
    let i = 0;
    while (i < list.length && n >= list[i]!.length) n -= list[i++]!.length;
    list = list.slice(i);
    if (n > 0) list[0] = list[0]!.subarray(n);
  }
}

/**
 * Writes `content` (text, or pieces: see {@link writePiecesSync}) to `file`
 * atomically and durably: a temp file in the same directory (`tag` makes its name
 * unique), fsync, rename over `file`, fsync of the directory. On failure the temp
 * file is removed and the error passes through unchanged.
 */
export async function writeFileDurably(file: string, content: string | readonly Piece[], tag: string): Promise<void> {
  // The quick steps (open, write to the system, close, rename) are made synchronously:
  // each is a few microseconds, less than a trip through the thread pool; the fsyncs,
  // which wait for the disk, are not.
  const tmp = `${file}.${tag}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      writePiecesSync(fd, typeof content === 'string' ? [content] : content);
      await fsyncFd(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* the error that matters is the write's */
    }
    throw e;
  }
  // Make the rename itself durable.
  await syncDirectory(path.dirname(file));
}

function fsyncFd(fd: number): Promise<void> {
  return new Promise<void>((resolve, reject) => fs.fsync(fd, (e) => (e ? reject(e) : resolve())));
}

/** fsync of a directory (its entries: a rename, a link). Not possible on every platform (Windows): best effort. */
export async function syncDirectory(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return; // best effort
  }
  try {
    await fsyncFd(fd);
  } catch {
    /* best effort */
  } finally {
    fs.closeSync(fd);
  }
}
