import type { RequestHandler } from 'express';
import type { ApiRoutes } from '../../../platform/http/routes';
import type { AuthGuard } from '../../../access/authGuard';
import { userOf } from '../../../access/authGuard';
import { presentWalletSession } from './presenters';
import { NonceResponseSchema, WalletSessionSchema, WalletVerifyRequestSchema } from './schemas';
import type { WalletSignIn } from './walletSignIn';

/** SPEC 4.1: `POST /auth/wallet/nonce` (201) and `POST /auth/wallet/verify` (202); both 501 while SIWE is off. */
export function registerWalletRoutes(routes: ApiRoutes, wallet: WalletSignIn, guard: AuthGuard): void {
  // Decided before the body is validated: a disabled route is 501 whatever is posted to it.
  const whileEnabled: RequestHandler = (_req, _res, next) => {
    try {
      wallet.ensureEnabled();
      next();
    } catch (error) {
      next(error);
    }
  };
  routes.add({
    method: 'post',
    path: '/auth/wallet/nonce',
    summary: 'Issue a single-use SIWE nonce',
    tags: ['auth'],
    middleware: [whileEnabled],
    responses: {
      201: { description: 'Nonce issued', schema: NonceResponseSchema },
      501: { description: 'Wallet sign-in is disabled' },
    },
    handler: async () => ({ status: 201, body: { nonce: await wallet.issueNonce() } }),
  });

  routes.add({
    method: 'post',
    path: '/auth/wallet/verify',
    summary: 'Verify a signed EIP-4361 message and open a session (links the wallet when already signed in)',
    description:
      'Answers 401 with a code naming the failed check: SIWE_MESSAGE_INVALID, SIWE_NONCE_MISMATCH, ' +
      'SIWE_ADDRESS_MISMATCH, SIWE_DOMAIN_MISMATCH, SIWE_CHAIN_MISMATCH, SIWE_MESSAGE_EXPIRED, ' +
      'SIWE_MESSAGE_NOT_YET_VALID, SIWE_SIGNATURE_INVALID, SIWE_NONCE_UNKNOWN, SIWE_NONCE_REPLAYED.',
    tags: ['auth'],
    middleware: [whileEnabled, guard.authenticate()],
    request: { body: WalletVerifyRequestSchema },
    responses: {
      202: { description: 'Session opened', schema: WalletSessionSchema },
      401: { description: 'Invalid signature, message or nonce' },
      409: { description: 'The wallet belongs to another account (when linking)' },
      503: {
        description: 'A contract-wallet signature could not be checked: the Ethereum RPC is unreachable',
      },
      501: { description: 'Wallet sign-in is disabled' },
    },
    handler: async ({ body, req }) => ({
      status: 202,
      body: presentWalletSession(await wallet.verify(body, userOf(req)?.userId)),
    }),
  });
}
