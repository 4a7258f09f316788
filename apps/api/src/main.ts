import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { prepareDataDir } from './data-dir';
import { boundHeapGrowth } from './heap';
import { serviceLogger } from './observability/logger';

boundHeapGrowth();

/** The service's logger, once the configuration has said at which level. */
let log: Logger | undefined;

/**
 * Everything the service logs is JSON on stdout from the moment its configuration is read
 * (docs/operations.md, Logs). Text stays for what a person reads at a failed or first start: a
 * configuration error (stderr, exit code 2), a failure before the configuration was read, and the
 * admin token printed once.
 */
async function main() {
  const { config, adminTokenGenerated } = prepareDataDir(loadConfig());
  Logger.overrideLogger(serviceLogger(config.logLevel));
  const logger = (log = new Logger('Main'));
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  logger.log(
    `Listening on ${config.host}:${config.port} (events: ${config.eventStore}, read models: ${config.readStore}, data: ${config.dataDir}, deployment: ${config.deployment})`,
  );
  // Graceful shutdown: stop accepting, let in-flight requests finish (Fastify answers new ones
  // 503 while closing), stop the projections after their current batch, close the stores.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: shutting down`);
    app.close().then(
      // A process that ends because it must be started again (a lost projector lock) set exit code 1.
      () => process.exit(process.exitCode ?? 0),
      (error) => {
        logger.error('Shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  if (adminTokenGenerated) {
    // Shown once, on the start that generated it; it is kept in DATA_DIR/admin-token.
    process.stdout.write(`\nAdmin token (saved in ${config.dataDir}/admin-token): ${config.adminToken}\n\n`);
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(2);
  }
  if (log) log.error('Failed to start', error);
  else process.stderr.write(`Failed to start: ${error?.stack ?? error}\n`);
  process.exit(1);
});
