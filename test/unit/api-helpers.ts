// Test helpers of the API client tests: a real HTTP server on 127.0.0.1 port 0
// that records what it received, and a logger that captures everything.
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../src/api/logger';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  socketId: number;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void | Promise<void>;

export interface TestServer {
  /** Base URL with a path prefix, like a real installation: http://127.0.0.1:PORT/site/api */
  baseUrl: string;
  origin: string;
  port: number;
  received: Received[];
  /** Sockets ever opened to the server. */
  sockets: () => number;
  /** Highest number of sockets open at once. */
  maxOpenSockets: () => number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler, prefix = '/site/api'): Promise<TestServer> {
  const received: Received[] = [];
  const open = new Set<net.Socket>();
  let socketCount = 0;
  let maxOpen = 0;
  const ids = new WeakMap<net.Socket, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, socketId: ids.get(req.socket) ?? -1 });
      Promise.resolve(handler(req, res, body)).catch((e: unknown) => {
        res.statusCode = 599;
        res.end(String(e));
      });
    });
  });
  server.on('connection', (s: net.Socket) => {
    ids.set(s, ++socketCount);
    open.add(s);
    maxOpen = Math.max(maxOpen, open.size);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}${prefix}`,
    origin,
    port,
    received,
    sockets: () => socketCount,
    maxOpenSockets: () => maxOpen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A TCP port on 127.0.0.1 where nothing listens (bound, then closed). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A TCP server that accepts connections and never says anything (TLS handshakes hang on it). */
export async function silentTcpServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const s = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('error', () => undefined);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    port: (s.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const x of sockets) x.destroy();
        s.close(() => resolve());
      }),
  };
}

export function json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(value));
}

export interface CapturingLogger extends Logger {
  lines: string[];
  text(): string;
}

/** A Logger that keeps every message and argument, stringified. */
export function capturingLogger(): CapturingLogger {
  const lines: string[] = [];
  const put =
    (level: string) =>
    (message: string | Error, ...args: unknown[]) => {
      const parts = [message instanceof Error ? `${message.message}\n${message.stack ?? ''}` : message, ...args.map(stringifyDeep)];
      lines.push(`${level} ${parts.join(' ')}`);
    };
  return { lines, text: () => lines.join('\n'), trace: put('trace'), debug: put('debug'), info: put('info'), warn: put('warn'), error: put('error') };
}

export function stringifyDeep(v: unknown): string {
  if (v instanceof Error) {
    const e = v as Error & { cause?: unknown };
    return `${e.name}: ${e.message}\n${e.stack ?? ''}\n${JSON.stringify(e)}${e.cause !== undefined ? `\ncause: ${stringifyDeep(e.cause)}` : ''}`;
  }
  try {
    return typeof v === 'string' ? v : JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/** Runs `fn`, expecting it to reject; returns the rejection. */
export async function rejection(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection, but the call succeeded');
}

/** Resolves when `cond()` becomes true (polling; no timing assertion). */
export async function until(cond: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
