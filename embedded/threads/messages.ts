/** What `engineThreads.ts` and its worker (`engineWorker.ts`) send each other. */

/** The engine a thread runs, where its data is and the log level it writes at. */
export interface EngineThreadData {
  kind: 'mongo' | 'qdrant';
  dir: string;
  level: string;
}

/** An error as it crosses the thread boundary. */
export interface ThreadError {
  message: string;
  stack?: string;
}

export type FromEngineThread =
  | { type: 'started'; address: string }
  | { type: 'failed'; error: ThreadError }
  | { type: 'log'; line: string }
  | { type: 'closed'; error?: ThreadError };

export type ToEngineThread = { type: 'close' };
