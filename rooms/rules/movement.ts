import type { Direction } from '../content/schemas';
import { PlayerStatus, type PlayerState } from '../state/PlayerState';
import { type SimContext, playersIn, requireAlive, requirePlayer } from './context';
import { roomFeels } from './creatures/creatureAi';
import { creaturesByArrival, nthOf } from './creatures/creatureNames';
import { reject } from './errors';
import type { RoomView } from '../text/events';
import { mapAround } from './mapView';
import { newcomerHint } from './quests/tutorial';
import { abandonEscort, escortFollows } from './quests/escorts';

/** Where a move leads when it leaves this area: the room actor hands the player to that area's room. */
export interface Handoff {
  areaId: string;
  roomRef: string;
}

/** What a player in `roomRef` sees. */
export function viewRoom(ctx: SimContext, roomRef: string): RoomView {
  const room = ctx.world.rooms.get(roomRef);
  if (!room) throw reject('NO_SUCH_ROOM', `There is no room "${roomRef}".`);
  const items: RoomView['items'] = [];
  ctx.state.items.forEach((item) => {
    if (item.roomRef === roomRef) items.push({ id: item.id, name: item.name, qty: item.qty });
  });
  return {
    ref: room.ref,
    name: room.name,
    description: room.description,
    exits: Object.keys(room.exits),
    players: playersIn(ctx, roomRef).map((p) => p.name),
    creatures: creaturesByArrival(ctx, roomRef).map((c) => ({
      id: c.id,
      name: c.name,
      ...(nthOf(ctx, c) ? { nth: nthOf(ctx, c) } : {}),
      emotion: c.emotion,
      health: c.health,
      maxHealth: c.maxHealth,
    })),
    items,
    npcs: [...ctx.world.npcs.values()].filter((npc) => npc.room === roomRef).map((npc) => npc.name),
  };
}

/** `look`: describes the player's room to them. */
export function look(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  const map = mapAround(ctx, userId);
  const hint = newcomerHint(ctx, userId);
  ctx.emit({
    type: 'room.look',
    room: viewRoom(ctx, player.roomRef),
    map,
    ...(hint ? { hint } : {}),
    to: { userId },
  });
}

/**
 * Puts a player into a room of this area: arrival is announced, the room described to them, creatures there
 * notice (PLAYER_ENTERS) and "visit" objectives progress. Used by moving, fleeing, joining and respawning.
 */
export function enterRoom(ctx: SimContext, player: PlayerState, roomRef: string): void {
  const from = player.roomRef;
  player.roomRef = roomRef;
  ctx.journal(player.userId).visited.add(roomRef);
  ctx.emit({
    type: 'player.arrived',
    actor: { name: player.name, userId: player.userId },
    to: { roomRef, except: player.userId },
  });
  const map = mapAround(ctx, player.userId);
  const hint = newcomerHint(ctx, player.userId);
  ctx.emit({
    type: 'room.look',
    room: viewRoom(ctx, roomRef),
    map,
    ...(hint ? { hint } : {}),
    to: { userId: player.userId },
  });
  roomFeels(ctx, roomRef, 'PLAYER_ENTERS', player.userId);
  ctx.ruleEvents.publish({ type: 'visited', userId: player.userId, roomRef });
  escortFollows(ctx, player, from);
}

/** Takes a player out of their room (announcing which way they went). */
export function leaveRoom(ctx: SimContext, player: PlayerState, direction: string): void {
  ctx.emit({
    type: 'player.left',
    actor: { name: player.name, userId: player.userId },
    direction,
    to: { roomRef: player.roomRef, except: player.userId },
  });
}

/**
 * `move`: walks through an exit. Rejected while dead or fighting (flee instead) or when there is no such
 * exit. Returns a `Handoff` when the exit leads into another area; the room actor completes that move.
 */
export function move(ctx: SimContext, userId: string, direction: Direction): Handoff | undefined {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  if (player.status === PlayerStatus.fighting) throw reject('IN_COMBAT', 'You are fighting! Flee first.');
  const target = ctx.world.rooms.get(player.roomRef)?.exits[direction];
  if (!target) throw reject('NO_EXIT', `You cannot go ${direction} from here.`);
  if (player.status === PlayerStatus.resting) {
    player.status = PlayerStatus.idle;
    ctx.emit({ type: 'rest.stopped', actor: { name: player.name, userId }, to: { userId } });
  }
  leaveRoom(ctx, player, direction);
  const targetArea = ctx.world.rooms.get(target)!.areaId;
  if (targetArea !== ctx.area.id) {
    abandonEscort(ctx, player, 'left');
    return { areaId: targetArea, roomRef: target };
  }
  enterRoom(ctx, player, target);
  return undefined;
}
