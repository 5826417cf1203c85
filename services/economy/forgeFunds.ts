import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock';
import { openEconomyCore } from './economyCore';
import { EconomyService } from './economyService';
import { loggedMoneyEvents } from './moneyEvents';

/** How long after a start signature's deadline its hold stays, for the usage tracking to see a late start. */
export const FORGE_HOLD_GRACE_MS = 10 * 60_000;

/** A soft-currency credit by wallet address (support tools, tests), once per idempotency key. */
export interface AddressCredit {
  idempotencyKey: string;
  address: string;
  amount: bigint;
  reason: string;
}

/**
 * The signer's view of the economy (SPEC 4.10 rule 3): a wallet address's spendable soft currency (the linked
 * user's account, or the address's own) and a hold of `zenCommitted` per issued start signature (hold id: the
 * signature hash). The recovery job consumes the hold once the start is seen on chain and releases it once the
 * signature expired unused (deadline + FORGE_HOLD_GRACE_MS).
 */
export class ForgeFunds {
  private constructor(readonly economy: EconomyService) {}

  /** Opens the economy's stores on `connection` (the same collections the economy area uses). */
  static async open(connection: Connection, clock: Clock, logger: Logger): Promise<ForgeFunds> {
    const core = await openEconomyCore(connection, clock, loggedMoneyEvents(logger));
    return new ForgeFunds(new EconomyService(core, connection));
  }

  /** Spendable soft currency of the account `address` spends from. */
  async getBalance(address: string): Promise<bigint> {
    const account = await this.economy.addresses.resolve(address);
    return BigInt((await this.economy.account(account)).soft);
  }

  /**
   * Holds `amount` for the start signature `holdId` until `expiresAt` + grace; answers false (nothing held) when the
   * spendable balance does not cover it.
   */
  async hold(address: string, amount: bigint, holdId: string, expiresAt: Date): Promise<boolean> {
    if (amount > BigInt(Number.MAX_SAFE_INTEGER)) return false;
    const account = await this.economy.addresses.resolve(address);
    try {
      await this.economy.hold({
        account,
        holdId,
        amount: Number(amount),
        expiresAt: new Date(expiresAt.getTime() + FORGE_HOLD_GRACE_MS),
        purpose: 'forge-start',
      });
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'INSUFFICIENT_FUNDS') return false;
      throw error;
    }
  }

  /** Releases the hold of a signature that was never handed out (storing it failed). */
  async release(address: string, holdId: string): Promise<void> {
    await this.economy.release(await this.economy.addresses.resolve(address), holdId);
  }

  /** Grants soft currency to the account of `address`. */
  async credit(change: AddressCredit): Promise<void> {
    await this.economy.grant({
      account: await this.economy.addresses.resolve(change.address),
      currency: 'soft',
      amount: Number(change.amount),
      reason: change.reason,
      idempotencyKey: change.idempotencyKey,
      grantor: 'service',
    });
  }
}
