import type { Connection } from 'mongoose';
import { userModel } from '../../models/User';
import { Types } from 'mongoose';
import { type AuditReport, auditEconomy } from './audit';
import { type LedgerPage, type WalletView, readLedger, readWallet } from './accountReads';
import { userAccount } from './accountIds';
import { AddressAccounts } from './addressAccounts';
import type { EconomyCore } from './economyCore';
import { type GrantInput, grantCoins } from './grants';
import { type HoldInput, placeHold, releaseHold } from './holds';
import type { OperationOutcome, OperationRequest } from './operations';
import { type TransferInput, transferCoins } from './transfers';
import type { Currency } from '../../models/EconomyAccount';

/**
 * The economy as other areas see it (the world's character store, the signer, the marketplace): read and move
 * coins of platform users and wallet addresses. Every change is an idempotent operation with ledger lines.
 */
export class EconomyService {
  readonly addresses: AddressAccounts;

  constructor(
    readonly core: EconomyCore,
    private readonly connection: Connection,
  ) {
    this.addresses = new AddressAccounts(connection, core);
  }

  /** Balances of a user's account. */
  wallet(userId: string): Promise<WalletView> {
    return readWallet(this.core, userAccount(userId));
  }

  /** Balances of any account id (`user:…`, `address:…`, `system:…`). */
  account(id: string): Promise<WalletView> {
    return readWallet(this.core, id);
  }

  /** A page of a user's ledger. */
  ledger(
    userId: string,
    options: { currency?: Currency; cursor?: string; limit: number },
  ): Promise<LedgerPage> {
    return readLedger(this.core, userAccount(userId), options);
  }

  /** Player-to-player payment (see transferCoins). */
  transfer(input: TransferInput): Promise<OperationOutcome> {
    return transferCoins(this.core, (id) => this.userExists(id), input);
  }

  /** New coins for an account (see grantCoins). */
  grant(input: GrantInput): Promise<OperationOutcome> {
    return grantCoins(this.core, input);
  }

  /** Places a soft-currency hold (see placeHold). */
  hold(input: HoldInput): Promise<OperationOutcome> {
    return placeHold(this.core, input);
  }

  /** Releases a hold at once (the signature it guarded was never handed out). */
  release(account: string, holdId: string): Promise<OperationOutcome> {
    return releaseHold(this.core, account, holdId);
  }

  /** Runs any operation (the world's saves, the marketplace's purchase steps). */
  run(request: OperationRequest): Promise<OperationOutcome> {
    return this.core.runner.run(request);
  }

  /** The conservation audit. */
  audit(): Promise<AuditReport> {
    return auditEconomy(this.core);
  }

  private async userExists(userId: string): Promise<boolean> {
    if (!Types.ObjectId.isValid(userId)) return false;
    return (await userModel(this.connection).exists({ _id: userId })) !== null;
  }
}
