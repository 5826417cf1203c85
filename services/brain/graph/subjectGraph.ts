import type { Connection, Model } from 'mongoose';
import { extractEntityNames, extractFacts, type ExtractedFact } from '../../../ai/memory/factPatterns';
import { timeOrderedId } from '../../../ai/memory/timeOrderedId';
import type { Clock } from '../../../platform/clock';
import {
  entityId,
  entityKey,
  graphEntityModel,
  type GraphEntityRecord,
  type GraphScope,
} from '../../../models/GraphEntity';
import { graphFactModel, type GraphFactRecord } from '../../../models/GraphFact';
import { graphMentionModel, type GraphMentionRecord } from '../../../models/GraphMention';
import { graphRelationModel, type GraphRelationRecord } from '../../../models/GraphRelation';
import { UpsertCoalescer, upsertOperation, type MergeableUpsert } from './upsertCoalescer';

/** At most this many entities of one memory get co-occurrence edges (pairs grow quadratically). */
const MAX_LINKED_ENTITIES = 6;

/** The entity type a predicate's object has (its subject is then a person). */
const OBJECT_TYPES: Record<string, string> = { lives_in: 'place', works_at: 'organization' };

/** What erasing a scope removed. */
export interface ScopeErasure {
  entities: number;
  mentions: number;
  relations: number;
  facts: number;
}

/**
 * The semantic tier: a subject's entities, mentions, co-occurrence relations and bi-temporal facts in the shared
 * knowledge graph (scope = the memory subject, beside retrieval's `corpus` scope). Remembering text records the
 * entities it mentions and the facts it states; a fact contradicting a single-valued one closes the older one
 * (`valid_to`, `expired_at`) instead of deleting it.
 */
export class SubjectGraph {
  readonly entities: Model<GraphEntityRecord>;
  readonly mentions: Model<GraphMentionRecord>;
  readonly relations: Model<GraphRelationRecord>;
  readonly facts: Model<GraphFactRecord>;
  /** Remembering's entity, mention and co-occurrence upserts, merged and written together across memories. */
  private readonly entityWrites: UpsertCoalescer;
  private readonly mentionWrites: UpsertCoalescer;
  private readonly relationWrites: UpsertCoalescer;

  constructor(
    mongo: Connection,
    private readonly clock: Clock,
  ) {
    this.entities = graphEntityModel(mongo);
    this.mentions = graphMentionModel(mongo);
    this.relations = graphRelationModel(mongo);
    this.facts = graphFactModel(mongo);
    this.entityWrites = new UpsertCoalescer(this.entities.collection);
    this.mentionWrites = new UpsertCoalescer(this.mentions.collection);
    this.relationWrites = new UpsertCoalescer(this.relations.collection);
  }

  /** Creates the collections' indexes. */
  async init(): Promise<void> {
    await Promise.all([this.entities.init(), this.mentions.init(), this.relations.init(), this.facts.init()]);
  }

  /** Records the entities a memory mentions, their co-occurrences and the facts it states (valid from `at`). */
  async recordMemory(scope: GraphScope, memoryId: string, sessionId: string | null, text: string, at: Date) {
    const names = extractEntityNames(text);
    const now = new Date(this.clock.now());
    if (names.length > 0) {
      const mentions = names.map((name) => ({
        _id: `${entityId(scope, name)}@${memoryId}`,
        setOnInsert: {
          scope,
          entityId: entityId(scope, name),
          sourceId: memoryId,
          documentId: sessionId ?? memoryId,
        },
        inc: { count: 1 },
      }));
      await Promise.all([
        this.entityWrites.upsert(names.map((name) => this.entityMention(scope, name, at))),
        this.mentionWrites.upsert(mentions),
        this.relationWrites.upsert(this.coOccurrences(scope, names.slice(0, MAX_LINKED_ENTITIES), now)),
      ]);
    }
    for (const fact of extractFacts(text)) await this.assertFact(scope, fact, at, memoryId);
  }

  /**
   * Records a fact valid from `validFrom`. The same open fact gains the memory as a source. For a single-valued
   * predicate, open facts with another object are closed at `validFrom`; if one of them began later (the new
   * statement is about an earlier time), the new fact is the one closed, at that later start.
   */
  async assertFact(
    scope: GraphScope,
    fact: ExtractedFact,
    validFrom: Date,
    memoryId: string,
  ): Promise<string> {
    const subject = entityId(scope, fact.subject);
    const objectIsEntity = /^[A-Z]/.test(fact.object);
    const object = objectIsEntity ? entityId(scope, fact.object) : entityKey(fact.object);
    const now = new Date(this.clock.now());
    if (objectIsEntity)
      await this.entities.collection.bulkWrite([
        upsertOperation(this.entityMention(scope, fact.object, validFrom, 0)),
      ]);
    await this.typeEntities(scope, fact, objectIsEntity);
    const open = await this.facts.find({ scope, subject, predicate: fact.predicate, valid_to: null }).lean();
    const same = open.find((existing) => existing.object === object);
    if (same) {
      await this.facts.updateOne({ _id: same._id }, { $addToSet: { source_memory_ids: memoryId } });
      return same._id;
    }
    let validTo = null as Date | null;
    if (fact.singleValued) {
      for (const existing of open) {
        if (existing.valid_from > validFrom) {
          validTo = validTo && validTo < existing.valid_from ? validTo : existing.valid_from;
          continue;
        }
        await this.facts.updateOne(
          { _id: existing._id, valid_to: null },
          { $set: { valid_to: validFrom, expired_at: now } },
        );
      }
    }
    const id = timeOrderedId(now.getTime());
    await this.facts.create({
      _id: id,
      scope,
      subject,
      predicate: fact.predicate,
      object,
      object_is_entity: objectIsEntity,
      valid_from: validFrom,
      valid_to: validTo,
      recorded_at: now,
      expired_at: null,
      source_memory_ids: [memoryId],
    });
    return id;
  }

