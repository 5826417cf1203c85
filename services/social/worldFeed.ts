import { randomUUID } from 'node:crypto';
import type { WorldEventBus } from '../../rooms/worldEvents';
import { identityKey, webIdentity } from './identities';
import { recordInteractions, type InteractionInput, type SocialContext } from './interactionRecorder';

/** Players of one kill that are paired at most (the first ones credited). */
export const MAX_PARTY = 8;

/**
 * The world as an observer of the social graph: players credited together for a creature's death fought side by
 * side, so each pair gets a `play_together` both ways (source `world`, remembered for both). A web user's character
 * is their `web` identity. Recording runs after the event (the bus calls subscribers synchronously); a failure is
 * logged. Answers `stop`, which unsubscribes and waits for what is being recorded.
 */
export function followWorld(context: SocialContext, events: WorldEventBus): () => Promise<void> {
  const inFlight = new Set<Promise<unknown>>();
  const unsubscribe = events.subscribe('creature.killed', (event) => {
    const party = [...new Set(event.userIds)].slice(0, MAX_PARTY);
    if (party.length < 2) return;
    const id = `world:${randomUUID()}`;
    const occurredAt = context.store.now();
    const inputs: InteractionInput[] = [];
    for (const actor of party) {
      for (const target of party) {
        if (actor === target) continue;
        inputs.push({
          id: `${id}#${inputs.length}`,
          source: 'world',
          actor: webIdentity(actor),
          target: webIdentity(target),
          kind: 'play_together',
          content: `fought ${event.creature} together in ${event.roomRef}`,
          occurredAt,
          remember: true,
        });
      }
    }
    const recording = context.store
      .persons(
        party.map((userId) => identityKey(webIdentity(userId))),
        occurredAt,
      )
      .then((persons) => recordInteractions(context, inputs, persons))
      .catch((error: unknown) =>
        context.logger.error({ err: error, event: event.type }, 'world event not recorded'),
      )
      .finally(() => inFlight.delete(recording));
    inFlight.add(recording);
  });
  return async () => {
    unsubscribe();
    await Promise.all(inFlight);
  };
}
