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

  it('follows who enters and leaves a room across syncs, for viewers that stayed and for one that missed a sync', () => {
    const state = new AreaState({ areaId: 'village', name: 'Village', tick: 0 });
    const visibility = new RoomVisibility(state);
    new Encoder(state);
    const [ann, bob, cal] = ['ann', 'bob', 'cal'].map((id) => buildSession(id, 'village:square'));
    const clients = new Map<PlayerSession, Client>();
    for (const session of [ann, bob, cal]) {
      state.players.set(session.state.userId, session.state);
      const client = {} as Client;
      visibility.watch(session, client);
      clients.set(session, client);
    }
    const sees = (viewer: PlayerSession, thing: PlayerState) => clients.get(viewer)!.view!.has(thing);
    visibility.sync([ann, bob, cal]);
    expect(sees(ann, bob.state) && sees(ann, cal.state) && sees(bob, ann.state)).toBe(true);

    // Bob walks out: Ann and Cal stop seeing him, he stops seeing them.
    bob.state.roomRef = 'village:inn';
    visibility.sync([ann, bob, cal]);
    expect(sees(ann, bob.state)).toBe(false);
    expect(sees(cal, bob.state)).toBe(false);
    expect(sees(bob, ann.state)).toBe(false);

    // A newcomer arrives while only Ann is synced; Cal, who missed that sync, catches up in full at the next.
    const dee = buildSession('dee', 'village:square');
    state.players.set('dee', dee.state);
    clients.set(dee, {} as Client);
    visibility.watch(dee, clients.get(dee)!);
    visibility.sync([ann]);
    expect(sees(ann, dee.state)).toBe(true);
    bob.state.roomRef = 'village:square';
    visibility.sync([ann, bob, cal]);
    for (const [viewer, thing] of [
      [ann, bob],
      [cal, dee],
      [cal, bob],
      [bob, dee],
      [bob, cal],
    ] as const)
      expect(sees(viewer, thing.state)).toBe(true);

    // Someone who leaves the area altogether leaves every view.
    state.players.delete('cal');
    visibility.sync([ann, bob, dee]);
    expect(sees(ann, cal.state) || sees(bob, cal.state) || sees(dee, cal.state)).toBe(false);
  });
});
