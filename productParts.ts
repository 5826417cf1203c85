import type { PlatformContext, ProductParts } from './platform/platform';
import { backupGateOf } from './platform/backup';
import { MindBoard } from './rooms/minds';
import { InProcessWorldEventBus } from './rooms/worldEvents';
import { auditedMoneyEvents, createAdminArea, openAuditLog } from './services/admin';
import { createAuthService } from './services/auth';
import { createBrainArea } from './services/brain';
import type { MemoryService } from './services/brain/memory/memoryService';
import { createCompanionArea, publishBondLevels } from './services/companions';
import { createEconomyArea } from './services/economy';
import { createHealthService } from './services/health';
import { createInfluencerArea } from './services/influencer';
import { createMarketplaceArea } from './services/marketplace';
import { createMcpArea } from './services/mcp';
import { createWorldArea } from './services/mud';
import { createNotificationsArea, notifyingMoneyEvents } from './services/notifications';
import { createNpcArea } from './services/npc';
import { createQuestsArea } from './services/quests';
import { createSignerArea } from './services/signer';
import { createSocialArea } from './services/social';
import { createWebClientArea } from './services/web';

/** What the composition may be handed instead of building it. */
export interface ProductOptions {
  /**
   * The memory service NPCs, companions and the social graph remember with. Default: the brain's own (api role).
   * Without one (a process without the api role) the NPC and companion brains are not built and the world speaks
   * its fixed lines.
   */
  memory?: MemoryService;
}

/**
 * The composition root of the product: builds the health probes, each service area's routes, the world's room
 * types and the background jobs from the opened stores. Each area contributes one `ProductParts`; the audit log
 * comes first (every area records into it) and identity next (every area authenticates through its guard).
 */
export async function productParts(
  context: PlatformContext,
  options: ProductOptions = {},
): Promise<ProductParts> {
  const audit = await openAuditLog(context);
  const auth = createAuthService(context, { audit });
  const areas: ProductParts[] = [
    createHealthService(context),
    { close: () => audit.close() },
    { services: [auth.register], jobs: auth.jobs, close: () => auth.close() },
  ];
  try {
    // Product areas (each adds one line).
    const brain = await createBrainArea(context, auth, { audit, backupGate: backupGateOf(context) });
    areas.push(brain);
    const memory = options.memory ?? brain.memory;
    const notifications = await createNotificationsArea(context, auth);
    areas.push(notifications);
    const { notify } = notifications;
    const { economy, ...economyParts } = await createEconomyArea(context, auth, {
      events: notifyingMoneyEvents(notify, auditedMoneyEvents(audit, context.clock)),
    });
    areas.push(economyParts);
    // One world event bus and one minds board: the world publishes and consults, the brains subscribe and serve.
    const events = new InProcessWorldEventBus((err, event) =>
      context.logger.error({ err, eventType: event.type }, 'world event subscriber failed'),
    );
    const minds = new MindBoard();
    const world = await createWorldArea(context, auth, { economy, events, minds });
    areas.push(world);
    const stopBondLevels = publishBondLevels(world.service.world, events, notify);
    areas.push({ close: async () => stopBondLevels() });
    if (memory) {
      const brains = { events, minds, memory };
      areas.push(createNpcArea(context, auth, { ...brains, world: world.service.world }));
      areas.push(createCompanionArea(context, auth, { ...brains, world: world.service }));
    }
    const signer = await createSignerArea(context, auth, { audit });
    areas.push(signer);
    const marketplace = await createMarketplaceArea(context, auth, economy, world.service);
    world.connectMarket(marketplace.worldMarket);
    areas.push(marketplace);
    const {
      social,
      status: socialStatus,
      ...socialParts
    } = await createSocialArea(context, auth, {
      events,
      audit,
      notify,
      memory,
    });
    areas.push(socialParts);
    world.connectStandings((userId) => social.standing(userId));
    const quests = await createQuestsArea(context, auth, { world: world.service, events, notify });
    areas.push(quests);
    const influencer = await createInfluencerArea(context, auth, brain.service);
    areas.push(influencer);
    const statuses = [
      ...(brain.memoryStatus ? [brain.memoryStatus] : []),
      ...(brain.decisionStatus ? [brain.decisionStatus] : []),
      socialStatus,
      quests.status,
      marketplace.status,
      ...(influencer.status ? [influencer.status] : []),
    ];
    const admin = createAdminArea(context, auth, {
      audit,
      brain: brain.service,
      world: world.service,
      areas: statuses,
    });
    areas.push(admin);
    // The MCP gateway after every area it offers: its workers call them through their service interfaces.
    areas.push(
      await createMcpArea(context, {
        auth,
        brain: brain.service,
        memory,
        decisions: brain.decisions,
        graph: brain.graph,
        corpusGraph: brain.corpusGraph,
        security: brain.security,
        world: world.service,
        signer,
        economy,
        marketplace: marketplace.service,
        social,
        quests: quests.service,
        influencer: influencer.service,
        admin: admin.service,
        audit,
      }),
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
    listeners: areas.flatMap((area) => area.listeners ?? []),
    close: async () => {
      for (const area of [...areas].reverse()) await area.close?.();
    },
  };
}
