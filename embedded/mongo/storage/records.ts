/**
 * The record format of a collection file: `[payload length u32][crc32 u32][type u8][payload]`, little-endian,
 * the checksum covering type and payload. A crash can leave a torn last record; `scanRecords` stops at the first
 * record whose length runs past the end or whose checksum does not match, and reports where the valid prefix ends.
 */
import { crc32 } from 'node:zlib';

/** What a record holds. */
export const RecordType = {
  /** BSON `{ db, name, options, indexes }`: the collection's catalog entry; the latest one wins. */
  Meta: 1,
  /** A whole BSON document, inserted or replacing the one with the same `_id`. */
  Put: 2,
  /** BSON `{ _id }` of a removed document. */
  Delete: 3,
} as const;

export type RecordTypeValue = (typeof RecordType)[keyof typeof RecordType];

const HEADER = 9;
/** Refuse absurd lengths from garbage bytes before allocating anything (MongoDB's own document cap is 16 MiB). */
const MAX_PAYLOAD = 64 * 1024 * 1024;

/** Frames `payload` as one record. */
export function encodeRecord(type: RecordTypeValue, payload: Uint8Array): Buffer {
  const record = Buffer.allocUnsafe(HEADER + payload.length);
  record.writeUInt32LE(payload.length, 0);
  record[8] = type;
  record.set(payload, HEADER);
  record.writeUInt32LE(crc32(record.subarray(8)), 4);
  return record;
}

/** One valid record found by `scanRecords`. */
export interface StoredRecord {
  type: RecordTypeValue;
  payload: Buffer;
  /** Bytes the record occupies in the file, header included. */
  size: number;
}

/** Result of scanning a file: its valid records and the length of the valid prefix. */
export interface RecordScan {
  records: StoredRecord[];
  validLength: number;
}

/** Parses every valid record from the start of `data`, stopping at the first torn or corrupt one. */
export function scanRecords(data: Buffer): RecordScan {
  const records: StoredRecord[] = [];
  let offset = 0;
  while (offset + HEADER <= data.length) {
    const length = data.readUInt32LE(offset);
    if (length > MAX_PAYLOAD || offset + HEADER + length > data.length) break;
    const checksum = data.readUInt32LE(offset + 4);
    const body = data.subarray(offset + 8, offset + HEADER + length);
    const type = data[offset + 8];
    if (crc32(body) !== checksum || type < RecordType.Meta || type > RecordType.Delete) break;
    records.push({ type: type as RecordTypeValue, payload: body.subarray(1), size: HEADER + length });
    offset += HEADER + length;
  }
  return { records, validLength: offset };
}
