import type { WalletSessionBody } from './schemas';
import type { WalletSession } from './walletSignIn';

/** SPEC 2.2: the wallet verify result. */
export function presentWalletSession(session: WalletSession): WalletSessionBody {
  return {
    token: session.token,
    address: session.address,
    issued_at: session.issuedAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
  };
}
