import type { ApiRoutes } from '../../../platform/http/routes';
import { presentMark } from '../presenters';
import { callerOf, originOf, type SocialGuards } from '../socialGuards';
import type { SocialService } from '../socialService';
import type { MarkKind } from '../trust/trustRules';
import { MarkRequestSchema, MarkSchema, type MarkRequest } from './schemas';

const DESCRIPTIONS: Record<MarkKind, string> = {
  fren: 'A fren mark adds 20 trust points while it stands and clears a foe mark; the marked web user is notified.',
  foe: 'A foe mark takes 30 trust points while it stands and clears a fren mark; the marked web user is notified.',
  block:
    'A block hides the person from friends and the graph and stops their interactions raising trust; audited.',
};

/** POST and DELETE of /social/brain/fren, /foe and /block: set and clear the caller's marks on another person. */
export function registerMarkRoutes(routes: ApiRoutes, social: SocialService, guards: SocialGuards): void {
  const change = async (
    req: Parameters<typeof callerOf>[0],
    body: MarkRequest,
    mark: MarkKind,
    set: boolean,
  ) =>
    presentMark(
      await social.mark(callerOf(req), {
        actor: { platform: body.platform, user_id: body.user_id },
        target: { platform: body.target_platform, user_id: body.target_user_id },
        mark,
        set,
        reason: body.reason,
        origin: originOf(req),
      }),
    );
  for (const mark of ['fren', 'foe', 'block'] as const) {
    routes.add({
      method: 'post',
      path: `/social/brain/${mark}`,
      summary: `Mark a ${mark === 'block' ? 'person as blocked' : mark}`,
      description: `${DESCRIPTIONS[mark]} Setting it again changes nothing. A user marks only as their own identities.`,
      tags: ['social'],
      security: 'bearer',
      middleware: guards.writes,
      request: { body: MarkRequestSchema },
      responses: { 200: { description: 'The relationship after the mark', schema: MarkSchema } },
      handler: async ({ req, body }) => ({ status: 200, body: await change(req, body, mark, true) }),
    });
    routes.add({
      method: 'delete',
      path: `/social/brain/${mark}`,
      summary: `Clear a ${mark} mark`,
      description: 'Clearing a mark that is not set changes nothing.',
      tags: ['social'],
      security: 'bearer',
      middleware: guards.writes,
      request: { body: MarkRequestSchema },
      responses: { 200: { description: 'The relationship after clearing', schema: MarkSchema } },
      handler: async ({ req, body }) => ({ status: 200, body: await change(req, body, mark, false) }),
    });
  }
}
