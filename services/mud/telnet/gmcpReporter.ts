import type { PlayerSnapshot } from '../../../rooms/actionOutcome';
import type { QuestLogEntry } from '../../../rooms/text/events';
import type { MudEvent } from '../../../rooms/text/narration';
import type { RoomAtlas } from '../roomAtlas';
import {
  type GmcpMessage,
  type ItemLine,
  charItemsList,
  charName,
  charQuestsList,
  charStatus,
  charVitals,
  commChannelText,
  roomInfo,
} from './gmcpMessages';

/** What an event batch made stale (the session reads it again with a read-only action: inventory, quests, look). */
export interface StaleLists {
  items: boolean;
  quests: boolean;
  /** Vitals, status or room changed on the world's tick, not by an action (a kill's xp, death, respawn). */
  player: boolean;
}

/** Events between actions that change the player's vitals, status or room, and whose they are. */
const PLAYER_CHANGES: Record<string, (data: Record<string, unknown>) => unknown> = {
  'xp.gained': (data) => (data.actor as { userId?: string }).userId,
  'player.died': (data) => (data.actor as { userId?: string }).userId,
  'player.respawned': (data) => (data.actor as { userId?: string }).userId,
  'rest.stopped': (data) => (data.actor as { userId?: string }).userId,
  'combat.started': (data) => (data.target as { userId?: string }).userId,
};

const CHAT_CHANNELS: Record<string, string> = {
  'chat.said': 'say',
  'chat.shout': 'shout',
  'chat.whisper': 'whisper',
  'chat.emote': 'emote',
};

/**
 * Turns what a telnet player's actions and witnessed events tell us into GMCP messages, sending each only when it
 * changed: `Char.Vitals` and `Char.Status` from the action's player snapshot (health from blows between actions, and
 * the rest from a silent `look` after a kill's xp, a death, a respawn or an attack), `Room.Info` when the player is in a new room, `Comm.Channel.Text` for every line of chat, and
 * `Char.Items.List` / `Char.Quests.List` from `inventory` and `quests` results.
 */
export class GmcpReporter {
  private player?: PlayerSnapshot;
  private roomRef?: string;
  private guest?: boolean;
  private readonly sent = new Map<string, string>();

  constructor(
    private readonly userId: string,
    private readonly atlas: RoomAtlas,
    private readonly send: (message: GmcpMessage) => void,
  ) {}

  /** Sends `Char.Name` and, once known, the vitals, status and room (the client just enabled GMCP). */
  hello(name: string, guest: boolean | undefined): void {
    this.sent.clear();
    this.guest = guest;
    if (this.player) this.snapshot(this.player);
    else this.sendChanged(charName(name, guest));
  }

  /** The player after one of their actions (the character's name is the world's, as other players see it). */
  snapshot(player: PlayerSnapshot): void {
    this.player = player;
    this.sendChanged(charName(player.name, this.guest));
    this.sendChanged(charVitals(player));
    this.sendChanged(charStatus(player, this.atlas.room(player.roomRef)));
    this.enter(player.roomRef);
  }

  /** Events the player saw; returns the lists they made stale. */
  events(events: MudEvent[]): StaleLists {
    const stale: StaleLists = { items: false, quests: false, player: false };
    for (const event of events) {
      const channel = CHAT_CHANNELS[event.type];
      if (channel) {
        const actor = event.data.actor as { name: string } | undefined;
        this.send(commChannelText(channel, actor?.name ?? '', event.text));
      } else if (event.type === 'inventory') this.items(event.data);
      else if (event.type === 'quest.log') {
        this.sendChanged(charQuestsList(event.data.quests as QuestLogEntry[]));
      } else if (event.type === 'combat.hit') this.blow(event.data);
      if (/^(item\.|craft\.|market\.bought|quest\.completed)/.test(event.type)) stale.items = true;
      if (event.type.startsWith('quest.') && event.type !== 'quest.log') stale.quests = true;
      if (PLAYER_CHANGES[event.type]?.(event.data) === this.userId) stale.player = true;
    }
    return stale;
  }

  private items(data: Record<string, unknown>): void {
    const carried = data.items as Array<{ ref: string; name: string; qty: number }>;
    const worn = Object.entries(data.equipment as Record<string, string>).map(([slot, name]): ItemLine => ({
      ref: `worn:${slot}`,
      name,
      qty: 1,
      worn: slot,
    }));
    this.sendChanged(charItemsList([...carried, ...worn]));
  }

  /** A blow that struck this player changes their health before their next action reports it. */
  private blow(data: Record<string, unknown>): void {
    const target = data.target as { userId?: string } | undefined;
    if (!this.player || target?.userId !== this.userId) return;
    this.player = { ...this.player, health: data.remaining as number };
    this.sendChanged(charVitals(this.player));
  }

  private enter(roomRef: string): void {
    if (roomRef === this.roomRef && this.sent.has('Room.Info')) return;
    this.roomRef = roomRef;
    const room = this.atlas.room(roomRef);
    if (room) this.sendChanged(roomInfo(room));
  }

  private sendChanged(message: GmcpMessage): void {
    const text = JSON.stringify(message[1]);
    if (this.sent.get(message[0]) === text) return;
    this.sent.set(message[0], text);
    this.send(message);
  }
}
