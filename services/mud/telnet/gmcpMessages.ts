import type { AtlasRoom } from '../roomAtlas';
import type { PlayerSnapshot } from '../../../rooms/actionOutcome';
import type { QuestLogEntry } from '../../../rooms/text/events';

/**
 * The GMCP messages the telnet channel sends (services/mud/telnet/README.md shows each with an example). Each
 * builder returns `[package.message, body]`; `gmcpPayload` makes the subnegotiation text.
 */
export type GmcpMessage = [name: string, body: unknown];

/** `Package.Message <json>`, the text inside IAC SB GMCP … IAC SE. */
export function gmcpPayload([name, body]: GmcpMessage): string {
  return body === undefined ? name : `${name} ${JSON.stringify(body)}`;
}

/** Parses what a client sent: `Package.Message` and its JSON body (undefined when absent or not JSON). */
export function parseGmcp(text: string): { name: string; body: unknown } {
  const space = text.indexOf(' ');
  const name = (space < 0 ? text : text.slice(0, space)).trim();
  if (space < 0) return { name, body: undefined };
  try {
    return { name, body: JSON.parse(text.slice(space + 1)) };
  } catch {
    return { name, body: undefined };
  }
}

/** `Char.Name`: who the terminal plays; `guest` when the sign-in says (a `guest` sign-in, or an email account). */
export function charName(name: string, guest: boolean | undefined): GmcpMessage {
  return ['Char.Name', { name, fullname: name, ...(guest === undefined ? {} : { guest }) }];
}

/** `Char.Vitals`: health, its maximum, level, xp and coins. */
export function charVitals(player: PlayerSnapshot): GmcpMessage {
  return [
    'Char.Vitals',
    {
      health: player.health,
      maxhealth: player.maxHealth,
      level: player.level,
      xp: player.xp,
      coins: player.soft,
    },
  ];
}

/** `Char.Status`: name, level, what the character is doing, and where. */
export function charStatus(player: PlayerSnapshot, room: AtlasRoom | undefined): GmcpMessage {
  return [
    'Char.Status',
    {
      name: player.name,
      level: player.level,
      status: player.status,
      area: room?.areaName ?? '',
      room: room?.name ?? '',
    },
  ];
}

/** One carried or worn item as `Char.Items.List` shows it. */
export interface ItemLine {
  ref: string;
  name: string;
  qty: number;
  worn?: string;
}

/** `Char.Items.List` for the inventory (`location: "inv"`), in the IRE shape Mudlet's item panels read. */
export function charItemsList(items: ItemLine[]): GmcpMessage {
  return [
    'Char.Items.List',
    {
      location: 'inv',
      items: items.map((item) => ({
        id: item.ref,
        name: item.name,
        qty: item.qty,
        ...(item.worn ? { attrib: 'w', slot: item.worn } : {}),
      })),
    },
  ];
}

/** `Room.Info`: the room's number, name, area, exits as direction → room number, and map coordinates. */
export function roomInfo(room: AtlasRoom): GmcpMessage {
  const { x, y, z } = room.coords;
  return [
    'Room.Info',
    {
      num: room.num,
      name: room.name,
      area: room.areaName,
      zone: room.areaId,
      exits: room.exits,
      coords: { x, y, z },
    },
  ];
}

/** `Comm.Channel.Text`: a line of say, shout, whisper or emote, with who said it. */
export function commChannelText(channel: string, talker: string, text: string): GmcpMessage {
  return ['Comm.Channel.Text', { channel, talker, text }];
}

/** `Char.Quests.List`: the quest log (active and completed quests with their objectives). */
export function charQuestsList(quests: QuestLogEntry[]): GmcpMessage {
  return [
    'Char.Quests.List',
    {
      quests: quests.map((quest) => ({
        name: quest.name,
        status: quest.status,
        giver: quest.giver,
        objectives: quest.objectives.map(({ text, have, need, done }) => ({ text, have, need, done })),
      })),
    },
  ];
}
