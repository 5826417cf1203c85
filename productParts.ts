import type { PlatformContext, ProductParts } from './platform/platform';
import { auditedMoneyEvents, createAdminArea, openAuditLog } from './services/admin';
import { createAuthService } from './services/auth';
import { createBrainArea } from './services/brain';
import { createEconomyArea } from './services/economy';
import { createHealthService } from './services/health';
import { createMarketplaceArea } from './services/marketplace';
import { createMcpArea } from './services/mcp';
import { createWorldArea } from './services/mud';
import { createQuestsArea } from './services/quests';
import { createInfluencerArea } from './services/influencer';
import { InProcessWorldEventBus } from './rooms/worldEvents';
import { createSignerArea } from './services/signer';
import { createSocialArea } from './services/social';
import { createWebClientArea } from './services/web';

/**
 * The composition root of the product: builds the health probes, each service area's routes, the world's room
 * types and the background jobs from the opened stores. Each area contributes one `ProductParts`; identity comes
 * first because every other area authenticates through its guard.
 */
export async function productParts(context: PlatformContext): Promise<ProductParts> {
  // The audit log first (and closed last): every area records into it.
  const audit = await openAuditLog(context);
  const auth = createAuthService(context, { audit });
  const areas: ProductParts[] = [
    createHealthService(context),
    { close: () => audit.close() },
    { services: [auth.register], jobs: auth.jobs, close: () => auth.close() },
  ];
  try {
    // Product areas (each adds one line).
    const brain = await createBrainArea(context, auth);
    areas.push(brain);
    const { economy, ...economyParts } = await createEconomyArea(context, auth, {
      events: auditedMoneyEvents(audit, context.clock),
    });
    areas.push(economyParts);
    // One world event bus: the world publishes, the quests brain (and later memory and social) subscribe.
    const events = new InProcessWorldEventBus((err, event) =>
      context.logger.error({ err, eventType: event.type }, 'world event subscriber failed'),
    );
    const world = await createWorldArea(context, auth, { economy, events });
    areas.push(world);
    const signer = await createSignerArea(context, auth, { audit });
    areas.push(signer);
    const marketplace = await createMarketplaceArea(context, auth, economy, world.service);
    world.connectMarket(marketplace.worldMarket);
    areas.push(marketplace);
    areas.push(await createSocialArea(context, auth, { events, audit }));
    // The MCP gateway after the areas: its workers call them through their service interfaces.
    areas.push(
      await createMcpArea(context, {
        auth,
        brain: brain.service,
        world: world.service,
        signer,
        economy,
        marketplace: marketplace.service,
        audit,
      }),
    );
    const quests = await createQuestsArea(context, auth, { world: world.service, events });
    areas.push(quests);
    const influencer = await createInfluencerArea(context, auth, brain.service);
    areas.push(influencer);
    const statuses = [quests.status, ...(influencer.status ? [influencer.status] : [])];
    areas.push(
      createAdminArea(context, auth, { audit, brain: brain.service, world: world.service, areas: statuses }),
    );
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
