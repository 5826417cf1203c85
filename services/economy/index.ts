import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { AuthService } from '../auth';
import { SoftCurrencyDecay } from './decay';
import { openEconomyCore } from './economyCore';
import { EconomyService } from './economyService';
import { loggedMoneyEvents, type MoneyEvents } from './moneyEvents';
import { EconomyRecovery } from './recovery';
import { registerEconomyRoutes } from './router';

export { EconomyService } from './economyService';
export { loggedMoneyEvents, type MoneyEvent, type MoneyEvents } from './moneyEvents';
// What other areas use (the MCP tools publish these routes' own schemas, so a tool and its route cannot drift).
export { idempotencyConflict, replayedError } from './errors';
export { hashRequest, RECOVERY_AFTER_MS } from './operations';
export { SYSTEM_ACCOUNTS, systemAccount, userAccount } from './accountIds';
export { replayHeaders, presentLedger, presentTransfer, presentWallet } from './presenters';
export { AmountSchema, CurrencySchema, LedgerPageSchema, TransferSchema, WalletSchema } from './schemas';
export { type WorldPurse, economyWorldPurse } from './worldPurse';
export { ForgeFunds } from './forgeFunds';

/** Options of createEconomyArea: where money events go (default: structured log lines, until the audit log). */
export interface EconomyAreaOptions {
  events?: MoneyEvents;
}

/** The economy's parts, plus the service other areas (world, signer, marketplace) move coins through. */
export interface EconomyArea extends ProductParts {
  economy: EconomyService;
  recovery: EconomyRecovery;
  decay: SoftCurrencyDecay;
}

/**
 * The economy area (SPEC 1): accounts, the always-on ledger, transfers, grants, holds and the conservation audit on
 * MongoDB; the /economy routes in api processes; the recovery job (interrupted operations, forge holds) and the monthly decay job for workers.
 */
export async function createEconomyArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  options: EconomyAreaOptions = {},
): Promise<EconomyArea> {
  const { stores, clock, config } = context;
  if (!stores.mongo) throw new Error('The economy needs MongoDB');
  const logger = context.logger.child({ component: 'economy' });
  const core = await openEconomyCore(stores.mongo, clock, options.events ?? loggedMoneyEvents(logger));
  const economy = new EconomyService(core, stores.mongo);
  const recovery = new EconomyRecovery(core, stores.mongo, logger);
  const decay = new SoftCurrencyDecay(core, logger, config.ECONOMY_SOFT_DECAY_MONTHLY_PERCENT);
  return {
    economy,
    recovery,
    decay,
    services: hasRole(config, 'api') ? [(routes) => registerEconomyRoutes(routes, economy, auth.guard)] : [],
    jobs: [(agenda) => recovery.registerJob(agenda), (agenda) => decay.registerJob(agenda)],
  };
}
