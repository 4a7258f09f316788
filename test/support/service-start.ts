import { createServer } from 'node:net';
import { ServiceProcess } from './service-process';

/** A loopback port nothing listens on right now (the kernel's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * ServiceProcess.start on a port the kernel just handed out, tried again on another port if it
 * was taken in between. Suites that restart the service dozens of times otherwise meet the odd
 * collision of a random port with an outgoing connection's ephemeral port (EADDRINUSE).
 */
export async function startServiceProcess(env: Record<string, string>, attempts = 3): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ServiceProcess.start({ ...env, PORT: String(await freePort()) });
    } catch (error) {
      if (attempt >= attempts || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}
