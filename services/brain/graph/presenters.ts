import type { GraphEntityRecord } from '../../../models/GraphEntity';
import type { GraphFactRecord } from '../../../models/GraphFact';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** An entity as the routes answer it. */
export function presentEntity(entity: GraphEntityRecord) {
  return {
    name: entity.name,
    type: entity.type,
    aliases: entity.aliases,
    mention_count: entity.mention_count,
    first_seen: entity.first_seen.toISOString(),
    last_seen: entity.last_seen.toISOString(),
  };
}

/** A bi-temporal fact with entity names in place of ids. */
export function presentFact(fact: GraphFactRecord) {
  return {
    id: fact._id,
    subject: fact.subject,
    predicate: fact.predicate,
    object: fact.object,
    object_is_entity: fact.object_is_entity,
    valid_from: fact.valid_from.toISOString(),
    valid_to: iso(fact.valid_to),
    recorded_at: fact.recorded_at.toISOString(),
    expired_at: iso(fact.expired_at),
    source_memory_ids: fact.source_memory_ids,
  };
}
