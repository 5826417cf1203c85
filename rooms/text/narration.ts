import type { Actor, GameEvent, GameEventBody, GameEventType, ObjectiveView } from './events';
import { labelOf } from './words';
import { INFO_FORMATTERS } from './narrationInfo';
import { MARKET_FORMATTERS } from './narrationMarket';

/** The channel a line belongs to, so clients can colour or filter it. */
export type Channel = 'room' | 'combat' | 'chat' | 'info' | 'quest' | 'companion' | 'system';

/**
 * What a player receives for each event (Colyseus `event` message, plain-WS frame, REST `events[]`): the
 * event type, a channel, the text to show and the event's structured data.
 */
export interface MudEvent {
  type: GameEventType | 'error';
  channel: Channel;
  text: string;
  data: Record<string, unknown>;
}

type Formatter<T extends GameEventType> = (
  event: Extract<GameEventBody, { type: T }>,
  viewer: string,
) => string;

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** "you" for the viewer, the name for everyone else. */
const who = (actor: Actor, viewer: string) =>
  actor.userId === viewer ? 'you' : actor.name.match(/^[A-Z]/) ? actor.name : `the ${labelOf(actor)}`;
/** "A speckled hen", or "A second speckled hen" when one is already there. */
const newcomer = (actor: Actor) => `A ${labelOf(actor)}`;
const verb = (actor: Actor, viewer: string, second: string, third: string) =>
  actor.userId === viewer ? second : third;
const list = (items: string[]) => (items.length === 0 ? 'nothing' : items.join(', '));
/** The offer line's last words: how to take the first quest (a bare `accept`), or another by name. */
const howToAccept = (quests: Array<{ name: string }>) =>
  quests.length === 1
    ? 'Type "accept" to take it.'
    : `Type "accept" to take ${quests[0].name}, or "accept <quest>" for another.`;
const objectives = (views: ObjectiveView[]) =>
  views.map((o) => `${o.done ? '[x]' : '[ ]'} ${o.text} (${o.have}/${o.need})`).join('; ');

