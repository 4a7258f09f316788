import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  /** The exact body bytes, as text: what a signature is verified against. */
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only after this long (for timeouts). */
  delayMs?: number;
}

/** Decides the answer to the n-th request (1-based) received on a path. */
export type Responder = (request: ReceivedRequest, n: number) => Reply;

/**
 * A real HTTPS webhook receiver on loopback with a self-signed certificate (for `localhost`,
 * 127.0.0.1 and ::1). The service trusts it the way an operator would make it trust a private CA:
 * `NODE_EXTRA_CA_CERTS=<caFile>` in the service's environment. Every request is recorded; the
 * answer per path is programmable (default 204).
 */
export class HttpsReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly responders = new Map<string, Responder>();
  /** Delayed answers not sent yet: close() cancels them. */
  private readonly delayed = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly caFile: string,
    private readonly dir: string,
  ) {}

  static async start(): Promise<HttpsReceiver> {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 24 * 60 * 60 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'receiver-ca-'));
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, pems.cert);
    // No request can arrive before `receiver` exists: nobody knows the port until listen() returns.
    const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new HttpsReceiver(server, (server.address() as { port: number }).port, caFile, dir);
    return receiver;
  }

  /** A URL of this receiver; by address, so no name resolution is involved. */
  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  respond(path: string, responder: Responder | Reply): void {
    this.responders.set(path, typeof responder === 'function' ? responder : () => responder);
  }

  received(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Resolves with the requests on `path` once there are at least `count` of them. */
  async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received(path).length < count) {
      if (Date.now() > deadline) {
        throw new Error(`Expected ${count} request(s) on ${path}, got ${this.received(path).length}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.received(path);
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        path: req.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      this.requests.push(request);
      const responder = this.responders.get(request.path);
      const reply = responder ? responder(request, this.received(request.path).length) : { status: 204 };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body);
      };
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          this.delayed.delete(timer);
          send();
        }, reply.delayMs);
        this.delayed.add(timer);
      } else send();
    });
  }

  async close(): Promise<void> {
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
