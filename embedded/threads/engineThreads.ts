import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { EngineThreadData, FromEngineThread, ThreadError } from './messages';

/** What an engine starter is given (the platform's `EngineOptions`). */
export interface EngineThreadOptions {
  dir: string;
  logger: Logger;
  /** What a thread that dies after starting does; by default its error is thrown on the main thread. */
  onDeath?: (error: Error) => void;
}

/** A store lost mid-run ends the process, as an uncaught engine error on the main thread would. */
function rethrow(error: Error): void {
  process.nextTick(() => {
    throw error;
  });
}

/** An engine running on its own thread: its address (a MongoDB URI or a Qdrant URL) and how to stop it. */
export interface EngineThread {
  address: string;
  /** Closes the engine (its files flushed and closed, its directory unlocked), then ends the thread. */
  close(): Promise<void>;
}

/**
 * The worker module: the compiled engineWorker.js in a built server; from TypeScript sources (jest, tsx) a CommonJS
 * shim that registers tsx in the thread first, since worker threads do not inherit the parent's loader.
 */
function workerFile(): string {
  return __filename.endsWith('.ts')
    ? path.join(__dirname, 'engineWorkerFromSource.cjs')
    : path.join(__dirname, 'engineWorker.js');
}

/** An error from the thread, with the thread's stack. */
function errorOf(error: ThreadError): Error {
  const made = new Error(error.message);
  if (error.stack) made.stack = error.stack;
  return made;
}

/** Writes a JSON line the thread logged with `logger`, at its level. */
function relay(logger: Logger, line: string): void {
  const { level, msg, ...fields } = JSON.parse(line) as { level: number; msg?: string };
  const label = (logger.levels.labels[level] ?? 'info') as 'info';
  logger[label](fields, msg);
}

/**
 * Starts an embedded engine (`kind`) on a worker thread of this process. The engine speaks its protocol on a
 * loopback port as it does on the main thread, so the drivers cannot tell; what changes is that its work (query
 * planning, index B-trees, BSON, vector search, file writes, compaction) no longer takes turns with the platform's
 * requests on the event loop. Rejects with the engine's own error when it cannot start (a locked directory, say).
 * If the thread dies afterwards the error is thrown on the main thread, as it would have been without the thread:
 * the process has lost a store and ends.
 */
export function startEngineThread(
  kind: EngineThreadData['kind'],
  options: EngineThreadOptions,
): Promise<EngineThread> {
  const data: EngineThreadData = { kind, dir: options.dir, level: options.logger.level };
  const worker = new Worker(workerFile(), { workerData: data });
  let closing: Promise<void> | undefined;
  let onClosed: ((error?: ThreadError) => void) | undefined;
  return new Promise<EngineThread>((resolve, reject) => {
    let started = false;
    const fail = (error: Error) => {
      if (!started) {
        void worker.terminate();
        reject(error);
        return;
      }
      if (closing) return;
      options.logger.fatal({ err: error, engine: kind }, 'embedded engine thread failed');
      (options.onDeath ?? rethrow)(error);
    };
    worker.on('message', (message: FromEngineThread) => {
      switch (message.type) {
        case 'log':
          relay(options.logger, message.line);
          return;
        case 'failed':
          fail(errorOf(message.error));
          return;
        case 'closed':
          onClosed?.(message.error);
          return;
        case 'started':
          started = true;
          resolve({ address: message.address, close });
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      onClosed?.();
      fail(new Error(`embedded ${kind} engine thread exited with code ${code}`));
    });
  });

  function close(): Promise<void> {
    closing ??= new Promise<void>((resolve, reject) => {
      onClosed = (error) => {
        onClosed = undefined;
        void worker.terminate().then(() => (error ? reject(errorOf(error)) : resolve()));
      };
      worker.postMessage({ type: 'close' });
    });
    return closing;
  }
}

/**
 * The embedded engines, each on its own worker thread (the default; `EMBEDDED_ENGINE_THREADS=0` runs them on the
 * event loop with `embeddedEngines`).
 */
export const threadedEngines = {
  mongo: (options: EngineThreadOptions) =>
    startEngineThread('mongo', options).then(({ address, close }) => ({ uri: address, close })),
  qdrant: (options: EngineThreadOptions) =>
    startEngineThread('qdrant', options).then(({ address, close }) => ({ url: address, close })),
};
