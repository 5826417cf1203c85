import { z } from 'zod';
import { INDEX_NAMES } from '../../models/corpusRecords';
import { STRATEGY_NAMES, type Hit } from './hit';

const strategy = z.enum(STRATEGY_NAMES);

/**
 * zod schema of a search hit: the cache validates entries read back with it, and the HTTP layer can use it
 * (or `.omit({ text: true })`) as the response contract. Ids are strings.
 */
export const hitSchema = z.object({
  chunkId: z.string(),
  documentId: z.string(),
  index: z.enum(INDEX_NAMES),
  source: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()),
  symbols: z.array(z.string()),
  startLine: z.number().int(),
  endLine: z.number().int(),
  text: z.string(),
  snippet: z.string(),
  score: z.number(),
  strategy,
  foundBy: z.array(strategy),
  ingestedBy: z.string().nullable().optional(),
  ingestedAt: z.string().nullable().optional(),
  level: z.number().int().optional(),
  entities: z.array(z.string()).optional(),
}) satisfies z.ZodType<Hit>;

/** Copies a hit (arrays included) with every identifier coerced to a string, whatever id types came in. */
export function serialisableHit(hit: Hit): Hit {
  return {
    ...hit,
    chunkId: String(hit.chunkId),
    documentId: String(hit.documentId),
    headingPath: [...hit.headingPath],
    symbols: [...hit.symbols],
    foundBy: [...hit.foundBy],
  };
}
