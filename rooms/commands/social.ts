import { type SimContext, matchByName, playersIn, requireAlive, requirePlayer } from '../rules/context';
import { reject } from '../rules/errors';
import { hearAnswer } from '../rules/quests/riddles';

/** Talking to other players: `say` (room), `emote`, `whisper` (one player), `shout` (area) and `who`. */

/** `say`: speaks to everyone in the room. */
export function say(ctx: SimContext, userId: string, text: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  ctx.emit({
    type: 'chat.said',
    actor: { name: player.name, userId },
    text,
    to: { roomRef: player.roomRef },
  });
  hearAnswer(ctx, player, text);
}

/** `emote`: acts something out for the room ("Ann waves."). */
export function emote(ctx: SimContext, userId: string, text: string): void {
  const player = requirePlayer(ctx, userId);
  ctx.emit({
    type: 'chat.emote',
    actor: { name: player.name, userId },
    text,
    to: { roomRef: player.roomRef },
  });
}

/** `whisper`: speaks to one player in the same room; only the two of them read it. */
export function whisper(ctx: SimContext, userId: string, to: string, text: string): void {
  const player = requirePlayer(ctx, userId);
  const others = playersIn(ctx, player.roomRef).filter((p) => p.userId !== userId);
  const target = matchByName(others, to, (p) => [p.userId, p.name]);
  if (!target) throw reject('NO_SUCH_PLAYER', `There is nobody called "${to}" here to whisper to.`);
  const event = {
    type: 'chat.whisper' as const,
    actor: { name: player.name, userId },
    target: { name: target.name, userId: target.userId },
    text,
  };
  ctx.emit({ ...event, to: { userId } });
  ctx.emit({ ...event, to: { userId: target.userId } });
}

/** `shout`: everyone in the area hears it. */
export function shout(ctx: SimContext, userId: string, text: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  ctx.emit({ type: 'chat.shout', actor: { name: player.name, userId }, text, to: { areaId: ctx.area.id } });
}

/** `who`: the players in this area, with level and room. */
export function who(ctx: SimContext, userId: string): void {
  requirePlayer(ctx, userId);
  const players: Array<{ name: string; level: number; room: string }> = [];
  ctx.state.players.forEach((p) =>
    players.push({ name: p.name, level: p.level, room: ctx.world.rooms.get(p.roomRef)?.name ?? '' }),
  );
  players.sort((a, b) => a.name.localeCompare(b.name));
  ctx.emit({ type: 'who', area: ctx.area.name, players, to: { userId } });
}
