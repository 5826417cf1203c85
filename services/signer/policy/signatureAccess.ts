import type { Types } from 'mongoose';
import type { IdentityRecord } from '../../../models/Identity';
import { UnauthorizedError } from '../../../platform/errors';
import type { Principal } from '../../../access/principal';
import { addressNotOwned } from '../errors';
import type { SignatureRequester } from '../issuing/signatureStore';

/** The identities of a user (services/auth Accounts fits). */
export interface IdentityLookup {
  identitiesOf(userId: Types.ObjectId): Promise<IdentityRecord[]>;
}

/**
 * Who may ask for a signature for an address (the decision SPEC 5 leaves open): the service token
 * (BRAIN_SERVICE_TOKEN; bots, the game backend) for any address; a signed-in user only for a wallet they proved
 * with SIWE: the session's own wallet, or another wallet identity linked to their account. Everyone else gets 403
 * `SIGNER_ADDRESS_NOT_OWNED`, before the request counts against the address's rate limit, so nobody can use up
 * someone else's quota or cooldown.
 */
export class SignatureAccess {
  constructor(private readonly identities: IdentityLookup) {}

  /**
   * Resolves to who is asking, or throws 401/403. `principal` is what the auth area's guard authenticated (the
   * routes pass `req.principal`, the MCP gateway its caller); `address` is already validated.
   */
  async requireMayRequestFor(principal: Principal | undefined, address: string): Promise<SignatureRequester> {
    if (!principal) throw new UnauthorizedError('Sign in or present the service token');
    if (principal.kind === 'service') return { requestedBy: 'service' };
    const requestedBy = `user:${principal.userId.toHexString()}`;
    const wanted = address.toLowerCase();
    if (principal.address?.toLowerCase() === wanted) return { requestedBy };
    const wallets = await this.identities.identitiesOf(principal.userId);
    const owned = wallets.some(
      (identity) => identity.kind === 'wallet' && identity.verifiedAt !== null && identity.subject === wanted,
    );
    if (owned) return { requestedBy };
    throw addressNotOwned(address);
  }
}
