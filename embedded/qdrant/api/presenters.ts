import type { Collection, PointRecord } from '../collection';
import { selectPayload, type Payload, type PayloadSelector } from '../payload';
import type { PointId } from '../pointId';

/** Which vectors to return: Qdrant's `with_vector` (`true`, `false` or a list of vector names). */
export type VectorSelector = boolean | string[];

/** Qdrant's `Record` (retrieve and scroll results). */
export interface RecordView {
  id: PointId;
  payload: Payload | null;
  vector: number[] | Record<string, number[]> | null;
}

/** Qdrant's `ScoredPoint` (search and query results). */
export interface ScoredPointView extends RecordView {
  version: number;
  score: number;
}

/** Presents a stored point the way Qdrant serialises a `Record`. */
export function presentRecord(
  collection: Collection,
  point: PointRecord,
  withPayload: PayloadSelector,
  withVector: VectorSelector,
): RecordView {
  return {
    id: point.id,
    payload: selectPayload(point.payload, withPayload) ?? null,
    vector: presentVectors(collection, point.label, withVector),
  };
}

/** Presents a search hit the way Qdrant serialises a `ScoredPoint`. */
export function presentScoredPoint(
  collection: Collection,
  point: PointRecord,
  score: number,
  withPayload: PayloadSelector,
  withVector: VectorSelector,
): ScoredPointView {
  const record = presentRecord(collection, point, withPayload, withVector);
  return {
    id: record.id,
    version: point.version,
    score: f32ToNumber(score),
    payload: record.payload,
    vector: record.vector,
  };
}

function presentVectors(collection: Collection, label: number, selector: VectorSelector) {
  if (selector === false) return null;
  if (!collection.config.named && selector === true) {
    const index = collection.vectors.get('');
    return index?.has(label) ? Array.from(index.vector(label), f32ToNumber) : null;
  }
  const vectors: Record<string, number[]> = {};
  for (const [name, index] of collection.vectors) {
    if (selector !== true && !selector.includes(name)) continue;
    if (index.has(label)) vectors[name] = Array.from(index.vector(label), f32ToNumber);
  }
  return vectors;
}

/**
 * The shortest decimal that reads back as the same float32, which is how Qdrant (Rust's f32 formatting)
 * prints stored vectors and scores: `0.1`, not `0.10000000149011612`.
 */
export function f32ToNumber(value: number): number {
  const single = Math.fround(value);
  for (let digits = 6; digits < 9; digits++) {
    const candidate = Number(single.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return Number(single.toPrecision(9));
}
