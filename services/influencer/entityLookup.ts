import type { Connection } from 'mongoose';
import { brainChunkModel } from '../../models/BrainChunk';
import { entityKey, graphEntityModel, type GraphEntityRecord } from '../../models/GraphEntity';
import { graphFactModel, type GraphFactRecord } from '../../models/GraphFact';
import { graphMentionModel } from '../../models/GraphMention';
import { entityNotFound } from './errors';

/** An entity of the shared knowledge graph with its current facts and where it is mentioned. */
export interface EntityView {
  entity: GraphEntityRecord;
  facts: Array<{ predicate: string; object: string; object_is_entity: boolean; valid_from: Date }>;
  mentions: Array<{
    chunk: string;
    document: string;
    source: string | null;
    title: string | null;
    count: number;
  }>;
}

/**
 * Looks an entity up in the knowledge graph's shared (`corpus`) scope by its normalised name or an alias: its
 * facts still true (as subject or object, objects named when they are entities) and its 20 strongest mentions with
 * the chunk's source and title. Private memory scopes are never read.
 */
export async function lookupEntity(connection: Connection, name: string): Promise<EntityView> {
  const entities = graphEntityModel(connection);
  const key = entityKey(name);
  const entity =
    (await entities.findById(`corpus|${key}`).lean<GraphEntityRecord>()) ??
    (await entities.findOne({ scope: 'corpus', aliases: name }).lean<GraphEntityRecord>());
  if (!entity) throw entityNotFound(name);
  const [facts, mentions] = await Promise.all([
    graphFactModel(connection)
      .find({ $or: [{ subject: entity._id }, { object: entity._id }], valid_to: null, expired_at: null })
      .limit(50)
      .lean<GraphFactRecord[]>(),
    graphMentionModel(connection).find({ entityId: entity._id }).sort({ count: -1 }).limit(20).lean(),
  ]);
  const related = [
    ...new Set(facts.flatMap((fact) => [fact.subject, fact.object_is_entity ? fact.object : ''])),
  ];
  const names = new Map(
    (await entities.find({ _id: { $in: related.filter(Boolean) } }, { name: 1 }).lean()).map((row) => [
      row._id,
      row.name,
    ]),
  );
  const chunks = new Map(
    (
      await brainChunkModel(connection)
        .find({ _id: { $in: mentions.map((mention) => mention.sourceId) } }, { source: 1, title: 1 })
        .lean()
    ).map((chunk) => [chunk._id, chunk]),
  );
  return {
    entity,
    facts: facts.map((fact) => ({
      predicate:
        fact.subject === entity._id
          ? fact.predicate
          : `${fact.predicate} (of ${names.get(fact.subject) ?? fact.subject})`,
      object:
        fact.subject === entity._id
          ? fact.object_is_entity
            ? (names.get(fact.object) ?? fact.object)
            : fact.object
          : entity.name,
      object_is_entity: fact.object_is_entity,
      valid_from: fact.valid_from,
    })),
    mentions: mentions.map((mention) => ({
      chunk: mention.sourceId,
      document: mention.documentId,
      source: chunks.get(mention.sourceId)?.source ?? null,
      title: chunks.get(mention.sourceId)?.title ?? null,
      count: mention.count,
    })),
  };
}
