import { z } from 'zod';
import { InteractionKindSchema, SentimentSchema, SocialUserIdSchema, TextSchema } from '../schemas';

/** Most events one sync batch may carry. */
export const MAX_SYNC_EVENTS = 500;

const at = z.iso.datetime({ offset: true }).meta({ description: 'When it happened (ISO 8601)' });
const name = z.string().min(1).max(64).optional().meta({ description: 'Display name on the platform' });
const user = SocialUserIdSchema;

const seen = <T extends string>(type: T) => z.object({ type: z.literal(type), user_id: user, name, at });
const leave = z.object({ type: z.literal('leave'), user_id: user, at });
const join = z.object({ type: z.literal('join'), user_id: user, name, at });
const interaction = z.object({
  type: z.literal('interaction'),
  user_id: user,
  target_user_id: user,
  kind: InteractionKindSchema,
  sentiment: SentimentSchema.optional(),
  content: TextSchema.optional(),
  at,
});

/** Block-game events: players seen, joins and leaves, chat, trades and player kills, or any interaction kind. */
export const MinecraftEventSchema = z.discriminatedUnion('type', [
  seen('player_seen'),
  join,
  leave,
  z.object({
    type: z.literal('chat'),
    user_id: user,
    message: TextSchema.min(1),
    to_user_id: user.optional(),
    sentiment: SentimentSchema.optional(),
    at,
  }),
  z.object({
    type: z.literal('trade'),
    user_id: user,
    target_user_id: user,
    items: z.string().max(200).optional(),
    at,
  }),
  z.object({
    type: z.literal('kill'),
    user_id: user,
    target_user_id: user,
    weapon: z.string().max(64).optional(),
    at,
  }),
  interaction,
]);

/** Chat-platform events: members seen, joins and leaves, messages (replies), reactions, or any interaction kind. */
export const DiscordEventSchema = z.discriminatedUnion('type', [
  seen('member_seen'),
  join,
  leave,
  z.object({
    type: z.literal('message'),
    user_id: user,
    content: TextSchema.min(1),
    channel_id: z.string().max(64).optional(),
    reply_to_user_id: user.optional(),
    sentiment: SentimentSchema.optional(),
    at,
  }),
  z.object({
    type: z.literal('reaction'),
    user_id: user,
    target_user_id: user,
    emoji: z.string().min(1).max(64),
    at,
  }),
  interaction,
]);

const batch = <E extends z.ZodType>(events: E, id: string) =>
  z
    .object({
      bot_instance_id: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits and _ . - only'),
      seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
      sent_at: at,
      events: z.array(events).min(1).max(MAX_SYNC_EVENTS),
    })
    .meta({ id });

export const MinecraftSyncSchema = batch(MinecraftEventSchema, 'MinecraftSyncBatch');
export const DiscordSyncSchema = batch(DiscordEventSchema, 'DiscordSyncBatch');

export const SyncResultSchema = z
  .object({
    bot_instance_id: z.string(),
    seq: z.number().int(),
    accepted: z.number().int().meta({ description: 'Events applied' }),
    interactions: z.number().int(),
    identities: z.number().int().meta({ description: 'Distinct accounts the batch named' }),
    highest_seq: z.number().int(),
    gap: z
      .object({ from: z.number().int(), to: z.number().int() })
      .nullable()
      .meta({ description: 'Sequence numbers this batch skipped (never received before it)' }),
    missing: z
      .array(z.object({ from: z.number().int(), to: z.number().int() }))
      .meta({ description: 'Every range still missing from this bot' }),
  })
  .meta({ id: 'SocialSyncResult' });

export type MinecraftEvent = z.infer<typeof MinecraftEventSchema>;
export type DiscordEvent = z.infer<typeof DiscordEventSchema>;
export type SyncEvent = MinecraftEvent | DiscordEvent;
export type SyncBatch = z.infer<typeof MinecraftSyncSchema> | z.infer<typeof DiscordSyncSchema>;
export type SyncResult = z.infer<typeof SyncResultSchema>;
