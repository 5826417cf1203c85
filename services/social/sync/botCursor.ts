import type { SocialBotCursorRecord } from '../../../models/SocialBotCursor';
import { socialError } from '../errors';
import type { SocialStore } from '../socialStore';

/** Missing ranges kept per bot (the oldest are forgotten past this). */
export const MAX_MISSING_RANGES = 100;

/** What a bot has delivered: the highest sequence number and the ranges below it not received. */
export interface CursorState {
  highest: number;
  missing: [number, number][];
}

/**
 * The cursor after receiving `seq`: a number past `highest + 1` opens a gap (returned), a number inside a missing
 * range fills it (splitting the range), anything else changes nothing. Pure.
 */
export function advanceCursor(
  state: CursorState,
  seq: number,
): { state: CursorState; gap: [number, number] | null } {
  if (seq > state.highest) {
    const gap: [number, number] | null = seq > state.highest + 1 ? [state.highest + 1, seq - 1] : null;
    const missing = gap ? [...state.missing, gap].slice(-MAX_MISSING_RANGES) : state.missing;
    return { state: { highest: seq, missing }, gap };
  }
  const missing: [number, number][] = [];
  for (const [from, to] of state.missing) {
    if (seq < from || seq > to) missing.push([from, to]);
    else {
      if (from < seq) missing.push([from, seq - 1]);
      if (seq < to) missing.push([seq + 1, to]);
    }
  }
  return { state: { highest: state.highest, missing }, gap: null };
}

/** Records `seq` on the bot's cursor (conditional on the version read, retried) and answers the gap it opened. */
export async function receiveSeq(store: SocialStore, bot: string, seq: number) {
  for (let attempt = 0; attempt < 8; attempt++) {
    const cursor = await store.cursors.findById(bot).lean<SocialBotCursorRecord>();
    const version = cursor?.version ?? 0;
    const next = advanceCursor({ highest: cursor?.highest ?? 0, missing: cursor?.missing ?? [] }, seq);
    const result = await store.cursors.collection
      .updateOne(
        { _id: bot, version } as never,
        { $set: { ...next.state, version: version + 1, updatedAt: store.now() } },
        { upsert: version === 0 },
      )
      .catch((error: { code?: number }) => (error.code === 11000 ? null : Promise.reject(error)));
    if (result && result.matchedCount + result.upsertedCount > 0) return next;
  }
  throw socialError('SOCIAL_BUSY', `The cursor of ${bot} keeps changing; retry the batch`);
}
