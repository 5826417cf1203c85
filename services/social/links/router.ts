import type { ApiRoutes } from '../../../platform/http/routes';
import { identityOfKey } from '../identities';
import { presentIdentity } from '../presenters';
import { callerOf, originOf, type SocialGuards } from '../socialGuards';
import type { SocialService } from '../socialService';
import {
  LinkCodeRequestSchema,
  LinkCodeSchema,
  LinkRequestSchema,
  LinkSchema,
  UnlinkRequestSchema,
} from './schemas';

/** Linking chat and game accounts into a web user: codes, link (code or direct) and unlink. */
export function registerLinkRoutes(routes: ApiRoutes, social: SocialService, guards: SocialGuards): void {
  routes.add({
    method: 'post',
    path: '/social/brain/link/code',
    summary: 'Get a one-time link code',
    description:
      'A signed-in user gets a code for the chat or game account they want to link and posts it through that ' +
      "platform's bot, which confirms it with POST /social/brain/link. A bot (service token) gets a code for the " +
      'account that asked it, for the user to redeem signed in. Codes live 10 minutes and work once.',
    tags: ['social'],
    security: 'bearer',
    middleware: guards.writes,
    request: { body: LinkCodeRequestSchema },
    responses: { 201: { description: 'The code', schema: LinkCodeSchema } },
    handler: async ({ req, body }) => {
      const { code, expires_at } = await social.linkCode(callerOf(req), body);
      return { status: 201, body: { code, expires_at: expires_at.toISOString() } };
    },
  });

  routes.add({
    method: 'post',
    path: '/social/brain/link',
    summary: 'Link a chat or game account across platforms',
    description:
      "With `proof` (a code issued to the other side): the bot confirms a user's code, or a user redeems a bot's. " +
      "The service token may link directly with `web_user_id`. The account's history joins the user's person. An " +
      'account linked to another user is never moved: 409 IDENTITY_LINKED_ELSEWHERE.',
    tags: ['social'],
    security: 'bearer',
    middleware: guards.writes,
    request: { body: LinkRequestSchema },
    responses: { 200: { description: 'The linked account', schema: LinkSchema } },
    handler: async ({ req, body }) => {
      const { identity, linked } = await social.link(
        callerOf(req),
        body,
        { code: body.proof, webUserId: body.web_user_id },
        originOf(req),
      );
      return {
        status: 200,
        body: { identity: presentIdentity(identity), person: identityOfKey(identity.person), linked },
      };
    },
  });

  routes.add({
    method: 'delete',
    path: '/social/brain/link',
    summary: 'Unlink a chat or game account',
    description:
      'A user unlinks their own accounts; the service token any. The account becomes its own person again.',
    tags: ['social'],
    security: 'bearer',
    middleware: guards.writes,
    request: { body: UnlinkRequestSchema },
    responses: { 200: { description: 'The account, unlinked', schema: LinkSchema } },
    handler: async ({ req, body }) => {
      const identity = await social.unlink(callerOf(req), body, originOf(req));
      return {
        status: 200,
        body: { identity: presentIdentity(identity), person: identityOfKey(identity.person), linked: false },
      };
    },
  });
}
