import type { PlatformContext, ProductParts } from './platform/platform';
import { createAuthService } from './services/auth';
import { createBrainArea } from './services/brain';
import { createEconomyArea, loggedMoneyEvents } from './services/economy';
import { createHealthService } from './services/health';
import { createMarketplaceArea } from './services/marketplace';
import { createMcpArea } from './services/mcp';
import { createNotificationsArea, notifyingMoneyEvents } from './services/notifications';
import { createWorldArea } from './services/mud';
import { createSignerArea } from './services/signer';
import { createWebClientArea } from './services/web';

/**
 * The composition root of the product: builds the health probes, each service area's routes, the world's room
 * types and the background jobs from the opened stores. Each area contributes one `ProductParts`; identity comes
 * first because every other area authenticates through its guard.
 */
export async function productParts(context: PlatformContext): Promise<ProductParts> {
  const auth = createAuthService(context);
  const areas: ProductParts[] = [
    createHealthService(context),
    { services: [auth.register], jobs: auth.jobs, close: () => auth.close() },
  ];
  try {
    // Product areas (each adds one line).
    const brain = await createBrainArea(context, auth);
    areas.push(brain);
    const notifications = await createNotificationsArea(context, auth);
    areas.push(notifications);
    const moneyEvents = loggedMoneyEvents(context.logger);
    const { economy, ...economyParts } = await createEconomyArea(context, auth, {
      events: notifyingMoneyEvents(notifications.notify, moneyEvents),
    });
    areas.push(economyParts);
    const world = await createWorldArea(context, auth, { economy });
    areas.push(world);
    const signer = await createSignerArea(context, auth);
    areas.push(signer);
    areas.push(await createMarketplaceArea(context, auth, economy));
    // The MCP gateway after the areas: its workers call them through their service interfaces.
    areas.push(await createMcpArea(context, { auth, brain: brain.service, world: world.service, signer }));
    // The web client last: it serves the page at / and its assets.
    areas.push(createWebClientArea(context));
  } catch (error) {
    // The platform never sees parts that failed to build, so release the ones already built here.
    await combineParts(areas).close?.();
    throw error;
  }
  return { ...combineParts(areas), adminGuard: auth.adminGuard, cors: auth.cors };
}

/** Concatenates the areas' parts; `close` releases them in reverse order of creation. */
export function combineParts(areas: ProductParts[]): ProductParts {
  return {
    probes: areas.flatMap((area) => area.probes ?? []),
    services: areas.flatMap((area) => area.services ?? []),
    rooms: areas.flatMap((area) => area.rooms ?? []),
    jobs: areas.flatMap((area) => area.jobs ?? []),
    upgrades: areas.flatMap((area) => area.upgrades ?? []),
    close: async () => {
      for (const area of [...areas].reverse()) await area.close?.();
    },
  };
}
