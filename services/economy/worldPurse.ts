import { SYSTEM_ACCOUNTS, systemAccount, userAccount } from './accountIds';
import type { EconomyService } from './economyService';

/**
 * The world's coins as the soft (and hard) currency of the player's economy account. The character store calls it
 * at its persistence boundary: `balance` when a character is loaded (the account is the truth), `post` for the coins
 * a save shows the world made or took since the last sync, `migrate` once for a character saved before the economy.
 */
export interface WorldPurse {
  /** Spendable soft and hard balance of the user's account. */
  balance(userId: string): Promise<{ soft: number; hard: number }>;
  /** Posts the world's soft-coin change of save number `seq` (idempotent per user and seq). */
  post(userId: string, seq: number, delta: number): Promise<void>;
  /** Moves a pre-economy character's coins into its account, once per user. */
  migrate(userId: string, coins: { soft: number; hard: number }): Promise<void>;
}

/**
 * WorldPurse on the economy: coins the world pays out come from the issuer and coins it takes go to the burn account
 * (kind `world`); both legs may run the player's balance below zero only in the race where an external debit and
 * unsaved world spending overlap, which conserves every coin (the debt shows as a negative balance).
 */
export function economyWorldPurse(economy: EconomyService): WorldPurse {
  return {
    balance: async (userId) => {
      const wallet = await economy.wallet(userId);
      return { soft: wallet.soft, hard: wallet.hard };
    },
    post: async (userId, seq, delta) => {
      if (delta === 0) return;
      const account = userAccount(userId);
      const id = `world:${userId}:${seq}`;
      const [from, to] =
        delta > 0
          ? [systemAccount(SYSTEM_ACCOUNTS.issuer, 'soft', id), account]
          : [account, systemAccount(SYSTEM_ACCOUNTS.burn, 'soft', id)];
      const amount = Math.abs(delta);
      await economy.run({
        id,
        kind: 'world',
        ref: `world-save:${seq}`,
        request: { userId, seq, delta },
        legs: [
          { account: from, currency: 'soft', delta: -amount, kind: 'world', floor: 'none' },
          { account: to, currency: 'soft', delta: amount, kind: 'world', floor: 'none' },
        ],
      });
    },
    migrate: async (userId, coins) => {
      const account = userAccount(userId);
      for (const currency of ['soft', 'hard'] as const) {
        if (coins[currency] <= 0) continue;
        const id = `migration:${userId}:${currency}`;
        await economy.run({
          id,
          kind: 'migration',
          ref: 'character-coins',
          request: { userId, currency, amount: coins[currency] },
          legs: [
            {
              account: systemAccount(SYSTEM_ACCOUNTS.issuer, currency, id),
              currency,
              delta: -coins[currency],
              kind: 'migration',
              floor: currency === 'hard' ? 'available' : 'none',
            },
            { account, currency, delta: coins[currency], kind: 'migration', floor: 'none' },
          ],
        });
      }
    },
  };
}
