import { z } from 'zod';
import type { ApiRoutes } from '../../../platform/http/routes';
import type { DevOutbox } from './devOutbox';
import { outboxReaders } from './outboxAccess';

/** `GET /dev/outbox`: the mails the development outbox kept, newest first. */
export const OutboxSchema = z
  .object({
    mails: z.array(
      z.object({ to: z.string(), subject: z.string(), text: z.string(), sent_at: z.iso.datetime() }),
    ),
  })
  .meta({ id: 'DevOutbox' });

/** Registered only outside production when SMTP_URL is unset (so production answers 404). */
export function registerOutboxRoutes(routes: ApiRoutes, outbox: DevOutbox): void {
  routes.add({
    method: 'get',
    path: '/dev/outbox',
    summary: 'Development only: the mails sent without SMTP (verification codes), newest first',
    description:
      'Exists when SMTP_URL is unset and NODE_ENV is development or test; served to this machine as TRUST_PROXY ' +
      'resolves the client (a loopback request through an untrusted proxy is not), or with the X-Dev-Outbox-Token ' +
      'printed at start-up (403 DEV_OUTBOX_LOOPBACK_ONLY otherwise). Production has no such route (404).',
    tags: ['auth', 'development'],
    middleware: [outboxReaders(outbox.readToken)],
    responses: {
      200: { description: 'The kept mails', schema: OutboxSchema },
      403: { description: 'DEV_OUTBOX_LOOPBACK_ONLY' },
    },
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
