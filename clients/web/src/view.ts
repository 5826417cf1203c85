import { offersOf, refName, type MudEvent, type QuestEntry, type RoomView } from './events';
import { drawMapPanel, type MapView } from './mapPanel';
import { CreatureLabels } from './creatureLabels';

/** The parts of the synchronised area state the page reads (rooms/state/*.ts). */
interface Keyed<T> {
  forEach(callback: (value: T, key: string) => void): void;
  get(key: string): T | undefined;
}
interface PlayerView {
  userId: string;
  name: string;
  roomRef: string;
  health: number;
  maxHealth: number;
  level: number;
  xp: number;
  soft: number;
  hard: number;
  status: string;
  inventory: Keyed<number>;
  equipment: Keyed<string>;
  companion?: { ref: string; name: string; bond: number; presence: string };
}
interface CreatureView {
  id: string;
  name: string;
  roomRef: string;
  health: number;
  maxHealth: number;
  emotion: string;
}
/** The area state as the page reads it. */
export interface AreaView {
  name: string;
  players: Keyed<PlayerView>;
  creatures: Keyed<CreatureView>;
  items: Keyed<{ id: string; name: string; roomRef: string; qty: number }>;
}

const LOG_LIMIT = 300;

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} missing from the page`);
  return element as T;
}

/** A small button that sends a command line (`accept First Steps`), named for screen readers by `label`. */
function commandButton(text: string, label: string, onClick: () => void): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = text;
  button.setAttribute('aria-label', label);
  button.addEventListener('click', () => {
    button.disabled = true;
    onClick();
  });
  return button;
}

function item(text: string, kind?: string): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = text;
  if (kind) {
    const tag = document.createElement('span');
    tag.className = 'kind';
    tag.textContent = ` (${kind})`;
    li.append(tag);
  }
  return li;
}

/**
 * The game screen: the room's title, description and exits (from the last `room.look`), who and what is in the
 * room (live from state sync, only what shares the player's room), the map (from the map the world sends with each
 * room description), the event log (every line the world sends, with an Accept button on a quest offer) and the
 * character panels. `send` sends a command line, as the command box does.
 */
export class GameView {
  private room: RoomView | undefined;
  private readonly quests = new Map<string, QuestEntry>();
  /** Accept buttons of offers still open, by quest name (disabled once the quest is taken). */
  private readonly acceptButtons = new Map<string, HTMLButtonElement[]>();
  private readonly creatureLabels = new CreatureLabels();

  constructor(private readonly send: (line: string) => void) {}

  /** Redraws the map panel. */
  showMap(map: MapView): void {
    drawMapPanel(byId<SVGSVGElement & HTMLElement>('map'), byId('map-title'), map);
  }

  /** Shows a new room description and its exits as buttons. */
  showRoom(room: RoomView): void {
    this.room = room;
    this.creatureLabels.seeded(room.ref, room.creatures ?? []);
    byId('room-name').textContent = room.name;
    byId('room-description').textContent = room.description;
    const exits = byId('exits');
    exits.replaceChildren(
      ...room.exits.map((direction) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = direction;
        button.setAttribute('aria-label', `Go ${direction}`);
        button.addEventListener('click', () => this.send(direction));
        return button;
      }),
    );
  }

  /** Appends events to the log (newest last, scrolled into view). */
  log(events: MudEvent[]): void {
    const log = byId('log');
    for (const event of events) {
      const line = document.createElement('div');
      line.className = event.type === 'error' ? 'error' : event.channel;
      line.textContent = event.text;
      for (const quest of offersOf(event)) {
        const button = commandButton('Accept', `Accept ${quest.name}`, () =>
          this.send(`accept ${quest.name}`),
        );
        button.dataset.quest = quest.name;
        this.acceptButtons.set(quest.name, [...(this.acceptButtons.get(quest.name) ?? []), button]);
        line.append(button);
      }
      if (event.type === 'quest.accepted') {
        for (const button of this.acceptButtons.get(String(event.data.quest)) ?? []) button.disabled = true;
        this.acceptButtons.delete(String(event.data.quest));
      }
      log.append(line);
    }
    while (log.childElementCount > LOG_LIMIT) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
  }

  /** A line of the client's own (connection changes, hints). */
  note(text: string): void {
    this.log([{ type: 'note', channel: 'system', text, data: {} }]);
  }

  /** Keeps the quest log. */
  quest(entry: QuestEntry): void {
    this.quests.set(entry.name, entry);
  }

  get questLog(): Map<string, QuestEntry> {
    return this.quests;
  }

  /** Redraws everything that comes from the state: the room's occupants and the character panels. */
  render(state: AreaView, userId: string): void {
    const me = state.players.get(userId);
    if (!me) return;
    this.renderPresent(state, me);
    this.renderStats(me, state.name);
    this.renderInventory(me);
    const companion = me.companion;
    byId('companion').textContent =
      companion && companion.ref
        ? `${companion.name} — bond ${companion.bond}, ${companion.presence.toLowerCase()}`
        : 'None yet.';
  }

  private renderPresent(state: AreaView, me: PlayerView): void {
    const here: HTMLLIElement[] = [];
    state.players.forEach((player) => {
      if (player.roomRef === me.roomRef && player.userId !== me.userId)
        here.push(item(player.name, 'player'));
    });
    const creatures: CreatureView[] = [];
    state.creatures.forEach((creature) => {
      if (creature.roomRef === me.roomRef) creatures.push(creature);
    });
    for (const { creature, label } of this.creatureLabels.label(me.roomRef, creatures)) {
      here.push(
        item(
          `${label} ${creature.health}/${creature.maxHealth}`,
          `creature, ${creature.emotion.toLowerCase()}`,
        ),
      );
    }
    if (this.room?.ref === me.roomRef) for (const npc of this.room.npcs) here.push(item(npc, 'person'));
    state.items.forEach((floor) => {
      if (floor.roomRef === me.roomRef)
        here.push(item(floor.qty > 1 ? `${floor.name} x${floor.qty}` : floor.name, 'item'));
    });
    byId('present').replaceChildren(...(here.length ? here : [item('Nobody and nothing else.')]));
  }

  private renderStats(me: PlayerView, area: string): void {
    const rows: Array<[string, string]> = [
      ['Name', me.name],
      ['Area', area],
      ['Health', `${me.health}/${me.maxHealth}`],
      ['Level', String(me.level)],
      ['XP', String(me.xp)],
      ['Coins', String(me.soft)],
      ['Gems', String(me.hard)],
      ['Status', me.status],
    ];
    byId('stats').replaceChildren(
      ...rows.flatMap(([term, value]) => {
        const dt = document.createElement('dt');
        dt.textContent = term;
        const dd = document.createElement('dd');
        dd.textContent = value;
        dd.dataset.stat = term.toLowerCase();
        return [dt, dd];
      }),
    );
    const health = byId<HTMLMeterElement>('health');
    health.max = Math.max(1, me.maxHealth);
    health.value = me.health;
    health.low = me.maxHealth * 0.3;
    health.setAttribute('aria-valuetext', `${me.health} of ${me.maxHealth}`);
    byId('health-text').textContent =
      `Health ${me.health} of ${me.maxHealth}${me.status === 'fighting' ? ', fighting' : ''}.`;
  }

  private renderInventory(me: PlayerView): void {
    const carried: HTMLLIElement[] = [];
    me.inventory.forEach((qty, ref) => {
      if (qty > 0) carried.push(item(qty > 1 ? `${refName(ref)} x${qty}` : refName(ref)));
    });
    byId('inventory').replaceChildren(...(carried.length ? carried : [item('Nothing.')]));
    const worn: HTMLLIElement[] = [];
    me.equipment.forEach((ref, slot) => worn.push(item(`${refName(ref)} (${slot})`)));
    byId('equipment').replaceChildren(...(worn.length ? worn : [item('Nothing.')]));
  }

  /**
   * Redraws the quest panel (called when a quest event changed the log, not on every state patch, so a focused
   * Complete button keeps its focus).
   */
  renderQuests(): void {
    const entries = [...this.quests.values()].map((quest) => {
      const li = item(quest.status === 'completed' ? `${quest.name} — complete` : quest.name);
      if (quest.status === 'active' && quest.readyAt) {
        li.append(` — done: hand it in to ${quest.readyAt}`);
        li.append(
          commandButton('Complete', `Hand in ${quest.name}`, () => this.send(`complete ${quest.name}`)),
        );
      }
      if (quest.status === 'active' && quest.objectives.length) {
        const list = document.createElement('ul');
        for (const objective of quest.objectives) {
          list.append(
            item(`${objective.done ? '✓' : '•'} ${objective.text} (${objective.have}/${objective.need})`),
          );
        }
        li.append(list);
      }
      return li;
    });
    byId('quests').replaceChildren(...(entries.length ? entries : [item('No quests yet: talk to people.')]));
  }
}
