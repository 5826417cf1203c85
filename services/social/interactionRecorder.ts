import type { Logger } from 'pino';
import type { InteractionSource, SocialInteractionRecord } from '../../models/SocialInteraction';
import { socialError } from './errors';
import { identityKey, requestHash, type IdentityRef } from './identities';
import { flagForMemory, rememberInteractions, waitsForMemory } from './memories/interactionMemories';
import type { SocialPorts } from './ports';
import type { SocialStore } from './socialStore';
import { ignoreDuplicateKeys } from './storeQueries';
import { topicTerms } from './topics';
import { applyEdgeInteractions, type EdgeInteraction } from './trust/trustLedger';
import { KIND_RULES, TRUST, type InteractionKind } from './trust/trustRules';

/** Longest content kept with an interaction (characters); the rest is cut. */
export const STORED_CONTENT_CHARS = 500;

/** What the social commands share: the store, the optional ports and a logger. */
export interface SocialContext {
  store: SocialStore;
  ports: SocialPorts;
  logger: Logger;
}

/** One interaction to record. `id` is its idempotency id (scope and key, or batch and index). */
export interface InteractionInput {
  id: string;
  source: InteractionSource;
  actor: IdentityRef;
  target?: IdentityRef;
  kind: InteractionKind;
  content?: string;
  sentiment?: number;
  occurredAt: Date;
  /** Remembered as episodic memories of both people (when the memory service is there). */
  remember: boolean;
  /**
   * Posted by the actor themselves (a signed-in user), not observed by a bot: a claim that would raise the target's
   * trust in the actor ("I helped Bob") is recorded without effect, so nobody raises their own standing.
   */
  selfReported?: boolean;
}

/** The stored interaction and whether it answered a replay of an earlier request. */
export interface RecordedInteraction {
  interaction: SocialInteractionRecord;
  replayed: boolean;
}

/**
 * Records one interaction from the route, idempotently by its id: a replay with the same body answers the stored
 * interaction (`replayed`), with another body 409 IDEMPOTENCY_CONFLICT. One interrupted between its trust effect and
 * its record is recorded by the retry (the edge remembers it was applied, so trust moves once).
 */
export async function recordInteraction(
  context: SocialContext,
  input: InteractionInput,
): Promise<RecordedInteraction> {
  const hash = hashOf(input);
  const existing = await context.store.interactions.findById(input.id).lean<SocialInteractionRecord>();
  if (existing && existing.requestHash !== hash) {
    throw socialError(
      'IDEMPOTENCY_CONFLICT',
      'This idempotency_key was already used with a different interaction',
    );
  }
  if (existing) {
    // Stored but not yet remembered (a crash, or the memory service was down): remembered before the replay.
    if (waitsForMemory(existing)) await rememberInteractions(context, [existing]);
    return { interaction: withoutFlags(existing), replayed: true };
  }
  const persons = await context.store.persons(
    [identityKey(input.actor), ...(input.target ? [identityKey(input.target)] : [])],
    context.store.now(),
  );
  await recordInteractions(context, [input], persons);
  // A concurrent request with the same key may have stored first: answer what is stored.
  const stored = (await context.store.interactions
    .findById(input.id)
    .lean<SocialInteractionRecord>()) as SocialInteractionRecord;
  if (stored.requestHash !== hash) {
    throw socialError(
      'IDEMPOTENCY_CONFLICT',
      'This idempotency_key was already used with a different interaction',
    );
  }
  return { interaction: withoutFlags(stored), replayed: false };
}

/** The record without the outbox's bookkeeping field. */
function withoutFlags(record: SocialInteractionRecord): SocialInteractionRecord {
  if (!waitsForMemory(record)) return record;
  const { rememberPending: _pending, ...rest } = record as SocialInteractionRecord & {
    rememberPending?: boolean;
  };
  return rest;
}

/**
 * Records interactions in order (a sync batch, or one from the route): applies their trust effects edge by edge,
 * then stores them with their effects and topic terms in one write, and remembers them. `persons` maps every
 * identity key involved to its person. Safe to run again over the same inputs: an edge applies an interaction
 * once, and an interaction already stored is kept.
 */
export async function recordInteractions(
  context: SocialContext,
  inputs: InteractionInput[],
  persons: Map<string, string>,
): Promise<SocialInteractionRecord[]> {
  const { store } = context;
  const now = store.now();
  const records = inputs.map((input) => recordOf(input, persons, now));
  if (records.length === 0) return [];
  const edgeItems: EdgeInteraction[] = [];
  for (const [index, record] of records.entries()) {
    if (!record.targetPerson || record.targetPerson === record.actorPerson) continue;
    if (inputs[index].selfReported && raisesTrustInActor(inputs[index])) continue;
    const rule = KIND_RULES[record.kind as InteractionKind];
    const [observer, subject] =
      rule.observer === 'target'
        ? [record.targetPerson, record.actorPerson]
        : [record.actorPerson, record.targetPerson];
    edgeItems.push({
      id: record._id,
      observer,
      subject,
      kind: record.kind as InteractionKind,
      sentiment: inputs[index].sentiment,
    });
  }
  const effects = await applyEdgeInteractions(store, edgeItems);
  for (const record of records) record.effect = effects.get(record._id) ?? null;
  // Those to remember are stored flagged (memories/interactionMemories.ts), so a crash before they are remembered
  // leaves them for the retry and the recovery pass.
  const toRemember = context.ports.memory
    ? records.filter((record, index) => inputs[index].remember && record.targetPerson)
    : [];
  for (const record of toRemember) flagForMemory(record);
  await store.interactions.collection
    .insertMany(records as never, { ordered: false })
    .catch(ignoreDuplicateKeys);
  await rememberInteractions(context, toRemember);
  return records;
}

/** Whether an interaction would raise the target's trust in its actor (a positive delta the target observes). */
function raisesTrustInActor(input: InteractionInput): boolean {
  const rule = KIND_RULES[input.kind];
  return rule.observer === 'target' && rule.delta + TRUST.sentimentWeight * (input.sentiment ?? 0) > 0;
}

/** The stored form of an input (its effect is filled in once applied). */
function recordOf(input: InteractionInput, persons: Map<string, string>, now: Date): SocialInteractionRecord {
  const actor = identityKey(input.actor);
  const target = input.target ? identityKey(input.target) : null;
  return {
    _id: input.id,
    source: input.source,
    actor,
    actorPerson: persons.get(actor) ?? actor,
    target,
    targetPerson: target ? (persons.get(target) ?? target) : null,
    kind: input.kind,
    content: input.content ? input.content.slice(0, STORED_CONTENT_CHARS) : null,
    sentiment: input.sentiment ?? null,
    hostile: KIND_RULES[input.kind].hostile,
    occurredAt: input.occurredAt,
    recordedAt: now,
    requestHash: hashOf(input),
    terms: topicTerms(input.content),
    effect: null,
  };
}

/** The idempotency hash of an input: everything the caller sent. */
function hashOf(input: InteractionInput): string {
  return requestHash([
    input.source,
    input.actor,
    input.target ?? null,
    input.kind,
    input.content ?? null,
    input.sentiment ?? null,
    input.occurredAt.toISOString(),
  ]);
}
