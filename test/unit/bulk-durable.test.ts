import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileDurably, writePiecesSync, type Piece } from '../../src/bulk/durable';

describe('bulk durable writes: text written in pieces', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-durable-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const expected = (pieces: readonly Piece[]): Buffer => Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

  it('writes text and byte pieces in order, byte for byte the UTF-8 of the text, also across the 1 MiB blocks and for characters of 2, 3 and 4 bytes', () => {
    const file = path.join(dir, 'log');
    const fd = fs.openSync(file, 'a');
    const block = 1 << 20;
    const all: Piece[] = [];
    try {
      const cases: Piece[][] = [
        ['plain ', 'text\n'],
        // A 4-byte character (a surrogate pair) and 3-byte ones placed right at a block's end.
        ['a'.repeat(block - 2), '😀', '日本語', 'é'.repeat(block), '\n'],
        [Buffer.from('{"raw":true}'), 'x', new Uint8Array(0), '', Buffer.from('ü')],
        // More than the kept blocks' worth of text in one write.
        ['z'.repeat(5 * block + 7), '😀'.repeat(block / 2)],
      ];
      for (const pieces of cases) {
        writePiecesSync(fd, pieces);
        all.push(...pieces);
      }
    } finally {
      fs.closeSync(fd);
    }
    assert.ok(fs.readFileSync(file).equals(expected(all)));
  });

  it('writes everything when the system takes fewer bytes than asked in a write', () => {
    const file = path.join(dir, 'short');
    const fd = fs.openSync(file, 'a');
    const nodeFs = require('node:fs') as typeof fs; // the module object itself (the writer calls through it)
    const { writeSync, writevSync } = nodeFs;
    let calls = 0;
    // Every write takes at most 7 bytes of what it is given.
    nodeFs.writevSync = ((f: number, views: NodeJS.ArrayBufferView[]) => {
      calls++;
      const first = views[0] as Uint8Array;
      return writeSync(f, first, 0, Math.min(7, first.length));
    }) as typeof fs.writevSync;
    nodeFs.writeSync = ((f: number, b: Uint8Array) => {
      calls++;
      return writeSync(f, b, 0, Math.min(7, b.length));
    }) as typeof fs.writeSync;
    const pieces: Piece[] = ['{"a":', Buffer.from('"bytes of an answer"'), ',"b":"τέλος"}', '\n'];
    try {
      writePiecesSync(fd, pieces);
    } finally {
      nodeFs.writevSync = writevSync;
      nodeFs.writeSync = writeSync;
      fs.closeSync(fd);
    }
    assert.ok(fs.readFileSync(file).equals(expected(pieces)));
    assert.ok(calls > 5, `${calls} writes`);
  });

  it('writeFileDurably replaces the file with the pieces, leaving no temp file; a failure leaves the old file as it was', async () => {
    const file = path.join(dir, 'job.json');
    await writeFileDurably(file, 'old\n', 't1');
    const pieces: Piece[] = ['{"a":', Buffer.from('"τ"'), '}\n'];
    await writeFileDurably(file, pieces, 't2');
    assert.equal(await fsp.readFile(file, 'utf8'), '{"a":"τ"}\n');
    assert.deepEqual((await fsp.readdir(dir)).sort(), ['job.json']);
    await assert.rejects(writeFileDurably(path.join(dir, 'missing', 'job.json'), pieces, 't3'), /ENOENT/);
    assert.equal(await fsp.readFile(file, 'utf8'), '{"a":"τ"}\n');
  });
});
