// The sandbox's answers: the Reply a route gives, HttpProblem for a failure thrown
// anywhere while a request is handled, and the writing of a reply to the response
// (one body with Content-Length, or chunked as it is made), shaped as plain errors
// outside /_sandbox/ when asked. No vscode import.
import type * as http from 'node:http';
import type { HttpError } from './lists';
import { isSandboxControlPath, plainErrorBody, plainErrorJson } from './plain';
import { writeTextPieces } from './textStream';

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly entries: HttpError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(entries.map((e) => e.message).join('; '));
  }
}

export const problem = (status: number, code: string, message: string, extra: Partial<HttpError> = {}, headers: Record<string, string> = {}) =>
  new HttpProblem(status, [{ message, code, ...extra }], headers);

export interface Reply {
  status: number;
  body?: unknown;
  /** The body as JSON text in pieces, made while it is sent (chunked; instead of `body`). */
  stream?: Iterable<string>;
  /** The body as JSON text already made (instead of `body`). */
  json?: string;
  /** The body as UTF-8 JSON already made, in pieces (instead of `body`). */
  bytes?: Buffer[];
  headers?: Record<string, string>;
}

/** A failure answer outside /_sandbox/ with plain errors: the same status and headers, `[{"message"}]` only. */
export function shapedReply(plainErrors: boolean, url: string | undefined, reply: Reply): Reply {
  if (!plainErrors || reply.status < 400 || isSandboxControlPath(url)) return reply;
  if (reply.body !== undefined || (reply.json === undefined && reply.bytes === undefined && reply.stream === undefined)) {
    return { status: reply.status, headers: reply.headers, body: plainErrorBody(reply.body) };
  }
  const text = reply.json ?? (reply.bytes ? Buffer.concat(reply.bytes).toString('utf8') : [...reply.stream!].join(''));
  return { status: reply.status, headers: reply.headers, json: plainErrorJson(text) };
}

/**
 * Writes a streamed answer: an answer that ends within its first 64 Ki characters
 * goes out as one body with Content-Length, like every other answer; a longer one
 * is written chunked as it is made (writeTextPieces: encoded once into a few
 * reused blocks, waiting whenever the socket is full).
 */
async function sendStream(res: http.ServerResponse, reply: Reply & { stream: Iterable<string> }): Promise<void> {
  const pieces = reply.stream[Symbol.iterator]();
  const pending: string[] = [];
  let size = 0;
  let p = pieces.next();
  for (; !p.done; p = pieces.next()) {
    pending.push(p.value);
    size += p.value.length;
    if (size >= 65_536) break;
  }
  if (p.done) return sendReply(res, { status: reply.status, headers: reply.headers, json: pending.join('') });
  res.writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8', ...(reply.headers ?? {}) });
  await writeTextPieces(res, pieces, pending);
}

export function sendReply(res: http.ServerResponse, reply: Reply): void | Promise<void> {
  if (reply.stream) return sendStream(res, { ...reply, stream: reply.stream });
  let length = 0;
  for (const b of reply.bytes ?? []) length += b.length;
  if (reply.bytes && length > 256 * 1024) {
    // Kept pieces of a large answer: their lengths add up to the body's; copied to the socket through a few reused blocks.
    res.writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(length), ...(reply.headers ?? {}) });
    return writeTextPieces(res, reply.bytes[Symbol.iterator]());
  }
  // One UTF-8 encoding pass: the buffer gives the length and is what is written.
  const bytes = reply.bytes ? Buffer.concat(reply.bytes, length) : Buffer.from(reply.json ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)), 'utf8');
  res.writeHead(reply.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(bytes.length),
    ...(reply.headers ?? {}),
  });
  res.end(bytes);
}
