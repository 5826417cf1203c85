import type { PlatformContext, ProductParts } from '../../../platform/platform';
import { combineParts } from '../../../productParts';
import { createAuthService } from '../../../services/auth';
import { createEconomyArea, type EconomyArea } from '../../../services/economy';
import { createMarketplaceArea, type MarketplaceArea } from '../../../services/marketplace';
import { createWorldArea } from '../../../services/mud';

/**
 * Identity, the economy, the world (its rooms only with the game role) and the marketplace, with handles on the
 * economy and the marketplace.
 */
export async function marketParts(
  context: PlatformContext,
): Promise<{ parts: ProductParts; economy: EconomyArea; market: MarketplaceArea }> {
  const auth = createAuthService(context);
  const economy = await createEconomyArea(context, auth);
  const world = await createWorldArea(context, auth, { economy: economy.economy });
  const market = await createMarketplaceArea(context, auth, economy.economy, world.service);
  const parts = {
    ...combineParts([{ services: [auth.register], close: () => auth.close() }, economy, world, market]),
    adminGuard: auth.adminGuard,
  };
  return { parts, economy, market };
}
