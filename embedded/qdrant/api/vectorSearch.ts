import type { z } from 'zod';
import type { Collection } from '../collection';
import { unknownVectorName, unsupported, validationError, wrongInput } from '../errors';
import type { PayloadSelector } from '../payload';
import type { Filter } from '../schemas/filterSchema';
import type { querySchema, SearchParams, searchSchema } from '../schemas/pointsSchema';
import { passesThreshold } from '../search/distance';
import { resolveDenseVector } from './pointWrites';
import { presentScoredPoint, type ScoredPointView, type VectorSelector } from './presenters';

/** A nearest-neighbour request, after the search / query wire forms are unified. */
interface NearestRequest {
  vectorName: string;
  vector: unknown;
  filter?: Filter | null;
  params?: SearchParams | null;
  limit: number;
  offset: number;
  scoreThreshold?: number;
  withPayload: PayloadSelector;
  withVector: VectorSelector;
}

/** `POST /collections/{name}/points/search` (Qdrant's legacy search API). */
export function searchPoints(collection: Collection, body: z.infer<typeof searchSchema>): ScoredPointView[] {
  return nearest(collection, {
    vectorName: Array.isArray(body.vector) ? '' : body.vector.name,
    vector: Array.isArray(body.vector) ? body.vector : body.vector.vector,
    ...commonOptions(body),
  });
}

/** `POST /collections/{name}/points/query` for dense nearest-neighbour queries. */
export function queryPoints(
  collection: Collection,
  body: z.infer<typeof querySchema>,
): { points: ScoredPointView[] } {
  if (body.prefetch !== undefined && body.prefetch !== null) throw unsupported('query prefetch');
  if (body.lookup_from !== undefined && body.lookup_from !== null) throw unsupported('query lookup_from');
  return {
    points: nearest(collection, {
      vectorName: body.using ?? '',
      vector: denseQuery(body.query),
      ...commonOptions(body),
    }),
  };
}

function denseQuery(query: unknown): number[] {
  if (Array.isArray(query) && query.every((value) => typeof value === 'number')) return query;
  if (typeof query === 'object' && query !== null && 'nearest' in query) {
    const { nearest: vector, ...rest } = query as { nearest: unknown; mmr?: unknown };
    if (rest.mmr !== undefined && rest.mmr !== null) throw unsupported('MMR queries');
    if (Array.isArray(vector) && vector.every((value) => typeof value === 'number')) return vector;
  }
  if (query === undefined || query === null) throw unsupported('query without a `query` vector');
  if (typeof query === 'number' || typeof query === 'string') throw unsupported('querying by point id');
  const kind =
    typeof query === 'object' && !Array.isArray(query) ? Object.keys(query).join(', ') : 'non-dense';
  throw unsupported(`\`${kind}\` query`);
}

function commonOptions(body: z.infer<typeof querySchema> | z.infer<typeof searchSchema>) {
  const limit = body.limit ?? 10;
  const offset = body.offset ?? 0;
  const issues: string[] = [];
  if (limit < 1) issues.push(`limit: value ${limit} invalid, must be 1 or larger`);
  if (offset < 0) issues.push(`offset: value ${offset} invalid, must be 0 or larger`);
  if (issues.length > 0) throw validationError('JSON body', issues);
  if (body.params?.quantization != null || body.params?.acorn != null)
    throw unsupported('quantization / ACORN search params');
  return {
    filter: body.filter,
    params: body.params,
    limit,
    offset,
    scoreThreshold: body.score_threshold ?? undefined,
    withPayload: body.with_payload ?? false,
    withVector: body.with_vector ?? false,
  };
}

/**
 * The shared search path: the filter becomes a candidate filter with a selectivity estimate, so the vector
 * index can choose between an exact scan of the few matching points and a filtered HNSW walk.
 */
function nearest(collection: Collection, request: NearestRequest): ScoredPointView[] {
  const index = collection.vectors.get(request.vectorName);
  if (!index) throw unknownVectorName(request.vectorName);
  if (request.offset > 0 && request.limit + request.offset > 1_000_000)
    throw wrongInput('limit + offset is too large');
  const query = resolveDenseVector(collection.config, request.vectorName, request.vector);
  const hits = index.search(query, request.limit + request.offset, {
    filter: request.filter
      ? collection.candidateFilter(request.filter, (label) => index.has(label))
      : undefined,
    exact: request.params?.exact ?? false,
    hnswEf: request.params?.hnsw_ef ?? undefined,
    indexedOnly: request.params?.indexed_only ?? false,
  });
  const results: ScoredPointView[] = [];
  for (const hit of hits.slice(request.offset)) {
    if (!passesThreshold(index.distance, hit.score, request.scoreThreshold)) break;
    const point = collection.byLabelOf(hit.label);
    if (point)
      results.push(presentScoredPoint(collection, point, hit.score, request.withPayload, request.withVector));
  }
  return results;
}
