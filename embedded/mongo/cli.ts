/**
 * Runs the embedded MongoDB engine alone: `npm run embedded:mongo -- --port 27017 --dir ./data/mongo`
 * (also `--host`, `--log-level`; logs go to stderr).
 * Prints the connection string; mongosh, Compass or any driver can then inspect the data. Stops cleanly on
 * SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { startMongoEngine } from './index';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '27017' },
      dir: { type: 'string', default: './data/mongo' },
      host: { type: 'string', default: '127.0.0.1' },
      'log-level': { type: 'string', default: 'info' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, got ${values.port}`);
  const logger = pino({ level: values['log-level'] }, pino.destination(2));
  const engine = await startMongoEngine({ dir: values.dir, port, host: values.host, logger });
  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping embedded MongoDB engine');
    engine.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'failed to close cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Printed last: whoever waits for the URI can signal the process from then on.
  process.stdout.write(`${engine.uri}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
