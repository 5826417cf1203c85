import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { World } from '../../rooms/content/world';
import type { MindBoard } from '../../rooms/minds';
import type { WorldEventBus } from '../../rooms/worldEvents';
import type { AuthService } from '../auth';
import type { MemoryService } from '../brain';
import { NpcBrain } from './npcBrain';
import { NpcMemoryRecorder } from './npcMemoryRecorder';
import { NpcVoice } from './npcVoice';
import { registerNpcRoutes } from './router';
import { WorldLore } from './worldLore';

export { WorldLore, type LorePassage } from './worldLore';
export { agoPhrase, npcSubject, playerTag } from './npcSubjects';

/** What the NPC brain is built on besides the platform: the world, its event bus and minds, the memory service. */
export interface NpcAreaOptions {
  world: World;
  events: WorldEventBus;
  minds: MindBoard;
  memory: MemoryService;
}

/** The NPC area's parts, with the recorder (tests wait on `recorder.settled()`) and the voice (benches). */
export interface NpcArea extends ProductParts {
  recorder: NpcMemoryRecorder;
  voice: NpcVoice;
}

/**
 * NPCs that remember (SPEC 1 NPC routes): every NPC is a memory subject (`npc:<area>:<id>`); the world's events
 * become its memories of each player, `talk` in the world consults them (`npc.talk` on the minds board), and the
 * `/npc/brain` routes list memories, answer questions from lore and memory, and show a player's standing.
 */
export function createNpcArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  options: NpcAreaOptions,
): NpcArea {
  const { config, stores, clock } = context;
  const logger = context.logger.child({ component: 'npc' });
  const recorder = new NpcMemoryRecorder(options.world, options.memory, options.events, logger);
  const voice = new NpcVoice(options.world, options.memory, new WorldLore(options.world), clock);
  options.minds.serve('npc.talk', (request) => voice.recollect(request));
  const brain = new NpcBrain(options.world, options.memory, voice, stores.mongo);
  return {
    recorder,
    voice,
    services: hasRole(config, 'api') ? [(routes) => registerNpcRoutes(routes, brain, auth.guard)] : [],
    close: async () => {
      recorder.close();
      await recorder.settled();
    },
  };
}
