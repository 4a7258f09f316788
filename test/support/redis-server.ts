import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './service-start';

/**
 * A throw-away redis-server for tests: its own loopback port and temp directory, no persistence,
 * stopped (and its directory removed) by `stop()`. CI installs the Debian package when the
 * machine has none (.ci/run); a developer without it gets a message saying so.
 */
export class RedisServer {
  private constructor(
    private readonly process: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';
    if (spawnSync(binary, ['--version']).error) {
      throw new Error(`${binary} not found: install it (apt-get install -y redis-server) to run the Redis tests`);
    }
    // A port can be taken between finding it free and redis binding it: try a few.
    let lastError: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      const port = await freePort();
      const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
      const child = spawn(
        binary,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      try {
        await waitUntilReady(child, port, () => output);
        return new RedisServer(child, dir, port);
      } catch (error) {
        lastError = error;
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    }
    throw lastError;
  }

  /** Stops the server and waits until its process has exited. */
  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      const exited = new Promise((resolve) => this.process.once('exit', resolve));
      this.process.kill('SIGTERM');
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Resolves once the server answers PING; rejects if it exits or takes longer than 10 s. */
async function waitUntilReady(child: ChildProcess, port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}): ${output()}`);
    if (await pings(port)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not answer on port ${port} within 10 s: ${output()}`);
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
