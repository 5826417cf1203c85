import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { ForbiddenError } from '../../../platform/errors';
import type { ApiRoutes } from '../../../platform/http/routes';
import type { DevOutbox } from './devOutbox';

/** `GET /dev/outbox`: the mails the development outbox kept, newest first. */
export const OutboxSchema = z
  .object({
    mails: z.array(
      z.object({ to: z.string(), subject: z.string(), text: z.string(), sent_at: z.iso.datetime() }),
    ),
  })
  .meta({ id: 'DevOutbox' });

/** Whether an address (as Express resolved it through TRUST_PROXY) is this machine. */
function isLoopback(address: string | undefined): boolean {
  if (!address || !isIP(address)) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** The outbox holds sign-in codes: only a browser or script on the development machine itself may read it. */
const loopbackOnly: RequestHandler = (req, _res, next) =>
  next(
    isLoopback(req.ip)
      ? undefined
      : new ForbiddenError(
          'The development outbox is only served to this machine',
          'DEV_OUTBOX_LOOPBACK_ONLY',
        ),
  );

/** Registered only outside production when SMTP_URL is unset (so production answers 404). */
export function registerOutboxRoutes(routes: ApiRoutes, outbox: DevOutbox): void {
  routes.add({
    method: 'get',
    path: '/dev/outbox',
    summary: 'Development only: the mails sent without SMTP (verification codes), newest first',
    description:
      'Exists when SMTP_URL is unset and NODE_ENV is not production; served to loopback clients only (403 ' +
      'DEV_OUTBOX_LOOPBACK_ONLY otherwise). Production has no such route (404).',
    tags: ['auth', 'development'],
    middleware: [loopbackOnly],
    responses: { 200: { description: 'The kept mails', schema: OutboxSchema } },
    handler: () => ({
      status: 200,
      body: {
        mails: outbox.list().map((mail) => ({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          sent_at: mail.sentAt.toISOString(),
        })),
      },
    }),
  });
}
