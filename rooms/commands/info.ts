import type { SimContext } from '../rules/context';
import { matchByName, normalise, playersIn, requirePlayer } from '../rules/context';
import { npcsIn } from '../rules/disposition';
import { reject } from '../rules/errors';
import { COMMAND_HELP } from './commandHelp';
import { attackOf, defenseOf } from '../rules/progression';
import { creatureActor, findCreature } from '../rules/creatures/creatureNames';

/** Looking closer: `help`, `examine`/`look <thing>` and `consider <creature>`. */

/** `help` (topics and commands), `help <topic>` or `help <command>`. */
export function help(ctx: SimContext, userId: string, topic?: string): void {
  requirePlayer(ctx, userId);
  const to = { userId };
  if (!topic) {
    ctx.emit({
      type: 'help',
      title: 'Help',
      text: [
        `Commands: ${COMMAND_HELP.map((c) => c.command).join(', ')}.`,
        `Topics: ${[...ctx.world.help.keys()].join(', ')}.`,
        'Type "help <command>" or "help <topic>" to read more.',
      ].join('\n'),
      to,
    });
    return;
  }
  const q = normalise(topic);
  const command = COMMAND_HELP.find((c) => c.command === q || c.aliases.includes(q));
  if (command) {
    const aliases = command.aliases.length ? `\nAlso: ${command.aliases.join(', ')}.` : '';
    ctx.emit({ type: 'help', title: command.usage, text: `${command.summary}${aliases}`, to });
    return;
  }
  const entry = ctx.world.help.get(q) ?? [...ctx.world.help.values()].find((t) => normalise(t.title) === q);
  if (!entry) throw reject('NO_SUCH_TOPIC', `There is no help on "${topic}". Type "help" for the list.`);
  ctx.emit({ type: 'help', title: entry.title, text: entry.text, to });
}

/**
 * `examine <thing>`: a closer look at a creature, NPC, player, floor item, carried item or one of the
 * room's details.
 */
export function examine(ctx: SimContext, userId: string, query: string): void {
  const player = requirePlayer(ctx, userId);
  const room = ctx.world.rooms.get(player.roomRef)!;
  const to = { userId };
  const creature = findCreature(ctx, player.roomRef, query);
  if (creature) {
    const template = ctx.world.creatures.get(creature.ref)!;
    const mood = creature.emotion.toLowerCase();
    const text = `${template.description} It looks ${mood} (${creature.health}/${creature.maxHealth} health).`;
    return ctx.emit({ type: 'examined', kind: 'creature', name: creature.name, text, to });
  }
  const npc = matchByName(npcsIn(ctx, player.roomRef), query, (n) => [n.ref, n.id, n.name]);
  if (npc) return ctx.emit({ type: 'examined', kind: 'npc', name: npc.name, text: npc.description, to });
  const other = matchByName(playersIn(ctx, player.roomRef), query, (p) => [p.userId, p.name]);
  if (other) {
    const text = `${other.name}, level ${other.level}, ${other.health}/${other.maxHealth} health${other.companion.ref ? `, with ${other.companion.name} at their side` : ''}.`;
    return ctx.emit({ type: 'examined', kind: 'player', name: other.name, text, to });
  }
  const floor = [...ctx.state.items.values()].filter((i) => i.roomRef === player.roomRef).map((i) => i.ref);
  const carried = [...player.inventory.keys()];
  const items = [...new Set([...floor, ...carried])].map((ref) => ctx.world.items.get(ref)!).filter(Boolean);
  const item = matchByName(items, query, (i) => [i.ref, i.id, i.name]);
  if (item) {
    const stats = [
      item.attack ? `attack +${item.attack}` : '',
      item.defense ? `defense +${item.defense}` : '',
      item.heal ? `heals ${item.heal}` : '',
      item.slot ? `worn as ${item.slot}` : '',
    ].filter(Boolean);
    const text = `${item.description}${stats.length ? ` (${stats.join(', ')})` : ''}`;
    return ctx.emit({ type: 'examined', kind: 'item', name: item.name, text, to });
  }
  const q = normalise(query);
  const detail = Object.entries(room.details).find(([key]) => key === q || key.includes(q));
  if (detail) return ctx.emit({ type: 'examined', kind: 'detail', name: detail[0], text: detail[1], to });
  throw reject('NO_SUCH_THING', `You see no "${query}" here.`);
}

/** How a fight with a creature of `creatureLevel` would go for a player of `playerLevel`. */
export function difficulty(playerLevel: number, creatureLevel: number): string {
  const gap = creatureLevel - playerLevel;
  if (gap <= -3) return 'trivial';
  if (gap <= -1) return 'easy';
  if (gap === 0) return 'an even match';
  if (gap <= 2) return 'dangerous';
  return 'deadly';
}

/** `consider <creature>`: sizes a creature up against the player. */
export function consider(ctx: SimContext, userId: string, query: string): void {
  const player = requirePlayer(ctx, userId);
  const creature = findCreature(ctx, player.roomRef, query);
  if (!creature) throw reject('NO_SUCH_CREATURE', `There is no "${query}" here to size up.`);
  const template = ctx.world.creatures.get(creature.ref)!;
  ctx.emit({
    type: 'considered',
    creature: creatureActor(ctx, creature),
    level: template.level,
    verdict: difficulty(player.level, template.level),
    yourAttack: attackOf(ctx.world, player),
    yourDefense: defenseOf(ctx.world, player),
    to: { userId },
  });
}
