/**
 * Forge Platform entry point: config → logger → platform (stores, HTTP + Colyseus, jobs) → graceful shutdown on
 * SIGTERM/SIGINT. `--role api|game|worker` (repeatable, or comma-separated) overrides ROLES.
 */
import { ConfigError, loadConfig, withRoleArguments } from './platform/config';
import { createLogger } from './platform/logger';
import { Platform } from './platform/platform';
import { secretsOf } from './platform/redaction';
import { embeddedEnginesFor } from './embedded';
import { productParts } from './productParts';

/** Exit code for a configuration error (sysexits EX_CONFIG). */
const EXIT_CONFIG = 78;

async function main(): Promise<void> {
  let config;
  try {
    config = withRoleArguments(loadConfig(process.env), process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw error;
  }
  const logger = createLogger({ level: config.LOG_LEVEL, secrets: secretsOf(config) });
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

  const platform = await Platform.start({
    config,
    logger,
    parts: productParts,
    engines: embeddedEnginesFor(config.EMBEDDED_ENGINE_THREADS),
  });

  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    signalled = true;
    logger.info({ signal }, 'signal received');
    platform.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
