/**
 * The worker side of `engineThreads.ts`: starts one embedded engine on this thread, answers its address, and closes
 * it when asked. Its log lines (with `thread`, this thread's id) go to the parent thread, which writes them with the
 * platform's logger.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import pino from 'pino';
import { nameThread } from '../../platform/threadName';
import { startMongoEngine } from '../mongo';
import { startQdrantEngine } from '../qdrant';
import type { EngineThreadData, FromEngineThread, ToEngineThread } from './messages';

function post(message: FromEngineThread): void {
  parentPort?.postMessage(message);
}

async function main(): Promise<void> {
  const data = workerData as EngineThreadData;
  nameThread(`${data.kind}-engine`);
  const logger = pino(
    { level: data.level, base: { thread: threadId }, timestamp: false },
    { write: (line: string) => post({ type: 'log', line }) },
  );
  const engine =
    data.kind === 'mongo'
      ? await startMongoEngine({ dir: data.dir, logger }).then((e) => ({ address: e.uri, close: e.close }))
      : await startQdrantEngine({ dir: data.dir, logger }).then((e) => ({ address: e.url, close: e.close }));
  parentPort?.on('message', (message: ToEngineThread) => {
    if (message.type !== 'close') return;
    engine.close().then(
      () => post({ type: 'closed' }),
      (error: unknown) => post({ type: 'closed', error: describe(error) }),
    );
  });
  post({ type: 'started', address: engine.address });
}

function describe(error: unknown): { message: string; stack?: string } {
  return error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
}

main().catch((error: unknown) => post({ type: 'failed', error: describe(error) }));
