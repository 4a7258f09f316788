import { createServer, Server, Socket } from 'node:net';
import { HostResolver } from '@app/application/ports';
import { HttpsWebhookTransport } from './https-webhook-transport';

/**
 * The delivery-time SSRF guard and the deadline, against real sockets on loopback. (Successful
 * TLS deliveries need a trusted certificate: test/e2e/webhooks/delivery.e2e-spec.ts.)
 */
describe('HttpsWebhookTransport', () => {
  let server: Server;
  let port: number;
  let connections: number;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // Accepts connections and never answers: a TLS handshake there hangs until the deadline.
    server = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  beforeEach(() => (connections = 0));
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const resolverOf = (table: Record<string, string[]>): HostResolver => ({
    resolve: async (host) => table[host] ?? [],
  });
  const send = (transport: HttpsWebhookTransport, url: string, timeoutMs = 2_000) =>
    transport.send({ url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs });

  it('refuses a host name that resolves to an internal address, without connecting', async () => {
    const transport = new HttpsWebhookTransport({
      allowPrivateTargets: false,
      resolver: resolverOf({
        'rebind.example': ['10.0.0.7'],
        'meta.example': ['169.254.169.254'],
        'mixed.example': ['93.184.215.14', '127.0.0.1'],
      }),
    });
    expect(await send(transport, 'https://rebind.example/hook')).toMatchObject({
      kind: 'error',
      blocked: true,
      error: 'Refused: rebind.example resolves to a private address',
    });
    expect(await send(transport, 'https://meta.example/')).toMatchObject({
      blocked: true,
      error: 'Refused: meta.example resolves to a metadata address',
    });
    // Every address is checked, not only the one that would be used.
    expect(await send(transport, 'https://mixed.example/')).toMatchObject({
      blocked: true,
      error: 'Refused: mixed.example resolves to a loopback address',
    });
    expect(await send(transport, `https://127.0.0.1:${port}/`)).toMatchObject({ blocked: true });
    expect(await send(transport, `https://[::ffff:127.0.0.1]:${port}/`)).toMatchObject({ blocked: true });
    expect(connections).toBe(0);
    await transport.close();
  });

  it('connects to the address it checked, never resolving the name again, and gives up at the deadline', async () => {
    const transport = new HttpsWebhookTransport({
      allowPrivateTargets: true,
      resolver: resolverOf({ 'receiver.test': ['127.0.0.1'] }),
    });
    const started = Date.now();
    const result = await send(transport, `https://receiver.test:${port}/hook`, 300);
    expect(result).toMatchObject({ kind: 'error', blocked: false, error: 'Timed out after 300 ms' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(connections).toBe(1); // `receiver.test` exists only in our resolver: the socket went to 127.0.0.1
    await transport.close();
  });

  it('reports names that do not resolve and URLs it does not deliver to', async () => {
    const transport = new HttpsWebhookTransport({ allowPrivateTargets: false, resolver: resolverOf({}) });
    expect(await send(transport, 'https://nowhere.example/')).toMatchObject({
      kind: 'error',
      blocked: false,
      error: 'Could not resolve nowhere.example',
    });
    expect(await send(transport, 'http://93.184.215.14/')).toMatchObject({
      kind: 'error',
      error: 'Only https:// URLs are delivered to',
    });
    await transport.close();
  });

  it('stops at once when aborted (shutdown)', async () => {
    const transport = new HttpsWebhookTransport({ allowPrivateTargets: true });
    const controller = new AbortController();
    const pending = transport.send(
      { url: `https://127.0.0.1:${port}/`, headers: {}, body: '{}', timeoutMs: 5_000 },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ kind: 'error', aborted: true });
    await transport.close();
  });
});
