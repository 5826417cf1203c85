import { PlayerStatus, type PlayerState } from '../state/PlayerState';
import { type Actor } from '../text/events';
import { type SimContext, requireAlive, requirePlayer } from './context';
import { BOND_POINTS, shareMoment } from './companions';
import { reject } from './errors';
import { enterRoom, leaveRoom } from './movement';
import { forfeit } from './purse';
import { abandonEscort } from './quests/escorts';

/**
 * Health over time: resting, regeneration, death and respawn. Regeneration runs every `tuning.regenEvery`
 * ticks: +1 health when idle, +3 when resting, doubled in a room tagged `rest`; creatures out of combat
 * heal +1. A dead player respawns at the area's respawn room on the next regeneration step.
 */

/** Fraction of soft currency lost on death. */
export const DEATH_PENALTY = 0.1;

/** `rest`: sit down to recover faster. Not while fighting. */
export function rest(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  if (player.status === PlayerStatus.fighting) throw reject('IN_COMBAT', 'You cannot rest while fighting.');
  if (player.status === PlayerStatus.resting) throw reject('ALREADY_RESTING', 'You are already resting.');
  player.status = PlayerStatus.resting;
  ctx.emit({ type: 'rest.started', actor: { name: player.name, userId }, to: { roomRef: player.roomRef } });
}

/** A player's health reaches zero: they drop out of every fight and lose a tenth of their coins. */
export function killPlayer(ctx: SimContext, player: PlayerState, killer: Actor): void {
  const lost = forfeit(ctx, player, Math.floor(player.soft * DEATH_PENALTY), 'death');
  player.health = 0;
  player.status = PlayerStatus.dead;
  player.target = '';
  ctx.state.creatures.forEach((creature) => {
    if (creature.target === player.userId) creature.target = '';
  });
  abandonEscort(ctx, player, 'died');
  ctx.publish({
    type: 'player.died',
    areaId: ctx.area.id,
    roomRef: player.roomRef,
    userId: player.userId,
    killer: killer.name,
  });
  ctx.emit({
    type: 'player.died',
    actor: { name: player.name, userId: player.userId },
    killer,
    lost,
    to: { roomRef: player.roomRef },
  });
}

/** Brings a dead player back at the area's respawn room with half health. */
export function respawn(ctx: SimContext, player: PlayerState): void {
  player.status = PlayerStatus.idle;
  player.health = Math.max(1, Math.floor(player.maxHealth / 2));
  if (player.roomRef !== ctx.area.respawnRoom) leaveRoom(ctx, player, '');
  ctx.emit({
    type: 'player.respawned',
    actor: { name: player.name, userId: player.userId },
    roomRef: ctx.area.respawnRoom,
    to: { userId: player.userId },
  });
  enterRoom(ctx, player, ctx.area.respawnRoom);
}

/** One regeneration step for the whole area. */
export function regenerate(ctx: SimContext): void {
  for (const player of [...ctx.state.players.values()]) {
    if (player.status === PlayerStatus.dead) {
      respawn(ctx, player);
      continue;
    }
    if (player.status === PlayerStatus.fighting || player.health >= player.maxHealth) continue;
    const restRoom = ctx.world.rooms.get(player.roomRef)?.tags.includes('rest') ? 2 : 1;
    const gain = (player.status === PlayerStatus.resting ? 3 : 1) * restRoom;
    player.health = Math.min(player.maxHealth, player.health + gain);
    if (player.status === PlayerStatus.resting && player.health >= player.maxHealth) {
      player.status = PlayerStatus.idle;
      shareMoment(ctx, player, 'rest', 'rested together', BOND_POINTS.rest);
      ctx.emit({
        type: 'rest.stopped',
        actor: { name: player.name, userId: player.userId },
        to: { userId: player.userId },
      });
    }
  }
  ctx.state.creatures.forEach((creature) => {
    if (!creature.target && creature.health > 0 && creature.health < creature.maxHealth) creature.health += 1;
  });
}
