// One HTTP exchange through an undici dispatcher (or the fetch one of ./hostFetchDispatcher):
// the request written, the answer read up to a size cap (a list answer decoded while it
// arrives), and whether anything of the request had left when it failed. The ServiceClient
// builds the request and reads the answer; failures map to errors in ./failures. No vscode import.
import type { Dispatcher } from 'undici';
import { responseTooLarge, transportFailure } from './failures';
import { ListDecodeError, ListDecoder } from './listDecoder';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Bytes received (the body's length, also when it was decoded as it arrived). */
  size: number;
  /** A list answer decoded as it arrived (`streamList`), or why it is not JSON. */
  decoded?: { value: Record<string, unknown> } | { error: string };
}

export interface Exchange {
  url: URL;
  method: Method;
  headers: Record<string, string>;
  payload: Buffer | undefined;
  signal?: AbortSignal;
  /** Decode a 2xx answer as a list while it arrives (ListDecoder). */
  streamList?: boolean;
  /** With `streamList`: each batch of the list's elements is handed to it and not kept. */
  fold?: (items: unknown[]) => void;
  /** Largest answer read (a folded list: what the decoder keeps), in bytes. */
  maxBytes: number;
  headersMs: number;
  bodyMs: number;
}

const EMPTY: Buffer = Buffer.alloc(0);

/**
 * One request through the dispatcher, tracking whether anything was written. Rejects
 * with a transportFailure (see ./failures: transportError reads it).
 */
export function exchange(dispatcher: Dispatcher, x: Exchange): Promise<RawResponse> {
  const { url, method, headers, payload, signal, fold, maxBytes } = x;
  const streamList = x.streamList === true;
  return new Promise<RawResponse>((resolve, reject) => {
    let sent = false;
    let settled = false;
    let abortFn: ((err?: Error) => void) | undefined;
    let status = 0;
    let resHeaders: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    // A body whose length is announced is copied into one buffer as it arrives, so it is
    // not held twice (its chunks and their concatenation) at the end.
    let whole: Buffer | undefined;
    // A 2xx list answer is decoded as it arrives; a failure to decode is kept for parseSuccess.
    let decoder: ListDecoder | undefined;
    let decodeError: string | undefined;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(transportFailure(sent, err));
    };
    const onAbort = () => {
      const reason = new Error('aborted');
      abortFn?.(reason);
      fail(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    const handler = {
      onConnect(abort: (err?: Error) => void) {
        // Called right before the request is written to a connected socket.
        abortFn = abort;
        sent = true;
        if (settled) abort(new Error('aborted'));
      },
      onHeaders(statusCode: number, raw: Buffer[] | null) {
        status = statusCode;
        resHeaders = rawHeaders(raw);
        if (streamList && statusCode >= 200 && statusCode < 300) decoder = new ListDecoder(undefined, fold);
        const length = Number(resHeaders['content-length']);
        if (!decoder && Number.isSafeInteger(length) && length > 0 && length <= maxBytes) whole = Buffer.allocUnsafe(length);
        return true;
      },
      onData(chunk: Buffer) {
        size += chunk.length;
        // A folded list is capped by what it keeps, not by its length (the fold keeps the elements, or not).
        const held = decoder && fold && decodeError === undefined ? decoder.keptBytes + chunk.length : size;
        if (held > maxBytes) {
          const err = responseTooLarge(status);
          abortFn?.(err);
          fail(err);
          return false;
        }
        if (!decoder) {
          if (whole && size <= whole.length) chunk.copy(whole, size - chunk.length);
          else {
            // More than announced: the chunks from here on (undici refuses such a body anyway).
            if (whole) chunks.push(whole.subarray(0, size - chunk.length));
            whole = undefined;
            chunks.push(chunk);
          }
        } else if (decodeError === undefined) {
          try {
            decoder.push(chunk);
          } catch (e) {
            decodeError = e instanceof ListDecodeError ? e.message : `the body could not be read: ${String(e)}`;
          }
        }
        return true;
      },
      onComplete() {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        if (!decoder) {
          const body = whole ? whole.subarray(0, size) : Buffer.concat(chunks);
          resolve({ status, headers: resHeaders, body, size });
          return;
        }
        let decoded: RawResponse['decoded'];
        let body: Buffer = EMPTY;
        if (decodeError !== undefined) decoded = { error: decodeError };
        else {
          try {
            const d = decoder.finish();
            if (d.kind === 'value') decoded = { value: d.value };
            else body = d.bytes; // not an object: read as usual
          } catch (e) {
            decoded = { error: e instanceof ListDecodeError ? e.message : String(e) };
          }
        }
        resolve({ status, headers: resHeaders, body, size, decoded });
      },
      onError(err: Error) {
        fail(err);
      },
      onUpgrade() {
        fail(new Error('unexpected protocol upgrade'));
      },
      onRequestSent() {
        sent = true;
      },
      // From a dispatcher that cannot see the connect step (./hostFetchDispatcher): it calls
      // onConnect when it hands the request over, and this when the failure proves nothing left.
      onRequestNotSent() {
        sent = false;
      },
    };
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method,
          headers,
          body: payload,
          headersTimeout: x.headersMs,
          bodyTimeout: x.bodyMs,
        },
        handler as unknown as Dispatcher.DispatchHandler,
      );
    } catch (e) {
      fail(e);
    }
  });
}

function rawHeaders(raw: Buffer[] | null): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i].toString('latin1').toLowerCase();
    const v = raw[i + 1].toString('latin1');
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
