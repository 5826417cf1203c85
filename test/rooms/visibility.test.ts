import type { Client } from '@colyseus/core';
import { Encoder } from '@colyseus/schema';
import type { PlayerSession } from '../../rooms/eventDelivery';
import { AreaState, CreatureState } from '../../rooms/state/AreaState';
import { PlayerState } from '../../rooms/state/PlayerState';
import { RoomVisibility } from '../../rooms/visibility';

/** A player session standing in `roomRef`, for the view reconciliation alone. */
function buildSession(userId: string, roomRef: string): PlayerSession {
  return { state: new PlayerState({ userId, name: userId, roomRef }) } as unknown as PlayerSession;
}

describe('RoomVisibility', () => {
  it('keeps a hidden creature out of every view until it shows itself', () => {
    const state = new AreaState({ areaId: 'caves', name: 'The Old Mine', tick: 0 });
    const slime = new CreatureState({
      id: 'c1',
      ref: 'caves:slime',
      name: 'cave slime',
      roomRef: 'caves:slime_pit',
      health: 14,
      maxHealth: 14,
      emotion: 'CALM',
      target: '',
    });
    state.creatures.set('c1', slime);
    const hidden = new Set(['c1']);
    const visibility = new RoomVisibility(state, (id) => hidden.has(id));
    const session = buildSession('ann', 'caves:slime_pit');
    state.players.set('ann', session.state);
    new Encoder(state);
    const client = {} as Client;
    visibility.watch(session, client);
    visibility.sync([session]);
    expect(client.view!.has(slime)).toBe(false);
    hidden.delete('c1');
    visibility.sync([session]);
    expect(client.view!.has(slime)).toBe(true);
    hidden.add('c1');
    visibility.sync([session]);
    expect(client.view!.has(slime)).toBe(false);
  });
});
