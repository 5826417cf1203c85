import { labelOf } from './words';
import type { Actor, InfoEventBody, ObjectiveView } from './events';

/** Formatters of the info, character-sheet and player-chat events (merged into `narration.ts`). */

type Channel = 'room' | 'combat' | 'chat' | 'info' | 'quest' | 'companion' | 'system';
type InfoType = InfoEventBody['type'];
type Formatter<T extends InfoType> = (event: Extract<InfoEventBody, { type: T }>, viewer: string) => string;

const list = (items: string[]) => (items.length === 0 ? 'nothing' : items.join(', '));
const name = (actor: Actor, viewer: string) => (actor.userId === viewer ? 'you' : actor.name);
const objectives = (views: ObjectiveView[]) =>
  views.map((o) => `  ${o.done ? '[x]' : '[ ]'} ${o.text} (${o.have}/${o.need})`);

export const INFO_FORMATTERS: { [T in InfoType]: [Channel, Formatter<T>] } = {
  help: ['info', (e) => `${e.title}\n${e.text}`],
  examined: ['info', (e) => e.text],
  considered: [
    'info',
    (e) =>
      `The ${labelOf(e.creature)} (level ${e.level}) would be ${e.verdict} for you. Your attack ${e.yourAttack}, defense ${e.yourDefense}.`,
  ],
  'quest.log': [
    'quest',
    (e) =>
      e.quests.length === 0
        ? 'Your quest log is empty. Talk to people: someone always needs a hand.'
        : e.quests
            .map((q) =>
              q.status === 'completed'
                ? `${q.name} (done)`
                : [`${q.name} (for ${q.giver})`, `  ${q.description}`, ...objectives(q.objectives)].join(
                    '\n',
                  ),
            )
            .join('\n'),
  ],
  recipes: [
    'info',
    (e) =>
      e.recipes
        .map(
          (r) =>
            `${r.ready ? '*' : '-'} ${r.name}: ${list(r.ingredients.map((i) => `${i.name} ${i.have}/${i.need}`))}${r.station ? ` (at a ${r.station})` : ''}`,
        )
        .join('\n'),
  ],
  score: [
    'info',
    (e) =>
      [
        `${e.name}, level ${e.level} (${e.xp} xp; level ${e.level + 1} at ${e.nextLevelXp}).`,
        `Health ${e.health}/${e.maxHealth}. Coins ${e.soft}. Attack ${e.attack}, defense ${e.defense}.`,
        `Paths: ${Object.entries(e.paths)
          .map(([path, level]) => `${path} ${level}`)
          .join(', ')}.`,
        `Skills: ${list(Object.entries(e.skills).map(([skill, points]) => `${skill} ${points}`))}.`,
        e.abilities.length ? `Abilities: ${e.abilities.join('; ')}.` : '',
        e.companion ? `Companion: ${e.companion}.` : '',
      ]
        .filter(Boolean)
        .join('\n'),
  ],
  tutorial: ['info', (e) => `Tutorial: ${e.room}\n${e.hint}\nNext: ${e.next}`],
  map: [
    'info',
    (e) =>
      [
        `${e.area} — you are in ${e.here} [@]`,
        e.grid,
        ...e.vertical,
        e.graph.rooms.some((room) => !room.visited) ? '[?] not explored yet.' : '',
      ]
        .filter(Boolean)
        .join('\n'),
  ],
  who: [
    'info',
    (e) => `In ${e.area}: ${list(e.players.map((p) => `${p.name} (level ${p.level}, ${p.room})`))}.`,
  ],
  'chat.emote': ['chat', (e) => `${e.actor.name} ${e.text}${/[.!?]$/.test(e.text) ? '' : '.'}`],
  'chat.whisper': [
    'chat',
    (e, v) =>
      e.actor.userId === v
        ? `You whisper to ${e.target.name}: "${e.text}"`
        : `${name(e.actor, v)} whispers to you: "${e.text}"`,
  ],
  'chat.shout': [
    'chat',
    (e, v) => (e.actor.userId === v ? `You shout: "${e.text}"` : `${e.actor.name} shouts: "${e.text}"`),
  ],
  'group.invited': [
    'info',
    (e, v) =>
      e.actor.userId === v
        ? `You invite ${e.target.name} to travel with you.`
        : `${e.actor.name} invites you to travel together. Type "group accept" to join.`,
  ],
  'group.joined': [
    'info',
    (e, v) => (e.actor.userId === v ? 'You join the group.' : `${e.actor.name} joins your group.`),
  ],
  'group.left': [
    'info',
    (e, v) => (e.actor.userId === v ? 'You leave the group.' : `${e.actor.name} leaves your group.`),
  ],
  'group.members': ['info', (e) => `Your group: ${list(e.members)}.`],
  'path.advanced': [
    'info',
    (e) =>
      `You advance on the path of ${e.path} to level ${e.level}.${e.abilities.length ? ` New: ${e.abilities.join('; ')}.` : ''}`,
  ],
};
