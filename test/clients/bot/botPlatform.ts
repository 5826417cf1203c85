import { loadConfig } from '../../../platform/config';
import { createLogger } from '../../../platform/logger';
import { Platform } from '../../../platform/platform';
import { combineParts } from '../../../productParts';
import { createAuthService } from '../../../services/auth';
import { createHealthService } from '../../../services/health';
import { createSocialArea } from '../../../services/social';
import { embeddedEngines } from '../../../embedded';
import { TEST_ENV } from '../../helpers/platform';
import { LogCapture } from '../../helpers/logCapture';

/** The service token the bot tests' platforms accept. */
export const BOT_SERVICE_TOKEN = 'bot-client-service-token-0123456789';

/**
 * A platform with identity and the social area on a fixed port and data directory, so a test can stop it and start
 * it again where the bot expects it, with everything it stored.
 */
export async function startBotPlatform(dataDir: string, port: number): Promise<Platform> {
  const config = loadConfig({
    ...TEST_ENV,
    DATA_DIR: dataDir,
    PORT: String(port),
    BRAIN_SERVICE_TOKEN: BOT_SERVICE_TOKEN,
  });
  const logger = createLogger({ level: config.LOG_LEVEL, destination: new LogCapture() });
  return Platform.start({
    config,
    logger,
    engines: embeddedEngines,
    parts: async (context) => {
      const auth = createAuthService(context);
      const social = await createSocialArea(context, auth);
      return combineParts([
        createHealthService(context),
        { services: [auth.register], close: () => auth.close() },
        social,
      ]);
    },
  });
}
