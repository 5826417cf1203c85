import type { Client } from '@colyseus/core';
import { StateView } from '@colyseus/schema';
import type { PlayerSession } from './eventDelivery';
import type { AreaState, CreatureState, FloorItemState } from './state/AreaState';
import { OWN_VIEW, type PlayerState } from './state/PlayerState';

type Visible = CreatureState | FloorItemState | PlayerState;

/** What a player's view shows besides their own character, and the room list it was last reconciled with. */
interface ViewEntry {
  view: StateView;
  seen: Set<Visible>;
  shown?: readonly Visible[];
}

const NOTHING: readonly Visible[] = [];

/**
 * Per-client state visibility (Colyseus `StateView`). `AreaState.players`, `.creatures` and `.items` are view-tagged
 * collections: a client receives the players, creatures and floor items of the room its character stands in, and
 * its own character with its private fields (`OWN_VIEW`: inventory, equipment, skills, xp, coins). Another player's
 * public fields (name, room, health, level, status, companion) reach only the players in the same room, so a move
 * or a fight patches the clients of one or two rooms instead of every client of the area.
 *
 * One `StateView` per player session is shared by all that player's sockets. `sync` reconciles views with the world
 * at each tick, before the patches (and after an action on a manually stepped room): whatever entered the player's
 * room is added, whatever left it (or the player left) is removed. A room whose occupants are the same as at the last
 * sync keeps its list, and a view already reconciled with that list is skipped, so a tick where nobody moved costs
 * one pass over the area's things; a view of a room that changed takes only the change, worked out once per room.
 */
export class RoomVisibility {
  private readonly views = new Map<PlayerSession, ViewEntry>();
  /** Each room's things at the last sync, in the state's order (the same array while they stay the same). */
  private rooms = new Map<string, readonly Visible[]>();

  /** `hidden(creatureId)`: true for a creature nobody may perceive yet (an ambusher lying in wait). */
  constructor(
    private readonly state: AreaState,
    private readonly hidden: (creatureId: string) => boolean = () => false,
  ) {}

  /** Gives `client` the player's view (created on their first socket) and shows them their own character. */
  watch(session: PlayerSession, client: Client): void {
    let entry = this.views.get(session);
    if (!entry) {
      entry = { view: new StateView(), seen: new Set() };
      entry.view.add(session.state, OWN_VIEW);
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

  /**
   * Reconciles the views of `sessions` with what stands in each player's room now. A view last reconciled with the
   * previous list of the same room takes only what entered and left it (worked out once per room, not per viewer);
   * a player who changed rooms, or missed a sync, is reconciled in full.
   */
  sync(sessions: Iterable<PlayerSession>): void {
    if (this.views.size === 0) return;
    const before = this.rooms;
    const rooms = this.index();
    const changes = new Map<readonly Visible[], RoomChange>();
    for (const session of sessions) {
      const entry = this.views.get(session);
      if (!entry) continue;
      const roomRef = session.state.roomRef;
      const here = rooms.get(roomRef) ?? NOTHING;
      if (entry.shown === here) continue;
      const was = before.get(roomRef);
      if (was !== undefined && entry.shown === was) {
        let change = changes.get(here);
        if (!change) changes.set(here, (change = changeOf(was, here)));
        apply(entry, change, session.state);
      } else reconcile(entry, here, session.state);
      entry.shown = here;
    }
  }

  /** Who and what stands in each room now; a room's list from the last sync is kept when nothing in it changed. */
  private index(): Map<string, readonly Visible[]> {
    const rooms = new Map<string, Visible[]>();
    const add = (thing: Visible) => {
      const here = rooms.get(thing.roomRef);
      if (here) here.push(thing);
      else rooms.set(thing.roomRef, [thing]);
    };
    this.state.players.forEach(add);
    this.state.creatures.forEach((creature, id) => {
      if (!this.hidden(id)) add(creature);
    });
    this.state.items.forEach(add);
    const kept = new Map<string, readonly Visible[]>();
    for (const [roomRef, here] of rooms) {
      const before = this.rooms.get(roomRef);
      kept.set(roomRef, before && sameThings(before, here) ? before : here);
    }
    this.rooms = kept;
    return kept;
  }
}

function sameThings(a: readonly Visible[], b: readonly Visible[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** What entered and what left a room between two syncs. */
interface RoomChange {
  entered: Visible[];
  left: Visible[];
}

function changeOf(was: readonly Visible[], here: readonly Visible[]): RoomChange {
  const before = new Set(was);
  const now = new Set(here);
  return {
    entered: here.filter((thing) => !before.has(thing)),
    left: was.filter((thing) => !now.has(thing)),
  };
}

/** Moves a view reconciled with a room's previous list to its list now. */
function apply(entry: ViewEntry, change: RoomChange, own: PlayerState): void {
  for (const thing of change.left) {
    if (!entry.seen.delete(thing)) continue;
    if (entry.view.has(thing)) entry.view.remove(thing);
  }
  for (const thing of change.entered) {
    if (thing === own || entry.seen.has(thing)) continue;
    entry.seen.add(thing);
    entry.view.add(thing);
  }
}

/** Makes the view show exactly `here` (less the player's own character, which it always shows). */
function reconcile(entry: ViewEntry, here: readonly Visible[], own: PlayerState): void {
  const wanted = new Set(here);
  for (const thing of entry.seen) {
    if (wanted.has(thing)) continue;
    entry.seen.delete(thing);
    // A thing deleted from its collection has already left every view; one still present is taken out.
    if (entry.view.has(thing)) entry.view.remove(thing);
  }
  for (const thing of here) {
    if (thing === own || entry.seen.has(thing)) continue;
    entry.seen.add(thing);
    entry.view.add(thing);
  }
}
