import pino, { type Logger } from 'pino';
import { listen, urlHost } from '../../platform/listen';
import { Catalog } from './catalog';
import { createQdrantHttpServer } from './http/server';

/** Options of the embedded Qdrant engine. */
export interface QdrantEngineOptions {
  /** Data directory (collections live under `<dir>/collections`); created when missing. */
  dir: string;
  /** TCP port; default 0 picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default: a silent pino logger. */
  logger?: Logger;
  /** fsync each log append so acknowledged writes survive power loss too; default false (survives kill -9). */
  fsync?: boolean;
  /** Write-ahead-log size that triggers a snapshot of the collection; default 256 MiB. */
  compactAfterBytes?: number;
}

/** A running engine: `url` is what a `QdrantClient({ url })` connects to. */
export interface QdrantEngine {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  /** Stops the HTTP server, snapshots every collection and closes its files. */
  close(): Promise<void>;
}

const DEFAULT_COMPACT_AFTER_BYTES = 256 * 1024 * 1024;

/**
 * Starts an in-process server speaking the subset of Qdrant's REST API the platform uses, backed by the
 * collections stored in `options.dir`. Collections load (snapshot + log replay) before the port opens.
 */
export async function startQdrantEngine(options: QdrantEngineOptions): Promise<QdrantEngine> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const host = options.host ?? '127.0.0.1';
  const catalog = Catalog.open(
    options.dir,
    {
      fsync: options.fsync ?? false,
      compactAfterBytes: options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES,
    },
    logger,
  );
  const server = createQdrantHttpServer(catalog, logger);
  const port = await listen(server, options.port ?? 0, host).catch((error: unknown) => {
    catalog.close();
    throw error;
  });
  const url = `http://${urlHost(host)}:${port}`;
  logger.info({ url, dir: options.dir }, 'embedded qdrant listening');
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => {
          try {
            catalog.close();
          } catch (closeError) {
            reject(closeError as Error);
            return;
          }
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
