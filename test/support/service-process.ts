import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { startFlags } from '../../scripts/start-flags';

const ENTRY = join(__dirname, '..', '..', 'dist', 'apps', 'api', 'src', 'main.js');
/** `npm start`'s Node flags (the young generation's cap): the tests run the service as operators do. */
const START_FLAGS = startFlags();

let built = false;

/** Builds the service once per test process if its sources changed since the last build. */
function ensureBuilt() {
  if (built) return;
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-if-needed.js')], { stdio: 'pipe' });
  built = true;
}

/** The built service as a child process on a loopback port. */
export class ServiceProcess {
  output = '';

  private constructor(
    readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    child.stdout!.on('data', (chunk) => (this.output += chunk));
    child.stderr!.on('data', (chunk) => (this.output += chunk));
  }

  static async start(env: Record<string, string>): Promise<ServiceProcess> {
    ensureBuilt();
    for (let attempt = 1; ; attempt++) {
      const port = env.PORT ?? String(20000 + Math.floor(Math.random() * 30000));
      const child = spawn(process.execPath, [...START_FLAGS, ENTRY], {
        env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env, PORT: port },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const service = new ServiceProcess(child, `http://127.0.0.1:${port}`);
      try {
        await service.waitUntilHealthy();
        return service;
      } catch (error) {
        // A random port can be taken (another suite's service, or a client's ephemeral port):
        // another port is tried, unless the caller chose this one.
        if (env.PORT !== undefined || attempt === 3 || !service.output.includes('EADDRINUSE')) throw error;
      }
    }
  }

  private async waitUntilHealthy(timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      // A native abort ends the child by a signal (exitCode stays null): it has exited too.
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`service exited with ${this.child.exitCode ?? this.child.signalCode}:\n${this.output}`);
      }
      try {
        if ((await fetch(`${this.baseUrl}/health`)).ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`service did not become healthy:\n${this.output}`);
  }

  /** Sends a signal and resolves with the exit code (null when killed by the signal). */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve(this.child.exitCode);
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.kill(signal);
    return exited;
  }
}
