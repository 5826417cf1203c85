import type { Document } from 'bson';

/**
 * The BSON bytes a document arrived in, for documents of an OP_MSG document sequence (the driver sends inserted
 * documents that way). An insert that stores the decoded object unchanged writes these bytes to its record instead
 * of serialising the document again (4.2% of a social sync run's CPU); a document the engine rewrote (an `_id`
 * added or moved first) is a new object and is serialised. Entries are taken once, and the rest go with their
 * documents: the map holds its documents weakly.
 */
const wireBytes = new WeakMap<Document, Uint8Array>();

/** Records the bytes `doc` was decoded from (a view into the request). */
export function rememberWireBytes(doc: Document, bytes: Uint8Array): void {
  wireBytes.set(doc, bytes);
}

/** The bytes `doc` was decoded from, once; undefined for a document built or changed by the engine. */
export function takeWireBytes(doc: Document): Uint8Array | undefined {
  const bytes = wireBytes.get(doc);
  if (bytes) wireBytes.delete(doc);
  return bytes;
}
