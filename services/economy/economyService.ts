import type { Connection } from 'mongoose';
import { userModel } from '../../models/User';
import { Types } from 'mongoose';
import { type AuditReport, auditEconomy } from './audit';
import { type LedgerPage, type WalletView, readLedger, readWallet } from './accountReads';
import { userAccount, userIdOf } from './accountIds';
import { AddressAccounts } from './addressAccounts';
import type { EconomyCore } from './economyCore';
import { findById, nativeCollection } from '../../platform/stores/nativeCollection';
import { recipientNotFound } from './errors';
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

  /**
   * Calls `listener` with the users whose balances an operation just changed, for every completed operation except
   * the world's own saves and migrations (the world already shows those coins). The world uses it to show outside
   * changes to players in rooms. Returns the unsubscribe.
   */
  onUserBalancesChanged(listener: (userIds: string[]) => void): () => void {
    return this.core.runner.onDone((operation) => {
      if (operation.kind === 'world' || operation.kind === 'migration') return;
      const users = new Set(
        operation.legs.map((leg) => userIdOf(leg.account)).filter((id) => id !== undefined),
      );
      if (users.size > 0) listener([...users]);
    });
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

  /**
   * The account a grant credits: an existing user's (404 RECIPIENT_NOT_FOUND otherwise, so no grant creates an
   * account nobody owns), or a wallet address's (its linked user's when there is one).
   */
  async grantee(target: { user_id?: string; address?: string }): Promise<string> {
    if (target.user_id === undefined) return this.addresses.resolve(target.address ?? '');
    if (!(await this.userExists(target.user_id))) throw recipientNotFound(target.user_id);
    return userAccount(target.user_id);
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
    const users = nativeCollection(userModel(this.connection));
    return (await findById(users, new Types.ObjectId(userId))) !== null;
  }
}
