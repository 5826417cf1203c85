import { startMongoEngine } from './mongo';
import { startQdrantEngine } from './qdrant';

/**
 * The in-process engines the platform starts when MONGODB_URI or QDRANT_URL is unset (the platform's
 * `EmbeddedEngines`): the composition hands them to `Platform.start`, so the platform never imports this folder.
 */
export const embeddedEngines = { mongo: startMongoEngine, qdrant: startQdrantEngine };
