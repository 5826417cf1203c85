import { entityKey, type GraphEntityRecord, type GraphScope } from '../../../models/GraphEntity';
import type { GraphFactRecord } from '../../../models/GraphFact';
import type { SubjectGraph } from './subjectGraph';

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Entities of a scope, most mentioned first; with `q`, those whose name or an alias contains it. */
export async function searchEntities(
  graph: SubjectGraph,
  scope: GraphScope,
  q: string | undefined,
  limit: number,
) {
  const filter: Record<string, unknown> = { scope };
  if (q) {
    const pattern = { $regex: escapeRegex(entityKey(q)), $options: 'i' };
    filter.$or = [{ key: pattern }, { aliases: pattern }];
  }
  return graph.entities.find(filter).sort({ mention_count: -1, _id: 1 }).limit(limit).lean();
}

/** An entity with its relations and the facts valid at `asOf` (plus its whole fact history), or null. */
export async function entityAsOf(graph: SubjectGraph, scope: GraphScope, name: string, asOf: Date) {
  const key = entityKey(name);
  const entity: GraphEntityRecord | null =
    (await graph.entities.findOne({ _id: `${scope}|${key}` }).lean()) ??
    (await graph.entities.findOne({ scope, aliases: name }).lean());
  if (!entity) return null;
  const [relations, history] = await Promise.all([
    graph.relations
      .find({ scope, $or: [{ from: entity._id }, { to: entity._id }], first_seen: { $lte: asOf } })
      .sort({ weight: -1 })
      .limit(100)
      .lean(),
    graph.facts
      .find({ scope, $or: [{ subject: entity._id }, { object: entity._id }] })
      .sort({ valid_from: 1 })
      .limit(500)
      .lean(),
  ]);
  const names = await graph.namesOf([
    ...relations.map((r) => (r.from === entity._id ? r.to : r.from)),
    ...history.flatMap((f) => (f.object_is_entity ? [f.subject, f.object] : [f.subject])),
  ]);
  const named = (fact: GraphFactRecord) => ({
    ...fact,
    subject: names.get(fact.subject) ?? fact.subject,
    object: fact.object_is_entity ? (names.get(fact.object) ?? fact.object) : fact.object,
  });
  const validAt = (fact: GraphFactRecord) =>
    fact.valid_from <= asOf && (fact.valid_to === null || fact.valid_to > asOf);
  return {
    entity,
    relations: relations.map((r) => ({
      kind: r.kind,
      entity: names.get(r.from === entity._id ? r.to : r.from)!,
      weight: r.weight,
    })),
    facts: history.filter(validAt).map(named),
    history: history.map(named),
  };
}
