import type { SocialInteractionRecord } from '../../../models/SocialInteraction';
import { memorySubject } from '../identities';
import type { SocialContext } from '../interactionRecorder';

/**
 * The memories' outbox on the interaction itself: an interaction to remember is stored with `rememberPending: true`
 * (in the same insert as the interaction), remembered for both people, then the flag is removed. A process killed
 * in between, or a memory service that failed, leaves the flag: a retry of the interaction with its key remembers it
 * before answering the replay, and the recovery pass (`rememberPending`, at start and every minute) remembers every
 * interaction flagged more than `REMEMBER_AFTER_MS` ago. Remembering twice cannot make two memories: the memories
 * merge only into the same text (`duplicates: 'exact'`).
 */
export const REMEMBER_PENDING = 'rememberPending';

/** An interaction flagged this long ago is not one still being recorded: the recovery pass remembers it. */
export const REMEMBER_AFTER_MS = 30_000;

type FlaggedInteraction = SocialInteractionRecord & { [REMEMBER_PENDING]?: boolean };

/** Flags a record about to be stored as waiting for its memories. */
export function flagForMemory(record: SocialInteractionRecord): void {
  (record as FlaggedInteraction)[REMEMBER_PENDING] = true;
}

/** Whether a stored interaction still waits for its memories. */
export function waitsForMemory(record: SocialInteractionRecord): boolean {
  return (record as FlaggedInteraction)[REMEMBER_PENDING] === true;
}

/**
 * Remembers each interaction as an episodic memory of both people (subjects from `memorySubject`), then clears the
 * flag of those remembered. A failing memory service is logged and leaves the flag for the recovery pass; it never
 * fails the interaction already recorded. Answers how many were remembered.
 */
export async function rememberInteractions(
  context: SocialContext,
  records: SocialInteractionRecord[],
): Promise<number> {
  const memory = context.ports.memory;
  if (!memory || records.length === 0) return 0;
  const outcomes = await Promise.allSettled(
    records.map(async (record) => {
      const text = `${record.actor} → ${record.target}: ${record.kind}${record.content ? ` — ${record.content}` : ''}`;
      const importance = record.hostile || record.kind === 'gift' || record.kind === 'report' ? 0.7 : 0.4;
      await Promise.all(
        [
          [record.actorPerson, record.targetPerson as string],
          [record.targetPerson as string, record.actorPerson],
        ].map(([self, other]) =>
          memory.remember({
            subject: memorySubject(self),
            content: text,
            tier: 'episodic',
            kind: `social.${record.kind}`,
            tags: ['social', `person:${other}`],
            importance,
            occurred_at: record.occurredAt,
            // The text names both people: a near-duplicate naming someone else is another memory.
            duplicates: 'exact',
          }),
        ),
      );
      return record._id;
    }),
  );
  const remembered = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed.length > 0)
    context.logger.warn(
      { err: failed[0].reason, failed: failed.length },
      'social interactions not remembered yet; the recovery pass retries them',
    );
  if (remembered.length > 0)
    await context.store.interactions.collection.updateMany({ _id: { $in: remembered } } as never, {
      $unset: { [REMEMBER_PENDING]: '' },
    });
  for (const record of records)
    if (remembered.includes(record._id)) delete (record as FlaggedInteraction)[REMEMBER_PENDING];
  return remembered.length;
}

/** Remembers the interactions flagged more than `REMEMBER_AFTER_MS` ago, or all (`all`), oldest first, at most `limit`. */
export async function rememberPending(context: SocialContext, limit = 500, all = false): Promise<number> {
  if (!context.ports.memory) return 0;
  const before = new Date(context.store.clock.now() - (all ? 0 : REMEMBER_AFTER_MS));
  const pending = await context.store.interactions.collection
    .find<SocialInteractionRecord>({ [REMEMBER_PENDING]: true, recordedAt: { $lte: before } } as never)
    .sort({ recordedAt: 1 })
    .limit(limit)
    .toArray();
  return rememberInteractions(context, pending);
}

/** How many interactions wait for their memories (the area's admin status). */
export function countWaitingForMemory(context: Pick<SocialContext, 'store'>): Promise<number> {
  return context.store.interactions.collection.countDocuments({ [REMEMBER_PENDING]: true } as never);
}
