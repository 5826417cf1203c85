import type { PlayerState } from './state/PlayerState';
import type { MudAction } from './commands/actions';
import type { ActionErrorBody } from './rules/errors';
import type { Handoff } from './rules/movement';
import type { MudEvent } from './text/narration';

/** The acting player's character as it stands after an action (REST and plain-WS players get no state sync). */
export interface PlayerSnapshot {
  name: string;
  roomRef: string;
  status: string;
  health: number;
  maxHealth: number;
  level: number;
  xp: number;
  soft: number;
  hard: number;
}

/** What an action produced for the acting player. */
export interface ActionOutcome {
  userId: string;
  areaId: string;
  roomRef: string;
  events: MudEvent[];
  player: PlayerSnapshot;
  /** Set when the action moved the player into another area (they are no longer in this room). */
  handoff?: Handoff;
}

/** `gatewayPerform`'s reply: plain JSON, because it may cross processes through presence. */
export type GatewayReply = { ok: true; outcome: ActionOutcome } | { ok: false; error: ActionErrorBody };

/** Actions that change nothing worth saving (so a durable room does not write the character for them). */
export function isReadOnly(action: MudAction): boolean {
  switch (action.action) {
    case 'look':
    case 'inventory':
    case 'say':
    case 'help':
    case 'examine':
    case 'consider':
    case 'quests':
    case 'recipes':
    case 'score':
    case 'who':
    case 'emote':
    case 'whisper':
    case 'shout':
      return true;
    case 'trade':
      // The marketplace keeps a trade; the room took in what it changed (syncOutside) and has nothing of its own to save.
      return true;
    case 'quest':
      return action.op === 'progress';
    case 'companion':
      return action.op === 'talk';
    case 'group':
      return action.op === 'list';
    default:
      return false;
  }
}

/** The snapshot of a live player. */
export function snapshotOf(state: PlayerState): PlayerSnapshot {
  return {
    name: state.name,
    roomRef: state.roomRef,
    status: state.status,
    health: state.health,
    maxHealth: state.maxHealth,
    level: state.level,
    xp: state.xp,
    soft: state.soft,
    hard: state.hard,
  };
}
