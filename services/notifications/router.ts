import type { ApiRoutes } from '../../platform/http/routes';
import type { AuthGuard } from '../../access/authGuard';
import { userOf } from '../../access/authGuard';
import { notificationError } from './errors';
import type { NotificationService } from './notificationService';
import {
  MarkReadRequestSchema,
  MarkReadResultSchema,
  NotificationListQuerySchema,
  NotificationPageSchema,
} from './schemas';

/** `GET /notifications`, `POST /notifications/read` and the `WS /notifications/ws` handshake (SPEC 6). */
export function registerNotificationRoutes(
  routes: ApiRoutes,
  notifications: NotificationService,
  guard: AuthGuard,
): void {
  routes.add({
    method: 'get',
    path: '/notifications',
    summary: 'Your notifications, newest first, a page at a time',
    description:
      'Pass the previous page’s `next_cursor` as `cursor` for the next page; `unread=true` lists only unread ones. ' +
      'Ids are stable: a client that also listens on the socket dedupes on them.',
    tags: ['notifications'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { query: NotificationListQuerySchema },
    responses: { 200: { description: 'A page of notifications', schema: NotificationPageSchema } },
    handler: async ({ query, req }) => ({
      status: 200,
      body: await notifications.list(userOf(req)!.userId.toHexString(), query),
    }),
  });

  routes.add({
    method: 'post',
    path: '/notifications/read',
    summary: 'Mark some of your notifications read',
    description: 'Ids that are not yours, or already read, are ignored (`updated` counts the rest).',
    tags: ['notifications'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { body: MarkReadRequestSchema },
    responses: { 200: { description: 'Marked', schema: MarkReadResultSchema } },
    handler: async ({ body, req }) => ({
      status: 200,
      body: await notifications.markRead(userOf(req)!.userId.toHexString(), body.ids),
    }),
  });

  routes.add({
    method: 'get',
    path: '/notifications/ws',
    summary: 'Live notification stream (WebSocket, JSON text frames); upgrade with your session token',
    description:
      'Open with a WebSocket upgrade carrying `Authorization: Bearer <token>`, or (browsers) the subprotocols ' +
      '`notifications.v1` and `bearer.<token>`. `/notifications/ws/{user_id}` names the stream explicitly (only ' +
      'your own: 403 CHANNEL_FORBIDDEN). Frames: `ready {user_id, unread}`, then `notification {notification}`; ' +
      '`?after=<id>` first replays what was stored after that id. A plain GET is answered 426.',
    tags: ['notifications'],
    security: 'bearer',
    middleware: guard.requireUser,
    responses: {
      101: { description: 'Switching Protocols (WebSocket upgrade)' },
      426: { description: 'Not a WebSocket upgrade request' },
    },
    handler: () => {
      throw notificationError(
        'UPGRADE_REQUIRED',
        'This is a WebSocket stream: connect with a WebSocket client.',
        {
          headers: { Upgrade: 'websocket' },
        },
      );
    },
  });
}
