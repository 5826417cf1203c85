import { z } from 'zod';
import type { Hit } from '../retrieval/hit';
import { hitSchema } from '../retrieval/hitSchema';

/**
 * The L2 form of a cached result: JSON `{ v: 1, generation, hits }` with string ids. `generation` is the
 * cache generation the result was computed under (an entry of another generation is stale); a hit's `text`
 * is left out when the reader can restore it from the chunk's id.
 */
const entrySchema = z.object({
  v: z.literal(1),
  generation: z.number().int(),
  hits: z.array(hitSchema.extend({ text: z.string().optional() })),
});

/** Encodes hits (already with string ids) computed under `generation`; `withTexts` false leaves texts out. */
export function encodeEntry(generation: number, hits: readonly Hit[], withTexts: boolean): string {
  const stored = withTexts ? hits : hits.map(({ text: _text, ...rest }) => rest);
  return JSON.stringify({ v: 1, generation, hits: stored });
}

/**
 * The hits of a stored entry if it is valid and of `generation`, texts restored through `chunkText` where
 * they were left out; undefined for a corrupt or stale entry, or one naming a chunk `chunkText` cannot find.
 */
export function decodeEntry(
  stored: string,
  generation: number,
  chunkText?: (chunkId: string) => string | undefined,
): Hit[] | undefined {
  let entry;
  try {
    entry = entrySchema.safeParse(JSON.parse(stored));
  } catch {
    return undefined;
  }
  if (!entry.success || entry.data.generation !== generation) return undefined;
  const hits: Hit[] = [];
  for (const hit of entry.data.hits) {
    const text = hit.text ?? chunkText?.(hit.chunkId);
    if (text === undefined) return undefined;
    hits.push({ ...hit, text });
  }
  return hits;
}
