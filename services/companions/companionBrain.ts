import { Types, type Connection } from 'mongoose';
import { characterModel, type CharacterRecord } from '../../models/Character';
import type { CompanionPresence } from '../../rooms/content/schemas';
import type { CompanionTemplate } from '../../rooms/content/world';
import type { MemoryRecord, MemoryService } from '../brain';
import type { WorldService } from '../mud';
import { companionSubject } from './companionMemoryRecorder';
import type { CompanionAnswer, CompanionVoice } from './companionVoice';
import { companionError } from './errors';

/** A player's companion as the brain sees it: template, bond, presence and recent memories. */
export interface CompanionState {
  template: CompanionTemplate;
  bond: number;
  bondPoints: number;
  presence: CompanionPresence;
  recent: MemoryRecord[];
}

/**
 * The companion brain's commands behind the /companions/brain routes. A companion is the caller's own (named by
 * id, ref or name); its bond and presence live with the saved character, its memories in the memory service. The
 * presence is changed through the world (the `companion presence` action), so a player in the world sees it at once.
 */
export class CompanionBrain {
  private readonly characters;

  constructor(
    private readonly world: WorldService,
    private readonly memory: MemoryService,
    private readonly voice: CompanionVoice,
    mongo: Connection,
  ) {
    this.characters = characterModel(mongo);
  }

  /** Bond, presence and the 10 most recent memories of the caller's companion `name`. */
  async state(userId: string, name: string): Promise<CompanionState> {
    const { template, companion } = await this.own(userId, name);
    const { memories } = await this.memory.list({
      subject: companionSubject(userId, template.ref),
      limit: 10,
    });
    return {
      template,
      bond: companion.bond,
      bondPoints: companion.bondPoints,
      presence: companion.presence,
      recent: memories,
    };
  }

  /** Sets when the companion speaks (Always, On Demand, Subtle, Progressive, Silent). */
  async setPresence(userId: string, name: string, presence: CompanionPresence): Promise<CompanionState> {
    await this.own(userId, name);
    await this.world.act(new Types.ObjectId(userId), { action: 'companion', op: 'presence', presence });
    return this.state(userId, name);
  }

  /** Answers from the companion's memories (the route asks directly; presence governs only the world). */
  async ask(
    userId: string,
    name: string,
    question: string,
  ): Promise<CompanionAnswer & { template: CompanionTemplate }> {
    const { template } = await this.own(userId, name);
    return { ...(await this.voice.answer(userId, template, question)), template };
  }

  /** Forgets one memory of the caller's companion (404 MEMORY_NOT_FOUND when it has none with that id). */
  async forget(userId: string, name: string, memoryId: string): Promise<string[]> {
    const { template } = await this.own(userId, name);
    const subject = companionSubject(userId, template.ref);
    if (!(await this.memory.get(subject, memoryId))) {
      throw companionError('MEMORY_NOT_FOUND', `${template.name} has no memory ${memoryId}`);
    }
    return this.memory.forget(subject, { id: memoryId });
  }

  private async own(userId: string, name: string) {
    const character = await this.characters
      .findOne({ userId }, { companion: 1 })
      .lean<Pick<CharacterRecord, 'companion'>>();
    const companion = character?.companion;
    const template = companion ? this.world.world.companions.get(companion.ref) : undefined;
    const wanted = name.trim().toLowerCase();
    if (
      !companion ||
      !template ||
      ![template.ref, template.id, template.name.toLowerCase()].includes(wanted)
    ) {
      throw companionError('COMPANION_NOT_FOUND', `You have no companion "${name}"`);
    }
    return { template, companion };
  }
}
