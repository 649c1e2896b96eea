// Answers for the HTTP requests Node's server does not hand to the sandbox's routes:
// `CONNECT` (the sandbox is no proxy) and an `Expect:` other than `100-continue`.
// Node closes a CONNECT without a word and answers such an Expect with an empty 417;
// here both get a JSON body like every other failure. (`Expect: 100-continue` is
// answered "100 Continue" by Node, then the request goes to its route as usual.)
// No vscode import.
import * as http from 'node:http';
import type { Duplex } from 'node:stream';
import { plainErrorBody } from './plain';

type Entry = { message: string; code: string; params: Record<string, string> };

function bodyText(entries: Entry[], plain: boolean): string {
  return JSON.stringify(plain ? plainErrorBody(entries) : entries);
}

/** The answer to a CONNECT request: 405 with JSON, then the connection is closed. */
export function connectAnswer(req: http.IncomingMessage, plain: boolean): string {
  const path = req.url ?? '';
  const text = bodyText(
    [
      {
        message: `CONNECT is not allowed on ${path}: the sandbox is not a proxy; send GET, PUT or POST requests to its /api routes`,
        code: 'METHOD_NOT_ALLOWED',
        params: { method: 'CONNECT', path, allowed: 'GET, PUT, POST' },
      },
    ],
    plain,
  );
  return (
    `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
    `Allow: GET, PUT, POST\r\nConnection: close\r\n\r\n${text}`
  );
}

/** Gives CONNECT and unknown expectations their JSON answers on `server`. */
export function answerProtocolRequests(server: http.Server, plain: boolean): void {
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(connectAnswer(req, plain));
  });
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const expect = String(req.headers.expect ?? '');
    const detail = `the expectation ${JSON.stringify(expect)} cannot be met: the only expectation the sandbox knows is "100-continue"`;
    const text = bodyText([{ message: `bad request: ${detail}`, code: 'BAD_REQUEST', params: { detail } }], plain);
    res.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), Connection: 'close' });
    res.end(text);
  });
}

/** Requests seen on each connection (for {@link unlessRequestArrives}). */
const requestsOn = new WeakMap<object, number>();

/** Counts a request on its connection (call first thing for every request). */
export function countRequest(socket: object): void {
  requestsOn.set(socket, (requestsOn.get(socket) ?? 0) + 1);
}

/**
 * Runs `cutOff` (a timeout's answer) only after the input already waiting has been
 * read: when the sandbox itself was busy (its event loop held by a long piece of work),
 * a timer fires before the bytes that arrived meanwhile are read, and the client would
 * get a 408 for a delay that is the sandbox's own. `setImmediate` runs after the
 * event loop's poll phase, which reads those bytes; a request that arrived in them
 * (its headers complete) calls off the cut.
 */
export function unlessRequestArrives(socket: object, cutOff: () => void): void {
  const seen = requestsOn.get(socket) ?? 0;
  setImmediate(() => {
    if ((requestsOn.get(socket) ?? 0) === seen) cutOff();
  });
}

/** Runs `then` after the input already waiting has been read (see {@link unlessRequestArrives}). */
export function afterWaitingInput(then: () => void): void {
  setImmediate(then);
}
