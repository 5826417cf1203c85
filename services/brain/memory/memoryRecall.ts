import {
  DEFAULT_RECALL_SCORING,
  MIN_MEANING_RELEVANCE,
  cosine,
  meaningRelevance,
  recallScore,
  relevanceOf,
  termCoverage,
} from '../../../ai/memory/recallScoring';
import { newerFirst } from '../../../ai/memory/newerFirst';
import { queryTerms } from '../../../ai/text/terms';
import type { Model } from 'mongoose';
import type { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import type { SubjectTextIndex } from '../../../ai/memory/subjectTextIndex';
import type { MemoryDocument, StoredMemoryTier } from '../../../models/Memory';
import type { Clock } from '../../../platform/clock';
import type { SubjectGraph } from '../graph/subjectGraph';
import { recordOf } from './memoryRecords';
import type { MemoryVectors } from './memoryVectors';
import {
  MEMORY_TIERS,
  type MemoryRecord,
  type RecallHit,
  type RecallInput,
  type RecallResult,
} from './memoryService';

/** Candidates taken from each side (fulltext, vectors) before scoring; more when tags filter them afterwards. */
const CANDIDATES = 50;
const TAGGED_CANDIDATES = 400;
/** On the neural path the nearest vectors are taken twice as deep (they cost no vector transfer). */
const NEAREST_FACTOR = 2;
/** Weight of a memory whose stated facts were all replaced by newer ones by `as_of` (a knowledge update). */
const OUTDATED_WEIGHT = 0.5;
/** Most facts of a subject considered for one recall. */
const MAX_FACTS = 2000;

/** What recall reads: the stores, the subject's fulltext index, the embedders and the clock (the keeper's). */
export interface RecallPorts {
  memories: Model<MemoryDocument>;
  text: SubjectTextIndex;
  /** The offline hash embedding (lexical relevance, newer-first). */
  local: { embedOne(text: string): number[] };
  vectors: Pick<MemoryVectors, 'models' | 'search'>;
  embeddings: Pick<EmbeddingChain, 'embedQuery'>;
  /** The memories' own space (the neural path), when configured. */
  encoder?: { model: string; embedQuery(text: string): Promise<number[]> };
  graph: Pick<SubjectGraph, 'facts' | 'validFacts' | 'namesOf'>;
  clock: Clock;
  working(subject: string, sessionId: string): Promise<MemoryRecord[]>;
}

/**
 * Recall across tiers: in the stored tiers, the union of the subject's best BM25 matches and nearest vectors,
 * re-read from MongoDB (so anything forgotten meanwhile is gone), and, for the semantic tier, the graph facts valid
 * at `as_of`. Each candidate is scored by `recallScore` (relevance × recency and importance); candidates below the
 * minimum relevance are dropped, so an unrelated query finds nothing. The working tier is returned whole.
 */
export async function recallMemories(keeper: RecallPorts, input: RecallInput): Promise<RecallResult> {
  const tiers = input.tiers?.length ? input.tiers : [...MEMORY_TIERS];
  const stored = tiers.filter((tier) => tier !== 'working');
  // The query's vector first: it is made on the encoder's thread (or by the chain) while this thread does everything
  // that does not need it (the query's terms and hash embedding, BM25, the lexical candidates' read and their facts,
  // the graph facts, the working memory). A recall then takes max(encoding, lexical work) + the vector search and
  // the nearest candidates' read, not their sum (stop 45).
  const encoding = stored.length > 0 ? queryEncoding(keeper, input) : undefined;
  const working = input.session_id ? keeper.working(input.subject, input.session_id) : undefined;
  const now = keeper.clock.now();
  const asOf = input.as_of ?? new Date(now);
  const terms = queryTerms(input.query);
  // Each text's hash embedding once per recall: newer-first compares up to 190 pairs of the best 20 hits.
  const localVectors = new Map<string, number[]>();
  const local = (text: string) => {
    let vector = localVectors.get(text);
    if (!vector) {
      vector = keeper.local.embedOne(text);
      localVectors.set(text, vector);
    }
    return vector;
  };
  const queryVector = local(input.query);
  const limit = input.limit ?? 10;
  const idf = (term: string) => keeper.text.idf(input.subject, term);
  const hits: RecallHit[] = [];
  const consider = (memory: MemoryRecord, relevance: number, minimum: number, weight = 1) => {
    if (relevance < minimum) return;
    const age = Math.max(0, (asOf.getTime() - memory.occurred_at.getTime()) / 1000);
    hits.push({
      memory,
      score: weight * recallScore(relevance, age, memory.importance),
      age_seconds: Math.round(age),
    });
  };
  /** The lexical relevance: the hash embedding's cosine and the query's term coverage. */
  const lexical = (text: string) =>
    relevanceOf(cosine(queryVector, local(text)), termCoverage(terms, text, idf));

  const withFacts = tiers.includes('semantic') && !input.tags?.length;
  const [candidates, facts, workingRecords] = await Promise.all([
    storedCandidates(keeper, input, stored, asOf, encoding),
    withFacts ? factRecords(keeper, input.subject, asOf) : [],
    working,
  ]);
  const { docs, meaning, outdated } = candidates;
  for (const doc of docs) {
    const weight = outdated.has(doc._id) ? OUTDATED_WEIGHT : 1;
    const similarity = meaning?.get(doc._id);
    if (similarity !== undefined) {
      const relevance = meaningRelevance(similarity, termCoverage(terms, doc.content, idf));
      consider(recordOf(doc), relevance, MIN_MEANING_RELEVANCE, weight);
    } else {
      // The chain path, or a memory not yet re-embedded into the encoder's space.
      consider(recordOf(doc), lexical(doc.content), DEFAULT_RECALL_SCORING.minRelevance, weight);
    }
  }
  // Facts have no vectors: they keep the lexical relevance on either path.
  for (const fact of facts) consider(fact, lexical(fact.content), DEFAULT_RECALL_SCORING.minRelevance);
  hits.sort((a, b) => b.score - a.score);
  // On the neural path (where it was measured), a newer statement about the same thing goes above the older one.
  if (candidates.meaning) newerFirst(hits, (a, b) => cosine(local(a), local(b)));
  const result: RecallResult = { hits: hits.slice(0, limit) };
  if (workingRecords) result.working = workingRecords;
  return result;
}

/** The query's vector in the memories' space: the encoder's (`neural`), the chain's, or none (no vectors stored). */
interface QueryEncoding {
  model: string;
  vector: number[];
  neural: boolean;
}

/**
 * Starts the query's embedding. The promise is awaited only after the lexical work; a no-op handler is attached now
 * so that a failure while that work is still running is not an unhandled rejection (it is thrown when awaited).
 */
function queryEncoding(keeper: RecallPorts, input: RecallInput): Promise<QueryEncoding | undefined> {
  const { encoder } = keeper;
  const models = keeper.vectors.models();
  let encoding: Promise<QueryEncoding | undefined>;
  if (encoder && models.includes(encoder.model))
    encoding = encoder
      .embedQuery(input.query)
      .then((vector) => ({ model: encoder.model, vector, neural: true }));
  else if (models.length > 0)
    encoding = keeper.embeddings
      .embedQuery(input.query, models)
      .then((query) => ({ model: query.model, vector: query.vector, neural: false }));
  else encoding = Promise.resolve(undefined);
  encoding.catch(() => undefined);
  return encoding;
}

/**
 * The stored candidates: the subject's best BM25 matches and nearest vectors, re-read from MongoDB, and which of them
 * only state facts that have ended by `asOf` (`outdated`). On the neural path (the memories' own encoder has a
 * space) also `meaning`: each candidate's cosine with the query in that space (for a fulltext-only candidate, the
 * bound the nearest ones give). The BM25 matches are read, and their facts looked up, while the query is embedded;
 * then the nearest ones not among them.
 */
async function storedCandidates(
  keeper: RecallPorts,
  input: RecallInput,
  tiers: string[],
  asOf: Date,
  encoding: Promise<QueryEncoding | undefined> | undefined,
): Promise<{ docs: MemoryDocument[]; meaning?: Map<string, number>; outdated: Set<string> }> {
  if (tiers.length === 0 || !encoding) return { docs: [], outdated: new Set() };
  const width = input.tags?.length ? TAGGED_CANDIDATES : CANDIDATES;
  const lexicalIds = keeper.text.search(input.subject, input.query, tiers, width).map((hit) => hit.id);
  // Equalities only, so the store matches them by set lookups; time and tags are checked here. With `occurred_at`'s
  // range in the filter the embedded engine compiled a general query per recall and tested its 150-id `$in` against
  // every candidate: the largest part of a recall's CPU at 20k memories (bench/memoryRecallSpeed.ts profile).
  const read = async (ids: string[]) =>
    ids.length === 0
      ? []
      : keeper.memories
          .find({ _id: { $in: ids }, subject: input.subject, tier: { $in: tiers as StoredMemoryTier[] } })
          .lean();
  // Both started before the query's vector is awaited; both awaited below (after it, a failure is thrown there).
  const lexicalDocs = read(lexicalIds);
  const lexicalOutdated = outdatedSources(keeper, input.subject, lexicalIds, asOf);
  lexicalDocs.catch(() => undefined);
  lexicalOutdated.catch(() => undefined);

  const query = await encoding;
  const { vectors } = keeper;
  let meaning: Map<string, number> | undefined;
  let bound: number | undefined;
  let nearIds: string[] = [];
  if (query?.neural) {
    const near = await vectors.search(
      query.model,
      query.vector,
      { subject: input.subject, tiers },
      width * NEAREST_FACTOR,
    );
    meaning = new Map(near.map((hit) => [hit.id, hit.score]));
    // A fulltext-only candidate is farther than every nearest one: it gets the farthest one's cosine, an upper
    // bound (reading its vector by id cost 55 ms for 50 candidates at 20k memories, mostly moving 512 floats each).
    // When fewer came back, every memory with a vector is among them: one without (not yet re-embedded) is
    // scored by its words.
    // A memory whose vector is not written yet (remembered moments ago, or not re-embedded) has no cosine: it is
    // scored by its words, never given the bound.
    if (near.length === width * NEAREST_FACTOR) bound = near[near.length - 1].score;
    nearIds = near.map((hit) => hit.id);
  } else if (query) {
    const near = await vectors.search(query.model, query.vector, { subject: input.subject, tiers }, width);
    nearIds = near.map((hit) => hit.id);
  }
  const seen = new Set(lexicalIds);
  const rest = [...new Set(nearIds)].filter((id) => !seen.has(id));
  const [lexicalFound, restFound, outdatedLexical, outdatedRest] = await Promise.all([
    lexicalDocs,
    read(rest),
    lexicalOutdated,
    outdatedSources(keeper, input.subject, rest, asOf),
  ]);
  const tags = input.tags ?? [];
  const docs = [...lexicalFound, ...restFound].filter(
    (doc) => doc.occurred_at <= asOf && tags.every((tag) => doc.tags.includes(tag)),
  );
  if (meaning && bound !== undefined)
    for (const doc of docs)
      if (!meaning.has(doc._id) && doc.vector_model === query?.model) meaning.set(doc._id, bound);
  return { docs, meaning, outdated: new Set([...outdatedLexical, ...outdatedRest]) };
}

/**
 * Memories whose facts had all ended by `asOf` ("Ann lives in Riverside" once she moved): still recalled, ranked
 * below what is true now, so a knowledge update answers with the newest fact.
 */
async function outdatedSources(
  keeper: RecallPorts,
  subject: string,
  ids: string[],
  asOf: Date,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const facts = await keeper.graph.facts
    .find(
      {
        scope: subject as `${string}:${string}`,
        source_memory_ids: { $in: ids },
        valid_from: { $lte: asOf },
      },
      { source_memory_ids: 1, valid_to: 1 },
    )
    .lean();
  const ended = new Set<string>();
  const current = new Set<string>();
  for (const fact of facts) {
    const target = fact.valid_to !== null && fact.valid_to <= asOf ? ended : current;
    for (const id of fact.source_memory_ids) target.add(id);
  }
  return new Set([...ended].filter((id) => !current.has(id)));
}

/** The subject's facts valid at `asOf`, as semantic-tier memory records ("Ann lives in Hilltown"). */
async function factRecords(keeper: RecallPorts, subject: string, asOf: Date): Promise<MemoryRecord[]> {
  const graph = keeper.graph;
  const facts = await graph.validFacts(subject as `${string}:${string}`, asOf, MAX_FACTS);
  if (facts.length === 0) return [];
  const names = await graph.namesOf(
    facts.flatMap((f) => (f.object_is_entity ? [f.subject, f.object] : [f.subject])),
  );
  return facts.map((fact) => ({
    id: fact._id,
    subject,
    tier: 'semantic',
    content: `${names.get(fact.subject)} ${fact.predicate.replace(/_/g, ' ')} ${fact.object_is_entity ? names.get(fact.object) : fact.object}`,
    session_id: null,
    kind: 'fact',
    tags: [],
    importance: 0.7,
    occurred_at: fact.valid_from,
    created_at: fact.recorded_at,
    last_seen: fact.recorded_at,
    seen_count: fact.source_memory_ids.length,
  }));
}
