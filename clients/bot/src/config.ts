/**
 * The bot side's configuration (SPEC 2.4): where the platform is (BRAIN_API_URL), whether to sync at all
 * (BRAIN_ENABLED), this bot's stable id (BOT_INSTANCE_ID, the idempotency scope of its batches) and the service
 * credential (BRAIN_SERVICE_TOKEN).
 */
export interface BotConfig {
  enabled: boolean;
  apiUrl: string;
  botInstanceId: string;
  serviceToken: string;
}

/** A variable that is missing or malformed; the message names it. */
export class BotConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BotConfigError';
  }
}

const BOT_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Reads the configuration from `env` (default `process.env`). BRAIN_ENABLED is on for `1`/`true`/`yes` and off
 * otherwise (default off: a bot without a platform just runs); when on, the other three are required.
 */
export function botConfigFromEnv(env: Record<string, string | undefined> = process.env): BotConfig {
  const enabled = /^(1|true|yes)$/i.test(env.BRAIN_ENABLED ?? '');
  const apiUrl = (env.BRAIN_API_URL ?? '').replace(/\/+$/, '');
  const botInstanceId = env.BOT_INSTANCE_ID ?? '';
  const serviceToken = env.BRAIN_SERVICE_TOKEN ?? '';
  if (!enabled) return { enabled, apiUrl, botInstanceId, serviceToken };
  if (!/^https?:\/\/[^\s]+$/.test(apiUrl)) throw new BotConfigError('BRAIN_API_URL must be an http(s) URL');
  if (!BOT_ID.test(botInstanceId))
    throw new BotConfigError('BOT_INSTANCE_ID must be 1-64 letters, digits, _ . -');
  if (serviceToken.length < 16)
    throw new BotConfigError('BRAIN_SERVICE_TOKEN must be set (16 characters or more)');
  return { enabled, apiUrl, botInstanceId, serviceToken };
}