const FORMATTERS: { [T in GameEventType]: [Channel, Formatter<T>] } = {
  ...INFO_FORMATTERS,
  ...MARKET_FORMATTERS,
  'room.look': [
    'room',
    ({ room, hint }) =>
      [
        `${room.name}\n${room.description}`,
        `Exits: ${list(room.exits)}.`,
        room.npcs.length ? `Here: ${list(room.npcs)}.` : '',
        room.players.length ? `Players: ${list(room.players)}.` : '',
        room.creatures.length
          ? `Creatures: ${list(room.creatures.map((c) => `${labelOf(c)} (${c.emotion.toLowerCase()})`))}.`
          : '',
        room.items.length
          ? `On the ground: ${list(room.items.map((i) => (i.qty > 1 ? `${i.name} x${i.qty}` : i.name)))}.`
          : '',
        hint ?? '',
      ]
        .filter(Boolean)
        .join('\n'),
  ],
  'player.left': [
    'room',
    (e) => (e.direction ? `${e.actor.name} leaves ${e.direction}.` : `${e.actor.name} leaves.`),
  ],
  'player.arrived': ['room', (e) => `${e.actor.name} arrives.`],
  'combat.started': [
    'combat',
    (e, v) => cap(`${who(e.attacker, v)} ${verb(e.attacker, v, 'attack', 'attacks')} ${who(e.target, v)}!`),
  ],
  'combat.hit': [
    'combat',
    (e, v) =>
      cap(
        `${who(e.attacker, v)} ${verb(e.attacker, v, 'hit', 'hits')} ${who(e.target, v)} for ${e.damage} (${e.remaining} left).`,
      ),
  ],
  'combat.missed': [
    'combat',
    (e, v) => cap(`${who(e.attacker, v)} ${verb(e.attacker, v, 'miss', 'misses')} ${who(e.target, v)}.`),
  ],
  'creature.died': [
    'combat',
    (e, v) =>
      cap(`${who(e.creature, v)} dies at ${e.killer.userId === v ? 'your' : `${e.killer.name}'s`} hand.`),
  ],
  'player.died': [
    'combat',
    (e, v) =>
      e.actor.userId === v
        ? `You have been slain by ${who(e.killer, v)}! You lose ${e.lost} coins.`
        : `${e.actor.name} has been slain by ${who(e.killer, v)}!`,
  ],
  'player.respawned': ['system', () => 'You awaken, weak but alive.'],
  'loot.dropped': [
    'combat',
    (e, v) =>
      cap(
        `${who(e.creature, v)} drops ${list(e.items.map((i) => (i.qty > 1 ? `${i.name} x${i.qty}` : i.name)))}.`,
      ),
  ],
  'xp.gained': [
    'info',
    (e) => `You gain ${e.amount} experience.${e.levelled ? ` You are now level ${e.level}!` : ''}`,
  ],
  'flee.succeeded': ['combat', (e) => `You flee ${e.direction}!`],
  'flee.failed': [
    'combat',
    (e, v) =>
      e.actor.userId === v
        ? 'You try to flee but cannot get away!'
        : `${e.actor.name} tries to flee but fails.`,
  ],
  'rest.started': [
    'info',
    (e, v) => (e.actor.userId === v ? 'You sit down to rest.' : `${e.actor.name} sits down to rest.`),
  ],
  'rest.stopped': ['info', () => 'You stop resting.'],
  'npc.said': ['chat', (e) => `${e.npc.name} says: "${e.text}"`],
  'npc.offers': [
    'chat',
    (e) =>
      [
        e.quests.length
          ? `${e.npc.name} has work for you: ${list(e.quests.map((q) => q.name))}. ${howToAccept(e.quests)}`
          : '',
        e.wares.length
          ? `${e.npc.name} sells: ${list(e.wares.map((w) => `${w.name} (${w.price} ${w.price === 1 ? 'coin' : 'coins'})`))}.`
          : '',
        e.topics.length ? `You could ask about: ${list(e.topics.map((t) => t.id.replace(/_/g, ' ')))}.` : '',
      ]
        .filter(Boolean)
        .join('\n'),
  ],
  'npc.answered': ['chat', (e) => `You: "${e.ask}"\n${e.npc.name} says: "${e.text}"`],
  'npc.recalled': ['chat', (e) => `${e.npc.name} adds: "${e.text}"`],
  'disposition.changed': ['info', (e) => `${e.npc.name} now seems ${e.disposition} towards you.`],
  'item.taken': [
    'room',
    (e, v) =>
      cap(
        `${who(e.actor, v)} ${verb(e.actor, v, 'take', 'takes')} ${e.item}${e.qty > 1 ? ` x${e.qty}` : ''}.`,
      ),
  ],
  'item.dropped': [
    'room',
    (e, v) =>
      cap(
        `${who(e.actor, v)} ${verb(e.actor, v, 'drop', 'drops')} ${e.item}${e.qty > 1 ? ` x${e.qty}` : ''}.`,
      ),
  ],
  'item.given': [
    'room',
    (e, v) =>
      cap(
        `${who(e.actor, v)} ${verb(e.actor, v, 'give', 'gives')} ${e.item}${e.qty > 1 ? ` x${e.qty}` : ''} to ${who(e.recipient, v)}.`,
      ),
  ],
  'item.equipped': [
    'room',
    (e, v) => cap(`${who(e.actor, v)} ${verb(e.actor, v, 'equip', 'equips')} ${e.item}.`),
  ],
  'item.used': ['info', (e) => `You use ${e.item} and recover ${e.healed} health.`],
  'item.bought': ['info', (e) => `You buy ${e.item} from ${e.npc.name} for ${e.price} coins.`],
  'item.sold': [
    'info',
    (e) => `You sell ${e.item}${e.qty > 1 ? ` x${e.qty}` : ''} to ${e.npc.name} for ${e.price} coins.`,
  ],
  inventory: [
    'info',
    (e) =>
      [
        `You carry: ${list(e.items.map((i) => (i.qty > 1 ? `${i.name} x${i.qty}` : i.name)))}.`,
        `Equipped: ${list(Object.entries(e.equipment).map(([slot, name]) => `${name} (${slot})`))}.`,
        `Health ${e.health}/${e.maxHealth}. Coins: ${e.soft}. Gems: ${e.hard}.`,
      ].join('\n'),
  ],
  'craft.done': [
    'info',
    (e, v) =>
      cap(
        `${who(e.actor, v)} ${verb(e.actor, v, 'craft', 'crafts')} ${e.item}${e.qty > 1 ? ` x${e.qty}` : ''}.`,
      ),
  ],
  'chat.said': [
    'chat',
    (e, v) => (e.actor.userId === v ? `You say: "${e.text}"` : `${e.actor.name} says: "${e.text}"`),
  ],
  'quest.accepted': ['quest', (e) => `Quest accepted: ${e.quest}. ${objectives(e.objectives)}`],
  'quest.progress': ['quest', (e) => `${e.quest}: ${objectives(e.objectives)}`],
  'quest.ready': [
    'quest',
    (e) =>
      `All done for ${e.quest}: ${e.atGiver ? '' : `return to ${e.giver} and `}type "complete" to hand it in.`,
  ],
  'quest.completed': [
    'quest',
    (e) =>
      `Quest complete: ${e.quest}! Rewards: ${list([e.xp ? `${e.xp} xp` : '', e.soft ? `${e.soft} coins` : '', ...e.items, e.companion ? `a companion, ${e.companion}` : ''].filter(Boolean))}.`,
  ],
  'companion.bonded': ['companion', (e) => `${e.companion} the ${e.species} has bonded with you.`],
  'companion.spoke': ['companion', (e) => e.text],
  'companion.recalled': ['companion', (e) => `${e.companion}: "${e.text}"`],
  'companion.acted': ['companion', (e) => `${e.companion} strikes the ${e.target} for ${e.damage}.`],
  'companion.bond': ['companion', (e) => `Your bond with ${e.companion} deepens (bond ${e.bond}).`],
  'companion.offered': [
    'companion',
    (e) =>
      `${e.companion} the ${e.species} would join you, but ${e.current} is already at your side and will not share you. Type "companion swap" to part with ${e.current} and take ${e.companion}, or "companion decline".`,
  ],
  'companion.parted': ['companion', (e) => `${e.companion} nuzzles you one last time and goes its own way.`],
  'companion.declined': ['companion', (e) => `${e.companion} watches you go, then slips away.`],
  'companion.presence': [
    'companion',
    (e) => `${e.companion} will now ${PRESENCE_LINES[e.presence] ?? 'stay'}.`,
  ],
  'creature.emotion': ['room', (e) => `The ${labelOf(e.creature)} ${EMOTION_LINES[e.emotion] ?? 'shifts'}.`],
  'creature.left': ['room', (e) => `The ${labelOf(e.creature)} heads ${e.direction}.`],
  'creature.arrived': [
    'room',
    (e) => `${newcomer(e.creature)} arrives${e.from ? ` from ${FROM[e.from] ?? `the ${e.from}`}` : ''}.`,
  ],
  'creature.phase': ['combat', (e) => e.text],
  'creature.warned': [
    'combat',
    (e, v) => `The ${labelOf(e.creature)} has had enough of ${who(e.target, v)} and attacks!`,
  ],
  'escort.started': [
    'quest',
    (e) => `${e.npc.name} falls in behind you. Bring them safely to ${e.destination}.`,
  ],
  'escort.followed': ['quest', (e) => `${e.npc.name} follows close behind you.`],
  'escort.arrived': ['quest', (e) => `${e.npc.name} has reached ${e.destination} safely.`],
  'escort.hurt': [
    'combat',
    (e) =>
      `The ${labelOf(e.creature)} goes for ${e.npc.name} and wounds them (${e.damage} damage, ${e.remaining} left).`,
  ],
  'escort.failed': [
    'quest',
    (e) => `${e.npc.name} is too badly hurt to go on and limps home. Talk to them there to try again.`,
  ],
  'escort.abandoned': [
    'quest',
    (e) =>
      e.reason === 'died'
        ? `${e.npc.name} flees home without you. Talk to them there to try again.`
        : `${e.npc.name} will go no further than ${e.area} and turns back home.`,
  ],
  'riddle.answered': [
    'quest',
    (e) =>
      e.correct
        ? `${e.npc.name} smiles slowly. "That is the answer."`
        : `${e.npc.name} shakes their head. "No. Think again."`,
  ],
  'creature.ambushed': [
    'combat',
    (e, v) => `${newcomer(e.creature)} bursts from hiding and springs at ${who(e.target, v)}!`,
  ],
  'creature.approached': [
    'room',
    (e, v) =>
      `The ${labelOf(e.creature)} ${e.emotion === 'FRIENDLY' ? 'trots up to' : 'edges closer to'} ${e.target.userId === v ? 'you' : e.target.name}${e.emotion === 'FRIENDLY' ? ' happily' : ', sniffing the air'}.`,
  ],
  'creature.spawned': ['room', (e) => `${newcomer(e.creature)} appears.`],
  'area.handoff': ['system', (e) => `You travel to ${e.areaName}...`],
};

const FROM: Record<string, string> = { above: 'above', below: 'below', inside: 'inside', outside: 'outside' };

const PRESENCE_LINES: Record<string, string> = {
  Always: 'speak up and fight beside you at every turn',
  'On Demand': 'stay quiet and still until you ask',
  Subtle: 'fight beside you quietly and speak only when it matters',
  Progressive: 'open up as your bond grows',
  Silent: 'keep silent and out of your fights',
};

const EMOTION_LINES: Record<string, string> = {
  CALM: 'settles down',
  CURIOUS: 'watches you curiously',
  SCARED: 'shrinks back, frightened',
  ALERT: 'tenses, eyes fixed on you',
  FRIENDLY: 'seems friendly',
  DEFENSIVE: 'bristles defensively',
  PANICKED: 'panics',
};

/** Turns an event into what `viewer` (a userId) reads. The one place player-facing text is written. */
export function narrate(event: GameEvent, viewer: string): MudEvent {
  const { to: _to, type, ...data } = event;
  const [channel, format] = FORMATTERS[type] as [Channel, (e: GameEventBody, v: string) => string];
  return { type, channel, text: format(event, viewer), data };
}

/** An error as a player-facing event (for fire-and-forget messages that fail). */
export function narrateError(code: string, message: string): MudEvent {
  return { type: 'error', channel: 'system', text: message, data: { code } };
}
