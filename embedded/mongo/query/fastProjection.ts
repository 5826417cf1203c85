import type { Document } from 'bson';

/**
 * A find projection of top-level fields only (`{a: 1, b: 1}`, `{a: 0}`, with or without `_id`), compiled to a
 * plain copy; anything else (dotted paths, `$slice`, `$elemMatch`, positional `$`, expressions, a mix of inclusion
 * and exclusion) answers undefined and goes to mingo. Mingo's projection was 8.6% of a sync batch's CPU profile
 * for `{subject: 1, tier: 1, ...}`-style reads. Inclusion keeps the document's field order, as mongod does, with
 * `_id` first unless excluded.
 */
export function compileFastProjection(projection: Document): ((doc: Document) => Document) | undefined {
  let include: boolean | undefined;
  let keepId = true;
  let idNamed = false;
  const fields = new Set<string>();
  for (const [key, value] of Object.entries(projection)) {
    if (typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    if (key.length === 0 || key.includes('.') || key.startsWith('$')) return undefined;
    const on = value !== 0 && value !== false;
    if (key === '_id') {
      keepId = on;
      idNamed = true;
      continue;
    }
    if (include !== undefined && include !== on) return undefined;
    include = on;
    fields.add(key);
  }
  if (include === undefined) include = keepId; // only `_id`: `{_id: 1}` keeps it alone, `{_id: 0}` drops it.
  if (include) {
    return (doc) => {
      const out: Document = {};
      if (keepId && '_id' in doc) out._id = doc._id;
      for (const key of Object.keys(doc)) if (fields.has(key)) out[key] = doc[key];
      return out;
    };
  }
  if (idNamed && keepId) return undefined; // `{_id: 1, a: 0}`: mingo refuses it, and so does the engine.
  if (!keepId) fields.add('_id');
  return (doc) => {
    const out: Document = {};
    for (const key of Object.keys(doc)) if (!fields.has(key)) out[key] = doc[key];
    return out;
  };
}
