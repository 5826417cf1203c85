import type { Connection, Model } from 'mongoose';
import { identityModel, type IdentityRecord } from '../../models/Identity';
import { addressAccount, userAccount } from './accountIds';
import type { EconomyCore } from './economyCore';

/**
 * Resolves a wallet address to its economy account: a wallet identity linked to a user gives that user's account;
 * any other address its own `address:` account (the signer's service token may ask for unlinked addresses). When an
 * address that had its own account is later linked, its balances move once to the user's account (kind `link`).
 */
export class AddressAccounts {
  private readonly identities: Model<IdentityRecord>;

  constructor(
    connection: Connection,
    private readonly core: EconomyCore,
  ) {
    this.identities = identityModel(connection);
  }

  /** The account id `address` spends from (any case accepted). */
  async resolve(address: string): Promise<string> {
    const subject = address.toLowerCase();
    const identity = await this.identities
      .findOne({ kind: 'wallet', subject }, { userId: 1 })
      .lean<Pick<IdentityRecord, 'userId'>>();
    if (!identity) return addressAccount(subject);
    const account = userAccount(identity.userId.toHexString());
    await this.absorb(addressAccount(subject), account);
    return account;
  }

  /** Moves what an unlinked address account holds into the user's account (idempotent per account version). */
  private async absorb(from: string, to: string): Promise<void> {
    const old = await this.core.accounts.findById(from).lean();
    if (!old || (old.soft <= 0 && old.hard <= 0)) return;
    const legs = (['soft', 'hard'] as const)
      .filter((currency) => old[currency] > 0)
      .flatMap((currency) => [
        {
          account: from,
          currency,
          delta: -old[currency],
          kind: 'link' as const,
          floor: 'available' as const,
        },
        { account: to, currency, delta: old[currency], kind: 'link' as const, floor: 'none' as const },
      ]);
    for (let i = 0; i < legs.length; i += 2) {
      await this.core.runner
        .run({
          id: `link:${from}:${old.v}:${legs[i].currency}`,
          kind: 'link',
          ref: `${from}>${to}`,
          request: { from, to, amount: legs[i + 1].delta },
          legs: [legs[i], legs[i + 1]],
        })
        .catch((error: unknown) => {
          // The address account changed meanwhile (a concurrent absorb won): the next resolve moves the rest.
          if (!(error instanceof Error && 'code' in error && error.code === 'INSUFFICIENT_FUNDS'))
            throw error;
        });
    }
  }
}
