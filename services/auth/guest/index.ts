import type { Logger } from 'pino';
import type { JobRegistrar } from '../../../platform/jobs/scheduler';
import { createLimiter } from '../../../platform/http/rateLimit';
import type { ApiRoutes } from '../../../platform/http/routes';
import type { PlatformContext } from '../../../platform/platform';
import type { AuthGuard } from '../../../access/authGuard';
import type { Sessions } from '../sessions';
import { DisplayNames } from './displayNames';
import { GuestRetention } from './guestRetention';
import { GuestSignIn } from './guestSignIn';
import { registerGuestRoutes } from './router';

/** The guest part of the identity service: its routes and its retention job. */
export interface GuestPart {
  register(routes: ApiRoutes): void;
  job: JobRegistrar;
  /** Guest sign-in itself, for channels other than REST (the telnet prompt's `guest [name]`). */
  guest: GuestSignIn;
}

/** Builds guest sign-in, display names and guest retention from the configuration (GUEST_*). */
export function createGuestPart(
  context: PlatformContext,
  deps: { sessions: Sessions; guard: AuthGuard; logger: Logger },
): GuestPart {
  const { config, stores, clock } = context;
  const connection = stores.mongo;
  if (!connection) throw new Error('Guest sign-in needs MongoDB');
  const guest = new GuestSignIn(
    { enabled: config.GUEST_SIGNIN_ENABLED, sessionTtlSeconds: config.GUEST_SESSION_TTL_SECONDS },
    {
      connection,
      clock,
      sessions: deps.sessions,
      perAddress: createLimiter({
        redis: stores.redis,
        keyPrefix: 'auth:guest-signin:',
        points: config.GUEST_SIGNIN_PER_HOUR,
        durationSeconds: 3600,
      }),
    },
  );
  const names = new DisplayNames(connection);
  const retention = new GuestRetention(connection, clock, config.GUEST_RETENTION_DAYS, deps.logger);
  return {
    register: (routes) => registerGuestRoutes(routes, guest, names, deps.guard),
    job: (agenda) => retention.registerJob(agenda),
    guest,
  };
}
