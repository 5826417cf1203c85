import type { ApiSchemas } from '../../api';

/**
 * The event types the platform's sync routes accept, taken from the generated contract
 * (`clients/api/generated/schema.d.ts`, from services/social/sync/schemas.ts), so a change on the server's side
 * that breaks a bot fails compilation here. Interaction kinds and their trust deltas are published in
 * services/social/README.md.
 */
export type InteractionKind = ApiSchemas['SocialInteractionKind'];

/** An event as the bot records it: `at` (ISO 8601) may be left out; the client fills in the time of `record`. */
type Recorded<E> = E extends { at: string } ? Omit<E, 'at'> & { at?: string } : never;

/** The events each platform's sync route takes, as posted (every event stamped). */
export interface SentEvents {
  minecraft: ApiSchemas['MinecraftSyncBatch']['events'][number];
  discord: ApiSchemas['DiscordSyncBatch']['events'][number];
}

/** A block-game bot's events. */
export type MinecraftEvent = Recorded<SentEvents['minecraft']>;

/** A chat-platform bot's events. */
export type DiscordEvent = Recorded<SentEvents['discord']>;

/** The platforms that sync, and the event type of each. */
export interface PlatformEvents {
  minecraft: MinecraftEvent;
  discord: DiscordEvent;
}
export type SyncPlatform = keyof PlatformEvents;

/** One batch as posted. */
export interface SyncBatch<E> {
  bot_instance_id: string;
  seq: number;
  sent_at: string;
  events: E[];
}

/** The platform's answer to a batch. */
export type SyncResult = ApiSchemas['SocialSyncResult'];
