import { z } from 'zod';
import { INDEX_NAMES } from '../../models/corpusRecords';

/** The indexes an ingest brings up to date: fulltext at once, the others in the background. */
export const ENRICHED_INDEXES = ['fulltext', 'vectors', 'graph', 'raptor'] as const;
const indexList = z.array(z.enum(ENRICHED_INDEXES));

/** `indexed` and `pending` of an ingest result and of GET /brain/documents/{id}. */
export const enrichmentFields = {
  indexed: indexList.meta({ description: 'Indexes that hold this version already (fulltext at once)' }),
  pending: indexList.meta({
    description: 'Indexes catching up with this version in the background (vectors, graph, raptor)',
  }),
};

/** Why a search answered from a partial index (vectors, graph or trees still catching up with recent ingests). */
export const partialReasons = z.array(z.string()).optional().meta({
  description: 'Present when a strategy answered from an index still catching up with recent ingests',
});

const backgroundIndex = z.object({
  unit: z.enum(['chunks', 'documents']).meta({ description: 'What pending and done count' }),
  state: z.string().meta({ description: 'idle, running or failing (vectors); the graph or tree state' }),
  pending: z.number().int(),
  pending_documents: z.number().int(),
  done: z.number().int().meta({ description: 'Done since this process started' }),
  rate: z.number().meta({ description: 'Per second over the last minute of work' }),
  oldest_pending_at: z.iso.datetime().nullable(),
});

export const EnrichmentStatsSchema = z
  .object({ vectors: backgroundIndex, graph: backgroundIndex, raptor: backgroundIndex })
  .nullable()
  .meta({
    description:
      'Searchable first, enriched after: the background indexes catching up with acknowledged ingests ' +
      '(vectors are on record in the store and resume after a restart)',
  });

export const DocumentParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{64}$/, 'must be a 64-hex-digit document id'),
});

export const DocumentStatusSchema = z
  .object({
    document_id: z.string(),
    index: z.enum(INDEX_NAMES),
    source: z.string(),
    title: z.string(),
    chunks: z.number().int(),
    content_hash: z.string(),
    embedding_model: z.string().nullable(),
    ingested_at: z.iso.datetime().nullable(),
    ingested_by: z.string().nullable(),
    ...enrichmentFields,
  })
  .meta({ id: 'BrainDocumentStatus' });
