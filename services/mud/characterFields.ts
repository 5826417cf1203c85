import type { CharacterField, CharacterRecord } from '../../rooms/persistence';

/** The fields of `record` named by `fields`, with its `updatedAt`: the `$set` of a save of those fields alone. */
export function pickFields(
  record: CharacterRecord,
  fields: readonly CharacterField[],
): Partial<CharacterRecord> & Pick<CharacterRecord, 'updatedAt'> {
  const picked: Partial<Record<keyof CharacterRecord, unknown>> = {};
  for (const field of fields) picked[field] = record[field];
  return { ...(picked as Partial<CharacterRecord>), updatedAt: record.updatedAt };
}
