import type { PlatformContext } from '../../../platform/platform';
import type { PromptSignIn } from '../../auth';
import type { ChannelHolds } from '../channelHolds';
import { RoomAtlas } from '../roomAtlas';
import type { WorldAccess } from '../worldAccess';
import type { LinkCodes } from './linkCodes';
import { msspPayload, msspTable } from './msspTable';
import { TelnetServer } from './telnetServer';

export { TelnetServer } from './telnetServer';
export { LinkCodes } from './linkCodes';

/** What the telnet port needs from the world area. */
export interface TelnetPortDependencies {
  access: WorldAccess;
  signIn: PromptSignIn;
  holds: ChannelHolds;
  codes: LinkCodes;
}

/** Names this server in MSSP's CODEBASE. */
const CODEBASE = 'Forge Platform';

/**
 * The telnet port of the world (TELNET_PORT, TELNET_MAX_PER_ADDRESS, TELNET_IDLE_TIMEOUT_SECONDS), to be started by
 * the platform beside the HTTP port. MSSP reports the world's name, the players in the world now, this process's
 * start, the first ADMIN_EMAILS address (else admin@BASE_DOMAIN) and the bound port.
 */
export function createTelnetPort(context: PlatformContext, deps: TelnetPortDependencies): TelnetServer {
  const { config, clock, logger } = context;
  const log = logger.child({ component: 'telnet' });
  const world = deps.access.world;
  const startedAt = Math.floor(clock.now() / 1000);
  const server: TelnetServer = new TelnetServer(
    {
      port: config.TELNET_PORT,
      host: config.HOST,
      maxPerAddress: config.TELNET_MAX_PER_ADDRESS,
      idleTimeoutMs: config.TELNET_IDLE_TIMEOUT_SECONDS * 1000,
      logger: log,
    },
    {
      ...deps,
      atlas: new RoomAtlas(world),
      logger: log,
      worldName: world.name,
      now: () => clock.now(),
      mssp: async () =>
        msspPayload(
          msspTable(
            {
              name: world.name,
              players: await deps.access.playersOnline(),
              uptime: startedAt,
              codebase: CODEBASE,
              contact: config.ADMIN_EMAILS[0] ?? `admin@${config.BASE_DOMAIN}`,
              port: server.port,
              hostname: config.BASE_DOMAIN,
              website: config.PUBLIC_BASE_URL,
            },
            world,
          ),
        ),
    },
  );
  return server;
}