  /** Types still-untyped (`term`) entities from the role they play in a fact: who lives somewhere is a person. */
  private async typeEntities(scope: GraphScope, fact: ExtractedFact, objectIsEntity: boolean): Promise<void> {
    const objectType = OBJECT_TYPES[fact.predicate];
    if (!objectType) return;
    const typed = [{ id: entityId(scope, fact.subject), type: fact.subject === 'me' ? 'self' : 'person' }];
    if (objectIsEntity) typed.push({ id: entityId(scope, fact.object), type: objectType });
    await this.entities.bulkWrite(
      typed.map(({ id, type }) => ({
        updateOne: { filter: { _id: id, type: 'term' }, update: { $set: { type } } },
      })),
      { ordered: false },
    );
  }

  /** Facts of a scope valid at `at` (valid_from ≤ at < valid_to), newest first, at most `limit`. */
  validFacts(scope: GraphScope, at: Date, limit: number) {
    return this.facts
      .find({ scope, valid_from: { $lte: at }, $or: [{ valid_to: null }, { valid_to: { $gt: at } }] })
      .sort({ valid_from: -1 })
      .limit(limit)
      .lean();
  }

  /** Display names of entity ids (an id without an entity is shown by its key). */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    const found = await this.entities.find({ _id: { $in: [...new Set(ids)] } }, { name: 1 }).lean();
    const names = new Map(found.map((entity) => [entity._id, entity.name]));
    for (const id of ids) if (!names.has(id)) names.set(id, id.slice(id.indexOf('|') + 1));
    return names;
  }

  /** Forgets memories: their mentions (and mention counts), and facts no remaining memory supports. */
  async forgetMemories(scope: GraphScope, memoryIds: readonly string[]): Promise<void> {
    if (memoryIds.length === 0) return;
    const mentions = await this.mentions.find({ scope, sourceId: { $in: [...memoryIds] } }).lean();
    if (mentions.length > 0) {
      await this.entities.bulkWrite(
        mentions.map((m) => ({
          updateOne: { filter: { _id: m.entityId }, update: { $inc: { mention_count: -m.count } } },
        })),
        { ordered: false },
      );
      await this.mentions.deleteMany({ _id: { $in: mentions.map((m) => m._id) } });
    }
    await this.facts.updateMany(
      { scope, source_memory_ids: { $in: [...memoryIds] } },
      { $pull: { source_memory_ids: { $in: [...memoryIds] } } },
    );
    await this.facts.deleteMany({ scope, source_memory_ids: { $size: 0 } });
  }

  /** Erases everything the graph holds for a scope. */
  async eraseScope(scope: GraphScope): Promise<ScopeErasure> {
    const [entities, mentions, relations, facts] = await Promise.all([
      this.entities.deleteMany({ scope }),
      this.mentions.deleteMany({ scope }),
      this.relations.deleteMany({ scope }),
      this.facts.deleteMany({ scope }),
    ]);
    return {
      entities: entities.deletedCount,
      mentions: mentions.deletedCount,
      relations: relations.deletedCount,
      facts: facts.deletedCount,
    };
  }

  /** An entity's upsert for `mentions` mentions at `at` (created as an untyped term when new). */
  private entityMention(scope: GraphScope, name: string, at: Date, mentions = 1): MergeableUpsert {
    return {
      _id: entityId(scope, name),
      setOnInsert: {
        scope,
        key: entityKey(name),
        name,
        type: 'term',
        aliases: [],
        first_seen: at,
        communities: [],
      },
      inc: { mention_count: mentions },
      max: { last_seen: at },
    };
  }

  /** Co-occurrence edges between every pair of the names (one weight each). */
  private coOccurrences(scope: GraphScope, names: string[], now: Date): MergeableUpsert[] {
    const ids = [...new Set(names.map((name) => entityId(scope, name)))].sort();
    const edges: MergeableUpsert[] = [];
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        edges.push({
          _id: `${ids[i]}>co_occurs>${ids[j]}`,
          setOnInsert: { scope, from: ids[i], to: ids[j], kind: 'co_occurs', first_seen: now },
          inc: { weight: 1 },
          max: { last_seen: now },
        });
      }
    }
    return edges;
  }
}
