import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { AuthService } from '../auth';
import { registerLinkRoutes } from './links/router';
import { registerMarkRoutes } from './marks/router';
import type { SocialPorts } from './ports';
import { registerSocialRoutes } from './router';
import { SocialService } from './socialService';
import { SocialStore } from './socialStore';
import { registerSyncRoutes } from './sync/router';
import { followWorld } from './worldFeed';
import type { WorldEventBus } from '../../rooms/worldEvents';

export { SocialService, type PlayerStanding } from './socialService';
export type { SocialAuditEvent, SocialAuditPort, SocialNotify, SocialPorts } from './ports';

/**
 * Options of createSocialArea: the optional ports to memory (issue 18), notifications (24) and the audit log (21),
 * and the world's event bus (the one the composition hands createWorldArea) to learn who plays together.
 */
export interface SocialAreaOptions extends SocialPorts {
  events?: WorldEventBus;
}

/** The social area's parts, plus the service other areas call (the world reads `standing`). */
export interface SocialArea extends ProductParts {
  social: SocialService;
}

/**
 * The social brain (SPEC 4.5, 2.10): identities on the chat platform, the block game and the web linked into
 * persons; trust 0-100 between persons with fren, foe and block marks; threats; bot sync. Its data is in MongoDB;
 * api processes serve the /social/brain routes. Given the world's bus, it follows who plays together.
 */
export async function createSocialArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  options: SocialAreaOptions = {},
): Promise<SocialArea> {
  const { stores, clock, config } = context;
  if (!stores.mongo) throw new Error('The social graph needs MongoDB');
  const store = await SocialStore.open(stores.mongo, clock);
  const { events, ...ports } = options;
  const social = new SocialService({ store, ports, logger: context.logger.child({ component: 'social' }) });
  const stopFollowing = events ? followWorld(social.context, events) : undefined;
  return {
    social,
    close: async () => {
      await stopFollowing?.();
    },
    services: hasRole(config, 'api')
      ? [
          (routes) => registerSocialRoutes(routes, social, auth.guard),
          (routes) => registerMarkRoutes(routes, social, auth.guard),
          (routes) => registerLinkRoutes(routes, social, auth.guard),
          (routes) => registerSyncRoutes(routes, social, auth.guard),
        ]
      : [],
  };
}
