// Reads a VSIX (a zip) without dependencies: the central directory lists every entry with its sizes.
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

/**
 * @param {string} file
 * @returns {{ name: string, size: number, compressedSize: number, method: number, localHeader: number }[]}
 */
export function listZip(file) {
  const buf = fs.readFileSync(file);
  // End of central directory: signature 0x06054b50, within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLength);
    const method = buf.readUInt16LE(p + 10);
    const localHeader = buf.readUInt32LE(p + 42);
    entries.push({ name, size, compressedSize, method, localHeader });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The content of one entry (stored or deflated).
 * @param {string} file
 * @param {string} name
 * @returns {Buffer}
 */
export function readZipEntry(file, name) {
  const entry = listZip(file).find((e) => e.name === name);
  if (!entry) throw new Error(`${file} has no entry ${name}`);
  const buf = fs.readFileSync(file);
  const h = entry.localHeader;
  if (buf.readUInt32LE(h) !== 0x04034b50) throw new Error(`${file}: bad local header for ${name}`);
  const start = h + 30 + buf.readUInt16LE(h + 26) + buf.readUInt16LE(h + 28);
  const data = buf.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method === 8) return zlib.inflateRawSync(data);
  throw new Error(`${file}: ${name} uses unsupported compression method ${entry.method}`);
}
