/**
 * Runs the embedded Qdrant engine on its own: `npm run embedded:qdrant -- --port 6333 --dir ./data/qdrant`.
 * Prints the URL on stdout once collections are loaded and the port is open; SIGINT / SIGTERM close it cleanly
 * (snapshotting every collection).
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { startQdrantEngine } from './index';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '6333' },
      dir: { type: 'string', default: './data/qdrant' },
      host: { type: 'string', default: '127.0.0.1' },
      fsync: { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, got ${values.port}`);
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
  const engine = await startQdrantEngine({
    dir: values.dir,
    port,
    host: values.host,
    fsync: values.fsync,
    logger,
  });
  process.stdout.write(`${engine.url}\n`);
  const stop = (signal: string) => {
    logger.info({ signal }, 'embedded qdrant stopping');
    engine.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'embedded qdrant failed to close cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `embedded qdrant failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
