import type { PlatformContext, ProductParts } from '../../../platform/platform';
import { combineParts } from '../../../productParts';
import { createAuthService } from '../../../services/auth';
import { createEconomyArea, type EconomyArea } from '../../../services/economy';
import { createMarketplaceArea, type MarketplaceArea } from '../../../services/marketplace';

/** Identity, the economy and the marketplace (no world rooms), with handles on the two areas. */
export async function marketParts(
  context: PlatformContext,
): Promise<{ parts: ProductParts; economy: EconomyArea; market: MarketplaceArea }> {
  const auth = createAuthService(context);
  const economy = await createEconomyArea(context, auth);
  const market = await createMarketplaceArea(context, auth, economy.economy);
  const parts = {
    ...combineParts([{ services: [auth.register], close: () => auth.close() }, economy, market]),
    adminGuard: auth.adminGuard,
  };
  return { parts, economy, market };
}
