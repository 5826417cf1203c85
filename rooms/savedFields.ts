import type { CharacterField, CharacterRecord } from './persistence';

/**
 * A character as its last durable save left it, field by field: each top-level field of the record (`updatedAt`
 * aside) as the JSON of its value. A field missing here is one whose saved value is not known (see `forget`), so
 * the next save writes it.
 */
export type SavedFields = Map<CharacterField, string>;

/** A record's fields, each as the JSON of its value, and which of them differ from `saved`. */
export interface RecordChanges {
  fields: SavedFields;
  /** The fields that differ from `saved`, in the record's order; undefined when nothing is known to be saved. */
  changed: CharacterField[] | undefined;
}

/**
 * Compares a record with the last durable save, field by field (one `JSON.stringify` per field: about what the
 * whole record's key cost before, and the unchanged fields are never written).
 */
export function recordChanges(record: CharacterRecord, saved: SavedFields | undefined): RecordChanges {
  const fields: SavedFields = new Map();
  const changed: CharacterField[] = [];
  for (const [key, value] of Object.entries(record) as Array<[keyof CharacterRecord, unknown]>) {
    if (key === 'updatedAt' || value === undefined) continue;
    const json = JSON.stringify(value);
    fields.set(key, json);
    if (saved?.get(key) !== json) changed.push(key);
  }
  return { fields, changed: saved ? changed : undefined };
}
