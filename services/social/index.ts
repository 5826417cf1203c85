import { hasRole } from '../../platform/config';
import { createLimiter } from '../../platform/http/rateLimit';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { BrainStatusSource } from '../../platform/areaStatus';
import type { AuthService } from '../auth';
import { registerLinkRoutes } from './links/router';
import { registerMarkRoutes } from './marks/router';
import { SocialRecovery } from './recovery/socialRecovery';
import type { SocialPorts } from './ports';
import { registerSocialRoutes } from './router';
import { socialGuards } from './socialGuards';
import { SocialService } from './socialService';
import { socialStatus } from './socialStatus';
import { SocialStore } from './socialStore';
import { registerSyncRoutes } from './sync/router';
import { followWorld } from './worldFeed';
import type { WorldEventBus } from '../../rooms/worldEvents';

export { SocialService, type PlayerStanding } from './socialService';
export { SOCIAL_NOTIFICATION_KINDS } from './ports';
export type {
  SocialAuditEvent,
  SocialAuditPort,
  SocialNotificationKind,
  SocialNotify,
  SocialPorts,
} from './ports';
// What other areas use (the MCP tools publish these routes' own schemas, so a tool and its route cannot drift).
export { webIdentity, type IdentityRef } from './identities';
export { MarkSchema } from './marks/schemas';
export { presentInteraction, presentMark, presentPerson, presentProfile, presentSearch } from './presenters';
export {
  FriendsSchema,
  InteractionKindSchema,
  InteractionSchema,
  PlatformSchema,
  ProfileSchema,
  RelationshipSchema,
  RelationshipsSchema,
  SearchSchema,
  SentimentSchema,
  SocialUserIdSchema,
  StatsSchema,
  TextSchema,
} from './schemas';
export type { SocialCaller } from './socialGuards';

/**
 * Options of createSocialArea: the optional ports to memory (issue 18), notifications (24) and the audit log (21),
 * and the world's event bus (the one the composition hands createWorldArea) to learn who plays together.
 */
export interface SocialAreaOptions extends SocialPorts {
  events?: WorldEventBus;
  /** Changes (interactions, marks, links) one signed-in user may make per minute; default 120. */
  userWritesPerMinute?: number;
}

/** The social area's parts, plus the service other areas call (the world reads `standing`) and its admin status. */
export interface SocialArea extends ProductParts {
  social: SocialService;
  status: BrainStatusSource;
  /** The pass that finishes writes a killed process left half done (its job runs it every minute). */
  recovery: SocialRecovery;
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
  const { events, userWritesPerMinute, ...ports } = options;
  const social = new SocialService({ store, ports, logger: context.logger.child({ component: 'social' }) });
  const stopFollowing = events ? followWorld(social.context, events) : undefined;
  const guards = socialGuards(
    auth.guard,
    createLimiter({
      redis: stores.redis,
      keyPrefix: 'social:writes:',
      points: userWritesPerMinute ?? 120,
      durationSeconds: 60,
    }),
  );
  const recovery = new SocialRecovery(social.context);
  return {
    social,
    recovery,
    status: socialStatus(store, ports),
    // Trust history and memories a killed process left half written (recovery/socialRecovery.ts).
    jobs: [(agenda) => recovery.registerJob(agenda)],
    close: async () => {
      await stopFollowing?.();
    },
    services: hasRole(config, 'api')
      ? [
          (routes) => registerSocialRoutes(routes, social, guards),
          (routes) => registerMarkRoutes(routes, social, guards),
          (routes) => registerLinkRoutes(routes, social, guards),
          (routes) => registerSyncRoutes(routes, social, guards),
        ]
      : [],
  };
}
