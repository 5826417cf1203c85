import type { PlatformContext, ProductParts } from './platform/platform';
import { MindBoard } from './rooms/minds';
import { InProcessWorldEventBus } from './rooms/worldEvents';
import type { MemoryService } from './services/brain/memory/memoryService';
import { createCompanionArea, publishBondLevels } from './services/companions';
import { createNpcArea } from './services/npc';
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

/** What the composition may be handed instead of building it. */
export interface ProductOptions {
  /**
   * The memory service NPCs and companions remember with (issue 18's implementation at merge; tests pass an
   * in-process one). Without it the NPC and companion brains are not built and the world speaks its fixed lines.
   */
  memory?: MemoryService;
}

/**
 * The composition root of the product: builds the health probes, each service area's routes, the world's room
 * types and the background jobs from the opened stores. Each area contributes one `ProductParts`; identity comes
 * first because every other area authenticates through its guard.
 */
export async function productParts(
  context: PlatformContext,
  options: ProductOptions = {},
): Promise<ProductParts> {
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
    // One world event bus and one minds board: the world publishes and consults, the brains subscribe and serve.
    const events = new InProcessWorldEventBus((err, event) =>
      context.logger.error({ err, eventType: event.type }, 'world event subscriber failed'),
    );
    const minds = new MindBoard();
    const world = await createWorldArea(context, auth, { economy, events, minds });
    areas.push(world);
    const stopBondLevels = publishBondLevels(world.service.world, events, notifications.notify);
    areas.push({ close: async () => stopBondLevels() });
    if (options.memory) {
      const brains = { events, minds, memory: options.memory };
      areas.push(createNpcArea(context, auth, { ...brains, world: world.service.world }));
      areas.push(createCompanionArea(context, auth, { ...brains, world: world.service }));
    }
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
