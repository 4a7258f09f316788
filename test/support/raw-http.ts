import { Agent, IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse<T = any> {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  body: T;
  /** True when the body parsed as JSON. */
  json: boolean;
}

export interface RawRequest {
  method: string;
  /** Sent as it is (already encoded): odd paths and query strings are the point of some callers. */
  path: string;
  headers?: Record<string, string | string[]>;
  /** A string or bytes, sent as they are; objects go through `json`. */
  body?: string | Buffer;
  /** Serialised with JSON.stringify and sent with `content-type: application/json` unless headers say otherwise. */
  json?: unknown;
  token?: string;
  timeoutMs?: number;
}

/**
 * A failure below HTTP: the request may or may not have reached the service. `code` is Node's
 * (ECONNREFUSED: nothing was listening, so the request certainly had no effect; ECONNRESET and
 * friends: the connection died with the request in flight, so its outcome is unknown).
 */
export class TransportError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }

  /** The service never saw the request. */
  get notDelivered(): boolean {
    return this.code === 'ECONNREFUSED';
  }
}

/** The client refused to send the request (e.g. characters Node will not put in a path or header). */
export class ClientRefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ClientRefusedError';
  }
}

/**
 * A small HTTP/1.1 client over node:http with keep-alive, for tests that need control over every
 * byte fetch() normalises (methods, paths, header values, content types, malformed bodies), and a
 * clear line between "the service answered" and "the connection failed".
 */
export class RawHttpClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(
    readonly baseUrl: string,
    options: { maxSockets?: number } = {},
  ) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  }

  request<T = any>(req: RawRequest): Promise<RawResponse<T>> {
    const headers: Record<string, string | string[]> = {};
    let body: string | Buffer | undefined = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    }
    if (req.token !== undefined) headers.authorization = `Bearer ${req.token}`;
    Object.assign(headers, req.headers);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      let req0;
      try {
        req0 = httpRequest({
          host: this.host,
          port: this.port,
          method: req.method,
          path: req.path,
          headers,
          agent: this.agent,
        });
      } catch (error) {
        const e = error as Error & { code?: string };
        fail(new ClientRefusedError(e.code ?? 'ERR_CLIENT', e.message));
        return;
      }
      const timer = setTimeout(() => {
        req0.destroy(Object.assign(new Error(`no answer within ${req.timeoutMs ?? 30_000} ms`), { code: 'ETIMEDOUT' }));
      }, req.timeoutMs ?? 30_000);
      req0.on('error', (error: Error & { code?: string }) => {
        clearTimeout(timer);
        fail(new TransportError(error.code ?? 'EUNKNOWN', `${req.method} ${req.path.slice(0, 200)}: ${error.message}`));
      });
      req0.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error: Error & { code?: string }) => {
          clearTimeout(timer);
          fail(new TransportError(error.code ?? 'EUNKNOWN', error.message));
        });
        res.on('end', () => {
          clearTimeout(timer);
          if (settled) return;
          settled = true;
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          let json = false;
          if (text.length > 0) {
            try {
              parsed = JSON.parse(text);
              json = true;
            } catch {
              parsed = undefined;
            }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed as T, json });
        });
      });
      try {
        if (body !== undefined) req0.end(body);
        else req0.end();
      } catch (error) {
        clearTimeout(timer);
        const e = error as Error & { code?: string };
        req0.destroy();
        fail(new ClientRefusedError(e.code ?? 'ERR_CLIENT', e.message));
      }
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * Writes bytes on a fresh TCP connection and resolves with everything the server sent back before
 * closing it (or before `timeoutMs`, after which the connection is closed by us). For requests no
 * HTTP client will produce: malformed request lines, bad header syntax, conflicting lengths.
 */
export function rawExchange(baseUrl: string, bytes: string | Buffer, timeoutMs = 5_000): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: Error & { code?: string }) => {
      // A reset after the answer was written still leaves the answer to inspect.
      if (chunks.length > 0) return;
      clearTimeout(timer);
      reject(new TransportError(error.code ?? 'EUNKNOWN', error.message));
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

/** Status code and JSON body of the first response in a raw exchange (null when there was none). */
export function parseRawResponse(raw: string): { status: number; body: unknown; json: boolean } | null {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
  if (!match) return null;
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  let text = split === -1 ? '' : raw.slice(split + 4);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) text = text.slice(0, Number(length[1]));
  try {
    return { status: Number(match[1]), body: JSON.parse(Buffer.from(text, 'latin1').toString('utf8')), json: true };
  } catch {
    return { status: Number(match[1]), body: text, json: false };
  }
}
