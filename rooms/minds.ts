import type { Disposition } from './content/schemas';

/**
 * The world's port to the NPC and companion brains (services/npc, services/companions), which remember and answer
 * asynchronously. Rules ask through `SimContext.consult` while an action runs; the area room then awaits each
 * answer and tells it to the player after the action's own events, before the reply. Without minds (or when a mind
 * has nothing to add) the world speaks only its fixed lines.
 */
export type MindRequest =
  | {
      /** `talk <npc>`: what the NPC adds from its memories of this player, its disposition and quest state. */
      kind: 'npc.talk';
      userId: string;
      npc: string;
      disposition: Disposition;
      /** Quests of this NPC the player has active / has completed (refs). */
      activeQuests: string[];
      completedQuests: string[];
    }
  | {
      /** `ask <companion> <question>`: the companion answers from what you shared. */
      kind: 'companion.ask';
      userId: string;
      companion: string;
      question: string;
    };

/** What a mind says back: the line, and what it drew on (memory ids, quest and lore refs). */
export interface MindReply {
  text: string;
  citations: string[];
}

/** The brains behind NPCs and companions. A failing answer is logged by the room and skipped. */
export interface Minds {
  answer(request: MindRequest): Promise<MindReply | null>;
}

/** Answers one kind of request. */
export type MindHandler<K extends MindRequest['kind']> = (
  request: Extract<MindRequest, { kind: K }>,
) => Promise<MindReply | null>;

/**
 * Minds assembled after the world exists: the composition hands one `MindBoard` to the world's rooms, and the NPC
 * and companion areas, built later, `serve` their kinds on it. An unserved kind answers null.
 */
export class MindBoard implements Minds {
  private readonly handlers = new Map<string, (request: MindRequest) => Promise<MindReply | null>>();

  /** Answers `kind` with `handler` from now on (replacing an earlier one). */
  serve<K extends MindRequest['kind']>(kind: K, handler: MindHandler<K>): void {
    this.handlers.set(kind, handler as (request: MindRequest) => Promise<MindReply | null>);
  }

  answer(request: MindRequest): Promise<MindReply | null> {
    return this.handlers.get(request.kind)?.(request) ?? Promise.resolve(null);
  }
}
