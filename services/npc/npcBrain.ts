import type { Connection } from 'mongoose';
import { characterModel, type CharacterRecord } from '../../models/Character';
import type { Disposition } from '../../rooms/content/schemas';
import type { NpcTemplate, World } from '../../rooms/content/world';
import { START_SCORE, dispositionFor } from '../../rooms/rules/disposition';
import type { MemoryRecord, MemoryService } from '../brain';
import { npcError } from './errors';
import { DISPOSITION_TAG, npcSubject, playerTag, resolveNpc } from './npcSubjects';
import type { NpcAnswer, NpcVoice } from './npcVoice';

/** Who is asking: a user id and whether they hold the operator role (or a higher one). */
export interface NpcCaller {
  userId: string;
  operator: boolean;
}

/** A player's standing with an NPC and the remembered reasons for it. */
export interface NpcRelationship {
  npc: NpcTemplate;
  score: number;
  disposition: Disposition;
  reasons: MemoryRecord[];
}

/**
 * The NPC brain's commands behind the /npc/brain routes: an NPC's memories (a player sees only their own history,
 * an operator anyone's), questions answered from lore and the asker's own history, and the caller's standing.
 */
export class NpcBrain {
  private readonly characters;

  constructor(
    private readonly world: World,
    private readonly memory: MemoryService,
    private readonly voice: NpcVoice,
    mongo: Connection,
  ) {
    this.characters = characterModel(mongo);
  }

  /** The NPC named by a route (404 NPC_NOT_FOUND). */
  npc(name: string): NpcTemplate {
    return resolveNpc(this.world, name);
  }

  /** A page of the NPC's memories of `player` (default the caller); all players' only for operators. */
  async memories(
    npc: NpcTemplate,
    caller: NpcCaller,
    query: { player?: string; cursor?: string; limit: number },
  ) {
    if (!caller.operator && query.player !== undefined && query.player !== caller.userId) {
      throw npcError('NOT_YOUR_HISTORY', 'You can only read your own history with an NPC');
    }
    const player = query.player ?? (caller.operator ? undefined : caller.userId);
    return this.memory.list({
      subject: npcSubject(npc),
      tags: player ? [playerTag(player)] : undefined,
      cursor: query.cursor,
      limit: query.limit,
    });
  }

  /** A player's question to an NPC, answered in character with citations. */
  async ask(
    npc: NpcTemplate,
    userId: string,
    question: string,
  ): Promise<NpcAnswer & { disposition: Disposition }> {
    const { disposition } = await this.standing(npc, userId);
    return { ...(await this.voice.answer(npc, userId, disposition, question)), disposition };
  }

  /** The caller's standing with the NPC (from their saved character) and the remembered reasons, newest first. */
  async relationship(npc: NpcTemplate, userId: string): Promise<NpcRelationship> {
    const { score, disposition } = await this.standing(npc, userId);
    const { memories } = await this.memory.list({
      subject: npcSubject(npc),
      tags: [playerTag(userId), DISPOSITION_TAG],
      limit: 20,
    });
    return { npc, score, disposition, reasons: memories };
  }

  private async standing(
    npc: NpcTemplate,
    userId: string,
  ): Promise<{ score: number; disposition: Disposition }> {
    const character = await this.characters
      .findOne({ userId }, { relations: 1 })
      .lean<Pick<CharacterRecord, 'relations'>>();
    const relations = (character?.relations ?? {}) as Record<string, number> | Map<string, number>;
    const saved = relations instanceof Map ? relations.get(npc.ref) : relations[npc.ref];
    const score = saved ?? START_SCORE[npc.disposition];
    return { score, disposition: dispositionFor(score) };
  }
}
