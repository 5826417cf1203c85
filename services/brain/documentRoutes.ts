import type { z } from 'zod';
import { NotFoundError } from '../../platform/errors';
import type { ApiRoutes } from '../../platform/http/routes';
import type { BrainCore } from './brainCore';
import { DocumentParamsSchema, DocumentStatusSchema, type ENRICHED_INDEXES } from './enrichmentSchemas';

type IndexName = (typeof ENRICHED_INDEXES)[number];

/** One document's stored version and which indexes hold it yet (searchable first, enriched after). */
export async function documentStatus(
  core: Pick<BrainCore, 'store' | 'journal' | 'graph' | 'raptor'>,
  documentId: string,
): Promise<z.infer<typeof DocumentStatusSchema> | undefined> {
  const document = await core.store.findDocument(documentId);
  if (!document) return undefined;
  const owed = await core.journal.find(documentId);
  const listed = new Set(document.chunkIds);
  const pending: IndexName[] = [
    ...(owed?.chunkIds.some((id) => listed.has(id)) ? (['vectors'] as const) : []),
    ...(core.graph.isPending(documentId) ? (['graph'] as const) : []),
    ...(core.raptor.isPending(documentId) ? (['raptor'] as const) : []),
  ];
  const all: IndexName[] = ['fulltext', 'vectors', 'graph', 'raptor'];
  return {
    document_id: document.id,
    index: document.index,
    source: document.source,
    title: document.title,
    chunks: document.chunkIds.length,
    content_hash: document.contentHash,
    embedding_model: document.embeddingModel,
    ingested_at: document.ingestedAt?.toISOString() ?? null,
    ingested_by: document.ingestedBy ?? null,
    indexed: all.filter((name) => !pending.includes(name)),
    pending,
  };
}

/** GET /brain/documents/{id}: a stored document's version and its background indexing (public, like stats). */
export function registerDocumentRoutes(
  routes: ApiRoutes,
  core: Pick<BrainCore, 'store' | 'journal' | 'graph' | 'raptor'>,
): void {
  routes.add({
    method: 'get',
    path: '/brain/documents/:id',
    summary: 'A stored document and the indexes that hold it yet',
    description:
      'An acknowledged ingest is in the fulltext index at once; `pending` lists the indexes (vectors, graph, ' +
      'raptor) still catching up with this version in the background.',
    tags: ['brain'],
    request: { params: DocumentParamsSchema },
    responses: {
      200: { description: 'The document', schema: DocumentStatusSchema },
      404: { description: 'No such document' },
    },
    handler: async ({ params }) => {
      const status = await documentStatus(core, params.id);
      if (!status) throw new NotFoundError(`No document ${params.id}`, 'BRAIN_DOCUMENT_NOT_FOUND');
      return { status: 200, body: status };
    },
  });
}
