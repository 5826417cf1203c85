import type { Logger } from 'pino';
import { DEFAULT_FOLDER_SCAN, listSourceFiles, readSourceDocument } from '../../ai/corpus/repositoryFiles';
import type { Ingestor } from '../../ai/corpus/ingestor';
import type { MongoChunkStore } from '../../ai/corpus/mongoChunkStore';
import { AppError } from '../../platform/errors';

/** What the first-start seed ingests, relative to the repository root. */
const SEED_SOURCES = [
  // Every README and doc (root, docs/SPEC.md, area READMEs), never tests, dependencies or the third-party
  // documentation the retrieval bench evaluates on (bench/corpora/).
  {
    folder: '.',
    scan: {
      ...DEFAULT_FOLDER_SCAN,
      extensions: ['.md'],
      skipFolders: [...DEFAULT_FOLDER_SCAN.skipFolders, 'test', 'corpora'],
    },
  },
  // The world's lore and help text: areas, rooms, creatures, NPCs, quests.
  { folder: 'world', scan: { ...DEFAULT_FOLDER_SCAN, extensions: ['.yml', '.yaml', '.md', '.txt'] } },
];

/** The outcome of a seed: how many files went in, and those the validation skipped. */
export interface SeedReport {
  ingested: number;
  skipped: string[];
}

/**
 * Seeds an empty knowledge base with the platform's own documentation as the `docs` index, so search and the
 * world's help have something to say on a first start (BRAIN_SEED_ON_START, default on). Does nothing when any
 * document is already there: a seeded or used corpus is never touched again. Returns undefined when it did
 * nothing.
 */
export async function seedEmptyBrain(
  deps: { ingestor: Pick<Ingestor, 'ingest'>; store: Pick<MongoChunkStore, 'counts'> },
  root: string,
  logger: Logger,
): Promise<SeedReport | undefined> {
  const counts = await deps.store.counts();
  if (Object.values(counts.documents).some((count) => count > 0)) return undefined;
  const report: SeedReport = { ingested: 0, skipped: [] };
  for (const { folder, scan } of SEED_SOURCES) {
    for (const source of await listSourceFiles(root, folder, scan)) {
      const document = { ...(await readSourceDocument(root, source)), index: 'docs' as const };
      try {
        await deps.ingestor.ingest([document], source, 'seed');
        report.ingested += 1;
      } catch (error) {
        // A file the validation refuses (empty, too large) is left out; a store failure stops the seed.
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        report.skipped.push(source);
      }
    }
  }
  logger.info({ ingested: report.ingested, skipped: report.skipped }, 'brain seeded with the platform docs');
  return report;
}
