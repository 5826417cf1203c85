import type { z } from 'zod';
import type { Catalog } from '../catalog';
import type { CollectionConfig } from '../collectionConfig';
import { pointNotFound, unknownVectorName, unsupported, vectorDimensionError, wrongInput } from '../errors';
import type { Payload } from '../payload';
import { payloadFieldSchema, toIndexSpec } from '../payloadIndexSpec';
import { parsePointId, pointKey, type PointId } from '../pointId';
import type { pointsSelectorSchema, SetPayloadRequest, UpsertRequest } from '../schemas/pointsSchema';
import { prepareVector } from '../search/distance';
import type { StoredPoint } from '../storage/recordCodec';
import { parseWith } from './parseBody';

/** Qdrant's `UpdateResult`. */
export interface UpdateResult {
  operation_id: number;
  status: 'completed' | 'acknowledged';
}

/**
 * Every write is applied and logged before the reply, so `wait=true` and `wait=false` differ only in the
 * status word Qdrant uses for them.
 */
function updateResult(seq: number, wait: boolean): UpdateResult {
  return { operation_id: seq, status: wait ? 'completed' : 'acknowledged' };
}

/** `PUT /collections/{name}/points`: validates every point, then logs the batch as one operation. */
export function upsertPoints(
  catalog: Catalog,
  name: string,
  body: UpsertRequest,
  wait: boolean,
): UpdateResult {
  const { config } = catalog.get(name);
  if (body.update_filter != null || body.update_mode != null)
    throw unsupported('conditional upsert (update_filter)');
  const byId = new Map<string, StoredPoint>();
  for (const point of pointsOf(body)) {
    const id = parsePointId(point.id);
    // Qdrant applies a batch in order, so a repeated id ends with its last occurrence.
    byId.set(pointKey(id), {
      id,
      payload: point.payload ?? {},
      vectors: resolveVectors(config, point.vector),
    });
  }
  return updateResult(catalog.commit(name, { type: 'upsert', points: [...byId.values()] }), wait);
}

function pointsOf(body: UpsertRequest): { id: unknown; vector: unknown; payload?: Payload | null }[] {
  if ('points' in body) return body.points;
  const { ids, vectors, payloads } = body.batch;
  const columns: [string, unknown[]][] = Array.isArray(vectors) ? [['', vectors]] : Object.entries(vectors);
  for (const [vectorName, column] of columns) {
    if (column.length !== ids.length) {
      throw wrongInput(
        `batch has ${ids.length} ids but ${column.length} vectors${vectorName ? ` for \`${vectorName}\`` : ''}`,
      );
    }
  }
  if (payloads && payloads.length !== ids.length)
    throw wrongInput(`batch has ${ids.length} ids but ${payloads.length} payloads`);
  return ids.map((id, row) => ({
    id,
    vector: Array.isArray(vectors)
      ? vectors[row]
      : Object.fromEntries(columns.map(([n, column]) => [n, column[row]])),
    payload: payloads?.[row] ?? undefined,
  }));
}

/** Checks names and sizes against the collection and prepares each vector for storage. */
export function resolveVectors(config: CollectionConfig, raw: unknown): Record<string, Float32Array> {
  const entries: [string, unknown][] = Array.isArray(raw)
    ? [['', raw]]
    : Object.entries(raw as Record<string, unknown>);
  const vectors: Record<string, Float32Array> = {};
  for (const [vectorName, values] of entries) {
    vectors[vectorName] = resolveDenseVector(config, vectorName, values);
  }
  return vectors;
}

/** One dense vector for `vectorName`, checked and prepared (Cosine: normalised). */
export function resolveDenseVector(
  config: CollectionConfig,
  vectorName: string,
  values: unknown,
): Float32Array {
  const vectorConfig = config.vectors[vectorName];
  if (!vectorConfig) throw unknownVectorName(vectorName);
  if (!Array.isArray(values) || values.some((value) => typeof value !== 'number')) {
    throw unsupported('sparse, multi- and inference vectors');
  }
  if (values.length !== vectorConfig.size) throw vectorDimensionError(vectorConfig.size, values.length);
  return prepareVector(values as number[], vectorConfig.distance);
}

/** `POST /collections/{name}/points/delete`: by ids, or by a filter resolved to ids before logging. */
export function deletePoints(
  catalog: Catalog,
  name: string,
  selector: z.infer<typeof pointsSelectorSchema>,
  wait: boolean,
): UpdateResult {
  const collection = catalog.get(name);
  const ids =
    'points' in selector
      ? selector.points.map(parsePointId)
      : collection.matching(selector.filter).map((p) => p.id);
  return updateResult(catalog.commit(name, { type: 'delete', ids }), wait);
}

/** `POST` (merge) and `PUT` (overwrite) `/collections/{name}/points/payload`. */
export function writePayload(
  catalog: Catalog,
  name: string,
  body: SetPayloadRequest,
  mode: 'set_payload' | 'overwrite_payload',
  wait: boolean,
): UpdateResult {
  const collection = catalog.get(name);
  let ids: PointId[];
  if (body.points && body.filter) throw wrongInput('either `points` or `filter` can be given, not both');
  if (body.points) {
    ids = body.points.map(parsePointId);
    const missing = ids.find((id) => !collection.get(id));
    if (missing !== undefined) throw pointNotFound(missing);
  } else if (body.filter) {
    ids = collection.matching(body.filter).map((point) => point.id);
  } else {
    throw wrongInput('either `points` or `filter` must be given');
  }
  const op = { type: mode, ids, payload: body.payload, key: body.key ?? undefined };
  return updateResult(catalog.commit(name, op), wait);
}

/** `PUT /collections/{name}/index`. */
export function createPayloadIndex(
  catalog: Catalog,
  name: string,
  body: { field_name: string; field_schema?: unknown },
  wait: boolean,
): UpdateResult {
  catalog.get(name);
  if (body.field_schema === undefined || body.field_schema === null) {
    throw unsupported('payload index creation without `field_schema`');
  }
  const schema = toIndexSpec(parseWith(payloadFieldSchema, body.field_schema));
  return updateResult(catalog.commit(name, { type: 'create_index', field: body.field_name, schema }), wait);
}

/** `DELETE /collections/{name}/index/{field}`. */
export function deletePayloadIndex(
  catalog: Catalog,
  name: string,
  field: string,
  wait: boolean,
): UpdateResult {
  catalog.get(name);
  return updateResult(catalog.commit(name, { type: 'delete_index', field }), wait);
}
