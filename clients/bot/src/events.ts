/** The event types the platform's sync routes accept (services/social/sync/schemas.ts is the server's side). */

/** Interaction kinds and their trust deltas are published in services/social/README.md. */
export type InteractionKind =
  | 'help'
  | 'gift'
  | 'trade_completed'
  | 'play_together'
  | 'praise'
  | 'message'
  | 'spam'
  | 'insult'
  | 'scam'
  | 'grief'
  | 'attack'
  | 'kill'
  | 'report';

interface Base {
  user_id: string;
  /** ISO 8601; the client fills it with the time of `record` when absent. */
  at?: string;
}

type Interaction = Base & {
  type: 'interaction';
  target_user_id: string;
  kind: InteractionKind;
  sentiment?: number;
  content?: string;
};

/** A block-game bot's events. */
export type MinecraftEvent =
  | (Base & { type: 'player_seen' | 'join'; name?: string })
  | (Base & { type: 'leave' })
  | (Base & { type: 'chat'; message: string; to_user_id?: string; sentiment?: number })
  | (Base & { type: 'trade'; target_user_id: string; items?: string })
  | (Base & { type: 'kill'; target_user_id: string; weapon?: string })
  | Interaction;

/** A chat-platform bot's events. */
export type DiscordEvent =
  | (Base & { type: 'member_seen' | 'join'; name?: string })
  | (Base & { type: 'leave' })
  | (Base & {
      type: 'message';
      content: string;
      channel_id?: string;
      reply_to_user_id?: string;
      sentiment?: number;
    })
  | (Base & { type: 'reaction'; target_user_id: string; emoji: string })
  | Interaction;

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
export interface SyncResult {
  bot_instance_id: string;
  seq: number;
  accepted: number;
  interactions: number;
  identities: number;
  highest_seq: number;
  gap: { from: number; to: number } | null;
  missing: { from: number; to: number }[];
}
