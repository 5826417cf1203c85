import type { Payload } from '../payload';
import type { PointId } from '../pointId';
import type { PayloadIndexSpec } from '../payloadIndexSpec';

/** A point as stored and logged; `label` is present in snapshots, which must keep graph labels stable. */
export interface StoredPoint {
  id: PointId;
  payload: Payload;
  vectors: Record<string, Float32Array>;
  label?: number;
}

/**
 * One mutation of a collection, as written to its log and replayed at start-up. Filters are resolved to ids
 * before logging, so replaying a record always has the same effect it had when it was acknowledged.
 */
export type CollectionOp =
  | { type: 'upsert'; points: StoredPoint[] }
  | { type: 'delete'; ids: PointId[] }
  | { type: 'set_payload'; ids: PointId[]; payload: Payload; key?: string }
  | { type: 'overwrite_payload'; ids: PointId[]; payload: Payload; key?: string }
  | { type: 'create_index'; field: string; schema: PayloadIndexSpec }
  | { type: 'delete_index'; field: string };

interface EncodedPoint {
  id: PointId;
  payload: Payload;
  label?: number;
  /** Vector names and lengths, in the order their float32 data follows the JSON part. */
  v: [string, number][];
}

/**
 * Encodes a JSON header plus optional points as `[u32 jsonLength][json][float32 data]`: vectors stay binary
 * (a third of the size of base64 and no float formatting), everything else stays readable JSON.
 */
export function encodeRecord(header: Record<string, unknown>, points?: StoredPoint[]): Buffer {
  const floats: Float32Array[] = [];
  const encodedPoints = points?.map((point): EncodedPoint => {
    const names = Object.keys(point.vectors);
    for (const name of names) floats.push(point.vectors[name]);
    return {
      id: point.id,
      payload: point.payload,
      label: point.label,
      v: names.map((n) => [n, point.vectors[n].length]),
    };
  });
  const json = Buffer.from(JSON.stringify(encodedPoints ? { ...header, points: encodedPoints } : header));
  const prefix = Buffer.allocUnsafe(4);
  prefix.writeUInt32LE(json.length, 0);
  const parts: Uint8Array[] = [prefix, json];
  for (const vector of floats)
    parts.push(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
  return Buffer.concat(parts);
}

/** Decodes `encodeRecord`'s output; `points` is present when the record carried points. */
export function decodeRecord(body: Buffer): { header: Record<string, unknown>; points?: StoredPoint[] } {
  const jsonLength = body.readUInt32LE(0);
  const parsed = JSON.parse(body.toString('utf8', 4, 4 + jsonLength)) as Record<string, unknown> & {
    points?: EncodedPoint[];
  };
  const { points: encoded, ...header } = parsed;
  if (!encoded) return { header };
  let offset = 4 + jsonLength;
  const points = encoded.map((point): StoredPoint => {
    const vectors: Record<string, Float32Array> = {};
    for (const [name, length] of point.v) {
      const vector = new Float32Array(length);
      body.copy(Buffer.from(vector.buffer), 0, offset, offset + length * 4);
      vectors[name] = vector;
      offset += length * 4;
    }
    return { id: point.id, payload: point.payload, label: point.label, vectors };
  });
  return { header, points };
}

/** Encodes a log record: the sequence number and the operation. */
export function encodeOp(seq: number, op: CollectionOp): Buffer {
  if (op.type === 'upsert') return encodeRecord({ seq, type: 'upsert' }, op.points);
  return encodeRecord({ seq, ...op });
}

/** Decodes a log record written by `encodeOp`. */
export function decodeOp(body: Buffer): { seq: number; op: CollectionOp } {
  const { header, points } = decodeRecord(body);
  const { seq, ...rest } = header as { seq: number } & Record<string, unknown>;
  const op = (points ? { type: 'upsert', points } : rest) as CollectionOp;
  return { seq, op };
}
