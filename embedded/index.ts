import { startMongoEngine } from './mongo';
import { startQdrantEngine } from './qdrant';
import { threadedEngines } from './threads/engineThreads';

/**
 * The in-process engines the platform starts when MONGODB_URI or QDRANT_URL is unset (the platform's
 * `EmbeddedEngines`): the composition hands them to `Platform.start`, so the platform never imports this folder.
 */
export const embeddedEngines = { mongo: startMongoEngine, qdrant: startQdrantEngine };

/**
 * The engines a server starts: each on its own worker thread when `threads` (EMBEDDED_ENGINE_THREADS, the default),
 * else on the event loop.
 */
export function embeddedEnginesFor(threads: boolean) {
  return threads ? threadedEngines : embeddedEngines;
}
