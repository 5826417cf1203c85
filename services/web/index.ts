import path from 'node:path';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import { PROJECT_ROOT } from '../../platform/projectRoot';
import { registerWebClient } from './router';

/** Where `npm run build` puts the web client (clients/web/build.mjs). */
export const WEB_CLIENT_DIR = path.join(PROJECT_ROOT, 'dist', 'web');

/**
 * The browser client as a product area: with the api role and WEB_CLIENT_ENABLED (default on), the page the
 * players use is served at `/` from the same origin as the API and the game's WebSocket.
 */
export function createWebClientArea(context: PlatformContext, directory = WEB_CLIENT_DIR): ProductParts {
  if (!context.config.WEB_CLIENT_ENABLED) return {};
  return { services: [(routes) => registerWebClient(routes, directory)] };
}
