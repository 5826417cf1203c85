import type { Request, RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from '../../platform/errors';
import type { ApiRoutes } from '../../platform/http/routes';
import { type AuthGuard, userOf } from '../../access/authGuard';
import { userAccount } from './accountIds';
import type { EconomyService } from './economyService';
import { idempotencyKeyOf } from '../../platform/http/idempotencyKey';
import {
  presentAudit,
  presentGrant,
  presentLedger,
  presentTransfer,
  presentWallet,
  replayHeaders,
} from './presenters';
import {
  AuditSchema,
  GrantRequestSchema,
  GrantSchema,
  LedgerPageSchema,
  LedgerQuerySchema,
  TransferRequestSchema,
  TransferSchema,
  WalletSchema,
} from './schemas';

const callerId = (req: Request) =>
  (userOf(req) as NonNullable<ReturnType<typeof userOf>>).userId.toHexString();

/** The service token or an admin user (grants). */
function serviceOrAdmin(guard: AuthGuard): RequestHandler[] {
  return [
    guard.authenticate(),
    (req, _res, next) => {
      if (!req.principal) return next(new UnauthorizedError('Authentication required'));
      const user = userOf(req);
      next(
        req.principal.kind === 'service' || user?.roles.includes('admin')
          ? undefined
          : new ForbiddenError('Grants need the service token or an admin', 'ROLE_REQUIRED'),
      );
    },
  ];
}

/** The economy's routes: the caller's wallet and ledger, transfers, grants and the admin conservation audit. */
export function registerEconomyRoutes(routes: ApiRoutes, economy: EconomyService, guard: AuthGuard): void {
  routes.add({
    method: 'get',
    path: '/economy/wallet',
    summary: "The caller's balances",
    description:
      'Spendable soft and hard currency and the soft currency on hold (forge starts), as decimal strings.',
    tags: ['economy'],
    security: 'bearer',
    middleware: guard.requireUser,
    responses: { 200: { description: 'Balances', schema: WalletSchema } },
    handler: async ({ req }) => ({ status: 200, body: presentWallet(await economy.wallet(callerId(req))) }),
  });

  routes.add({
    method: 'get',
    path: '/economy/ledger',
    summary: "The caller's ledger, newest first",
    tags: ['economy'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { query: LedgerQuerySchema },
    responses: { 200: { description: 'One page and the next cursor', schema: LedgerPageSchema } },
    handler: async ({ req, query }) => ({
      status: 200,
      body: presentLedger(await economy.ledger(callerId(req), query)),
    }),
  });

  routes.add({
    method: 'post',
    path: '/economy/transfer',
    summary: 'Pay another player',
    description:
      'Soft or hard currency, any amount the spendable balance covers. Idempotent: a retry with the same ' +
      'idempotency_key answers the first result with `Idempotent-Replayed: true`; the same key with another body is ' +
      '409 IDEMPOTENCY_CONFLICT.',
    tags: ['economy'],
    security: 'bearer',
    // Guests (tier 0) play and hold coins but move none out: a fresh guest's purse is not farmed into accounts.
    middleware: guard.requireTier(1),
    request: { body: TransferRequestSchema },
    responses: {
      201: { description: 'The transfer', schema: TransferSchema },
      404: { description: 'RECIPIENT_NOT_FOUND' },
      409: { description: 'INSUFFICIENT_FUNDS, TRANSFER_TO_SELF, IDEMPOTENCY_CONFLICT' },
    },
    handler: async ({ req, body }) => {
      const { operation, replayed } = await economy.transfer({
        fromUserId: callerId(req),
        toUserId: body.to_user_id,
        currency: body.currency,
        amount: body.amount,
        memo: body.memo,
        idempotencyKey: idempotencyKeyOf(req, body.idempotency_key),
      });
      return { status: 201, body: presentTransfer(operation), headers: replayHeaders(replayed) };
    },
  });

  routes.add({
    method: 'post',
    path: '/economy/grants',
    summary: 'Grant coins to a user or a wallet address',
    description:
      'For the service token and admins (game rewards, support, acceptance tests). An address linked to a user ' +
      'credits that user; hard grants respect the 21,000,000 supply cap (409 SUPPLY_CAP_REACHED). Idempotent.',
    tags: ['economy'],
    security: 'admin',
    middleware: serviceOrAdmin(guard),
    request: { body: GrantRequestSchema },
    responses: {
      201: { description: 'The grant', schema: GrantSchema },
      404: { description: 'RECIPIENT_NOT_FOUND: no user with that id' },
      409: { description: 'SUPPLY_CAP_REACHED, IDEMPOTENCY_CONFLICT' },
    },
    handler: async ({ req, body }) => {
      const idempotencyKey = idempotencyKeyOf(req, body.idempotency_key);
      const account = await economy.grantee(body);
      const user = userOf(req);
      const { operation, replayed } = await economy.grant({
        account,
        currency: body.currency,
        amount: body.amount,
        reason: body.reason,
        idempotencyKey,
        grantor: user ? userAccount(user.userId.toHexString()) : 'service',
      });
      return { status: 201, body: presentGrant(operation), headers: replayHeaders(replayed) };
    },
  });

  routes.add({
    method: 'get',
    path: '/admin/economy/audit',
    summary: 'Conservation audit of both currencies',
    description:
      'For each currency: balances + holds + fees + decayed (+ amounts in flight) = minted − burned; the hard ' +
      'supply within its cap; every account equal to the sum of its ledger lines.',
    tags: ['economy', 'admin'],
    security: 'admin',
    middleware: guard.requireRole('admin'),
    responses: { 200: { description: 'The figures and ok', schema: AuditSchema } },
    handler: async () => ({ status: 200, body: presentAudit(await economy.audit()) }),
  });
}
