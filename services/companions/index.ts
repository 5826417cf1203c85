import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { MindBoard } from '../../rooms/minds';
import type { WorldEventBus } from '../../rooms/worldEvents';
import type { AuthService } from '../auth';
import type { MemoryService } from '../brain';
import type { WorldService } from '../mud';
import { CompanionBrain } from './companionBrain';
import { CompanionMemoryRecorder } from './companionMemoryRecorder';
import { CompanionVoice } from './companionVoice';
import { registerCompanionRoutes } from './router';

export { companionSubject, publishBondLevels } from './companionMemoryRecorder';

/** What the companion brain is built on: the world service, its event bus and minds, the memory service. */
export interface CompanionAreaOptions {
  world: WorldService;
  events: WorldEventBus;
  minds: MindBoard;
  memory: MemoryService;
}

/**
 * Companions that remember (SPEC 1 companion routes, SPEC 2.10): each player's companion is a memory subject
 * (`companion:<user>:<ref>`) filled from the world's shared moments; `ask <companion> ...` in the world and
 * `/companions/brain/{companion}/ask` answer from it; presence and bond come from the saved character.
 */
export function createCompanionArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  options: CompanionAreaOptions,
): ProductParts {
  const { config, stores } = context;
  const logger = context.logger.child({ component: 'companions' });
  const world = options.world.world;
  const recorder = new CompanionMemoryRecorder(world, options.memory, options.events, logger);
  const voice = new CompanionVoice(world, options.memory);
  options.minds.serve('companion.ask', (request) => voice.reply(request));
  const brain = new CompanionBrain(options.world, options.memory, voice, stores.mongo);
  return {
    services: hasRole(config, 'api') ? [(routes) => registerCompanionRoutes(routes, brain, auth.guard)] : [],
    close: async () => {
      recorder.close();
      await recorder.settled();
    },
  };
}
