/** The typed client bot authors use to sync a chat-platform or block-game bot with Forge Platform's social brain. */
export { BotConfigError, botConfigFromEnv, type BotConfig } from './config';
export { DiskQueue } from './diskQueue';
export type {
  DiscordEvent,
  InteractionKind,
  MinecraftEvent,
  SyncBatch,
  SyncPlatform,
  SyncResult,
} from './events';
export {
  MAX_BATCH_EVENTS,
  SocialBotClient,
  type DrainReport,
  type SocialBotClientOptions,
} from './socialBotClient';
