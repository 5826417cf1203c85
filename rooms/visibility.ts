import type { Client } from '@colyseus/core';
import { StateView } from '@colyseus/schema';
import type { PlayerSession } from './eventDelivery';
import type { AreaState, CreatureState, FloorItemState } from './state/AreaState';

type Visible = CreatureState | FloorItemState;

/**
 * Per-client state visibility (Colyseus `StateView`). `AreaState.creatures` and `AreaState.items` are
 * view-tagged collections: a client only receives the creatures and floor items of the room its character
 * stands in, and the private fields of its own `PlayerState` (inventory, equipment, skills, xp, coins).
 * Players' public fields (name, room, health, level, status, companion) stay shared by the whole area.
 *
 * One `StateView` per player session is shared by all that player's sockets. `sync` reconciles every view
 * with the world after each action and tick: whatever entered the player's room is added, whatever left it
 * (or the player left) is removed.
 */
export class RoomVisibility {
  private readonly views = new Map<PlayerSession, { view: StateView; seen: Map<string, Visible> }>();

  /** `hidden(creatureId)`: true for a creature nobody may perceive yet (an ambusher lying in wait). */
  constructor(
    private readonly state: AreaState,
    private readonly hidden: (creatureId: string) => boolean = () => false,
  ) {}

  /** Gives `client` the player's view (created on their first socket) and shows them their own character. */
  watch(session: PlayerSession, client: Client): void {
    let entry = this.views.get(session);
    if (!entry) {
      entry = { view: new StateView(), seen: new Map() };
      entry.view.add(session.state);
      this.views.set(session, entry);
    }
    client.view = entry.view;
  }

  /** Drops the player's view (they left the area). */
  forget(session: PlayerSession): void {
    const entry = this.views.get(session);
    if (!entry) return;
    this.views.delete(session);
    entry.view.dispose();
  }

  /** Reconciles the views of `sessions` with what stands in each player's room now. */
  sync(sessions: Iterable<PlayerSession>): void {
    if (this.views.size === 0) return;
    const byRoom = new Map<string, Map<string, Visible>>();
    const index = (key: string, thing: Visible) => {
      let here = byRoom.get(thing.roomRef);
      if (!here) byRoom.set(thing.roomRef, (here = new Map()));
      here.set(key, thing);
    };
    this.state.creatures.forEach((creature, id) => {
      if (!this.hidden(id)) index(`c${id}`, creature);
    });
    this.state.items.forEach((item, id) => index(`i${id}`, item));
    for (const session of sessions) {
      const entry = this.views.get(session);
      if (entry) reconcile(entry, byRoom.get(session.state.roomRef));
    }
  }
}

function reconcile(
  entry: { view: StateView; seen: Map<string, Visible> },
  wanted: Map<string, Visible> | undefined,
): void {
  for (const [key, thing] of entry.seen) {
    if (wanted?.get(key) === thing) continue;
    entry.seen.delete(key);
    // A thing deleted from its collection has already left every view; one still present is taken out.
    if (entry.view.has(thing)) entry.view.remove(thing);
  }
  if (!wanted) return;
  for (const [key, thing] of wanted) {
    if (entry.seen.has(key)) continue;
    entry.seen.set(key, thing);
    entry.view.add(thing);
  }
}
