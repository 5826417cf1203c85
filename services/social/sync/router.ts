import type { ApiRoutes } from '../../../platform/http/routes';
import { replayHeaders } from '../presenters';
import type { SocialGuards } from '../socialGuards';
import type { SocialService } from '../socialService';
import { DiscordSyncSchema, MAX_SYNC_EVENTS, MinecraftSyncSchema, SyncResultSchema } from './schemas';

const DESCRIPTION =
  `Service token only. A batch of at most ${MAX_SYNC_EVENTS} typed events (text at most 2,000 characters each), ` +
  'idempotent by (bot_instance_id, seq): a replay changes nothing and answers the first result with ' +
  '`Idempotent-Replayed: true`; the same seq with other events is 409 SYNC_BATCH_CONFLICT. A seq past the highest ' +
  'received reports the skipped range in `gap`; `missing` lists every range not received yet.';

/** The bots' sync routes: one per platform, each with its own event types. */
export function registerSyncRoutes(routes: ApiRoutes, social: SocialService, guards: SocialGuards): void {
  routes.add({
    method: 'post',
    path: '/social/brain/minecraft/sync',
    summary: 'Block-game bot sync',
    description: `${DESCRIPTION} Events: player_seen, join, leave, chat, trade, kill, interaction.`,
    tags: ['social'],
    security: 'admin',
    middleware: guards.service,
    request: { body: MinecraftSyncSchema },
    responses: { 200: { description: 'What the batch did', schema: SyncResultSchema } },
    handler: async ({ body }) => {
      const { result, replayed } = await social.sync('minecraft', body);
      return { status: 200, body: result, headers: replayHeaders(replayed) };
    },
  });

  routes.add({
    method: 'post',
    path: '/social/brain/discord/sync',
    summary: 'Chat-platform bot sync',
    description: `${DESCRIPTION} Events: member_seen, join, leave, message, reaction, interaction.`,
    tags: ['social'],
    security: 'admin',
    middleware: guards.service,
    request: { body: DiscordSyncSchema },
    responses: { 200: { description: 'What the batch did', schema: SyncResultSchema } },
    handler: async ({ body }) => {
      const { result, replayed } = await social.sync('discord', body);
      return { status: 200, body: result, headers: replayHeaders(replayed) };
    },
  });
}
