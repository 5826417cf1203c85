import { z } from 'zod';
import { trustProxy } from './trustProxy';

/**
 * The environment variables the server reads, with SPEC.md's defaults (sections 2.4 and 8). Every variable the
 * process uses is here and nowhere else; `.env.example` documents each one. Front-end (`NEXT_PUBLIC_*`) and
 * bot-side (`BRAIN_API_URL`, `BRAIN_ENABLED`, `BOT_INSTANCE_ID`) variables belong to other programs and are only
 * documented there.
 */

const flag = (defaultValue: '0' | '1') =>
  z
    .enum(['0', '1', 'true', 'false'], { error: 'expected 0, 1, true or false' })
    .default(defaultValue)
    .transform((value) => value === '1' || value === 'true');

/** A flag whose default is derived from other variables (see loadConfig); unset stays undefined. */
const derivedFlag = z
  .enum(['0', '1', 'true', 'false'], { error: 'expected 0, 1, true or false' })
  .optional()
  .transform((value) => (value === undefined ? undefined : value === '1' || value === 'true'));

const int = (defaultValue: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: 'expected an integer' })
    .int({ error: 'expected an integer' })
    .min(min, { error: `expected an integer >= ${min}` })
    .max(max, { error: `expected an integer <= ${max}` })
    .default(defaultValue);

const decimal = (defaultValue: number, min: number, max: number) =>
  z.coerce
    .number({ error: 'expected a number' })
    .min(min, { error: `expected a number >= ${min}` })
    .max(max, { error: `expected a number <= ${max}` })
    .default(defaultValue);

const optionalUrl = (protocols: string[]) =>
  z
    .url({ error: `expected a URL (${protocols.join(', ')})` })
    .refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
      error: `expected a URL (${protocols.join(', ')})`,
    })
    .optional();

/** True for a time zone name `Intl` knows (IANA names, `UTC`). */
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const secret = z.string().min(16, { error: 'expected a secret of at least 16 characters' }).optional();

/** A comma-separated list, trimmed and lowercased, each item checked by `item`; unset is the empty list. */
const lowercaseList = (item: z.ZodType<string, string>) =>
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(item));

const addressList = lowercaseList(
  z.string().regex(/^0x[0-9a-f]{40}$/, { error: 'expected comma-separated 0x addresses' }),
);
const emailList = lowercaseList(z.email({ error: 'expected comma-separated email addresses' }));

export const ROLES = ['api', 'game', 'worker'] as const;
export type Role = (typeof ROLES)[number];

const roles = z
  .string()
  .default(ROLES.join(','))
  .transform((value) => value.split(',').map((role) => role.trim()))
  .pipe(
    z
      .array(z.enum(ROLES, { error: `expected a comma-separated list of ${ROLES.join(', ')}` }))
      .min(1, { error: 'expected at least one role' }),
  )
  .transform((list) => [...new Set(list)]);

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const envSchema = z.object({
  // Process and stores
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: int(3000, 0, 65535),
  DATA_DIR: z.string().min(1).default('./data'),
  EMBEDDED_ENGINE_THREADS: flag('1'),
  MONGODB_URI: optionalUrl(['mongodb', 'mongodb+srv']),
  MONGODB_DB: z.string().min(1).default('forge'),
  QDRANT_URL: optionalUrl(['http', 'https']),
  QDRANT_API_KEY: z.string().min(1).optional(),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ROLES: roles,
  BODY_LIMIT_BYTES: int(1_048_576, 1024, 64 * 1_048_576),
  SHUTDOWN_TIMEOUT_MS: int(10_000, 0, 600_000),
  READINESS_TIMEOUT_MS: int(2_000, 100, 60_000),
  BACKUP_CRON: z.string().min(9).default('0 3 * * *'),
  BACKUP_RETAIN: int(7, 1, 365),
  TRUST_PROXY: trustProxy,
  BASE_DOMAIN: z.string().min(1).default('localhost'),
  PUBLIC_BASE_URL: optionalUrl(['http', 'https']),
  ADMIN_ADDRESSES: addressList,
  ADMIN_EMAILS: emailList,

  // Wallet sign-in (SPEC 2.4, 8)
  SIWE_ENABLED: derivedFlag,
  SIWE_DOMAIN: z.string().min(1).optional(),
  SIWE_ALLOWED_ORIGINS: z.string().min(1).optional(),
  SIWE_MESSAGE_TEMPLATE: z.string().min(1).default('Sign in to Forge Platform.'),
  SIWE_SESSION_TTL_SECONDS: int(3600, 60, 30 * 24 * 3600),
  SIWE_NONCE_TTL_SECONDS: int(300, 10, 3600),
  SIWE_REPLAY_CAP: int(5, 1),
  SIWE_REPLAY_WINDOW_SECONDS: int(3600, 1),
  SIWE_CHAIN_ID: z.coerce.number({ error: 'expected a chain id' }).int().positive().optional(),
  ETH_RPC_URL: optionalUrl(['http', 'https', 'ws', 'wss']),
  ETH_CHAIN_ID: z.coerce.number({ error: 'expected a chain id' }).int().positive().default(1),
  ENS_REGISTRY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'expected a 0x-prefixed 20-byte hex address' })
    .optional(),

  // Email and single sign-on
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  EMAIL_FROM: z.string().min(3).optional(),
  EMAIL_VERIFICATION_TTL_MINUTES: int(30, 1, 7 * 24 * 60),
  EMAIL_LOGIN_MAX_ATTEMPTS: int(10, 1),
  EMAIL_LOGIN_WINDOW_SECONDS: int(900, 1),
  OIDC_ISSUER_URL: optionalUrl(['http', 'https']),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_REDIRECT_URI: optionalUrl(['http', 'https']),
  OIDC_SCOPES: z.string().min(1).default('openid email profile'),

  // Knowledge service (SPEC 2.4, 3.2, 8)
  BRAIN_SERVICE_TOKEN: secret,
  BRAIN_BREAKER_FAILURE_THRESHOLD: int(5, 1),
  BRAIN_BREAKER_RECOVERY_SECONDS: int(60, 1),
  BRAIN_BREAKER_HALF_OPEN_CALLS: int(3, 1),
  BRAIN_EMBED_RETRY_ATTEMPTS: int(3, 1, 10),
  BRAIN_EMBED_RETRY_BASE_MS: int(500, 0, 60_000),
  // Brain retrieval (issue 8): embedding providers (each optional; the local offline embedder is always last),
  // ingestion limits, search cache and vector collection
  BRAIN_EMBED_PRIMARY_URL: optionalUrl(['http', 'https']),
  BRAIN_EMBED_PRIMARY_MODEL: z.string().min(1).default('text-embedding-3-small'),
  BRAIN_EMBED_PRIMARY_API_KEY: z.string().min(1).optional(),
  BRAIN_EMBED_PRIMARY_DIMENSIONS: int(1536, 1, 65_536),
  BRAIN_EMBED_SECONDARY_URL: optionalUrl(['http', 'https']),
  BRAIN_EMBED_SECONDARY_MODEL: z.string().min(1).default('text-embedding-3-small'),
  BRAIN_EMBED_SECONDARY_API_KEY: z.string().min(1).optional(),
  BRAIN_EMBED_SECONDARY_DIMENSIONS: int(1536, 1, 65_536),
  BRAIN_EMBED_TIMEOUT_MS: int(10_000, 50, 300_000),
  BRAIN_MAX_DOCUMENT_BYTES: int(524_288, 1024, 64 * 1_048_576),
  BRAIN_INGEST_MAX_DOCUMENTS: int(100, 1, 10_000),
  BRAIN_INGEST_CONCURRENCY: int(2, 1, 64),
  BRAIN_INGEST_QUEUE: int(8, 0, 1000),
  BRAIN_CHUNKING_THREADS: int(1, 0, 16),
  BRAIN_CACHE_MEMORY_MAX_ENTRIES: int(1000, 1),
  BRAIN_CACHE_MEMORY_TTL_SECONDS: int(300, 1),
  BRAIN_CACHE_REDIS_TTL_SECONDS: int(3600, 1),
  BRAIN_CACHE_KEY_PREFIX: z.string().min(1).max(100).default('brain:search:'),
  BRAIN_QDRANT_COLLECTION: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, { error: 'expected letters, digits, _ or -' })
    .default('brain_chunks'),
  // Brain retrieval v2 and question answering (issue 17): LLM providers (each optional; the offline extractive
  // generator is always last), the local embedder, fusion and answering
  BRAIN_LLM_PRIMARY_URL: optionalUrl(['http', 'https']),
  BRAIN_LLM_PRIMARY_MODEL: z.string().min(1).default('gpt-4o-mini'),
  BRAIN_LLM_PRIMARY_API_KEY: z.string().min(1).optional(),
  BRAIN_LLM_SECONDARY_URL: optionalUrl(['http', 'https']),
  BRAIN_LLM_SECONDARY_MODEL: z.string().min(1).default('gpt-4o-mini'),
  BRAIN_LLM_SECONDARY_API_KEY: z.string().min(1).optional(),
  BRAIN_LLM_TIMEOUT_MS: int(30_000, 100, 600_000),
  BRAIN_LOCAL_EMBEDDER: z.enum(['semantic', 'hash', 'neural', 'fused']).default('semantic'),
  BRAIN_FUSED_SEMANTIC_WEIGHT: z.coerce.number({ error: 'expected a number' }).positive().default(2),
  BRAIN_ENCODER_THREADS: int(1, 1, 16),
  BRAIN_EMBEDDER_THREADS: int(0, 0, 16),
  BRAIN_RRF_K: int(60, 1, 1000),
  BRAIN_SECTION_CITATIONS: flag('1'),
  BRAIN_ANSWER_TYPES: flag('1'),
  BRAIN_ROUTER_CALIBRATION: z.enum(['off', 'weights', 'anchor', 'both']).default('off'),
  BRAIN_ROUTER_PSEUDO_QUERIES: z.enum(['sentence', 'common', 'heading', 'mixed']).default('sentence'),
  BRAIN_ASK_CONFIDENCE_THRESHOLD: z.coerce.number({ error: 'expected a number' }).min(0).max(1).default(0.5),
  BRAIN_ASK_SIMILARITY: z.enum(['lexical', 'neural']).default('lexical'),
  BRAIN_WORKING_MEMORY_MAX_TOKENS: int(128_000, 1_000),
  BRAIN_EPISODIC_RETENTION_DAYS: int(7, 1),
  BRAIN_ARCHIVAL_AGE_DAYS: int(90, 1),
  BRAIN_CONSOLIDATION_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'expected a time of day HH:MM' })
    .default('03:30'),
  BRAIN_CONSOLIDATION_TIMEZONE: z
    .string()
    .refine(isTimeZone, { error: 'expected an IANA time zone such as UTC or Europe/Paris' })
    .default('UTC'),
  BRAIN_MEMORY_DUPLICATE_SIMILARITY: decimal(0.9, 0.5, 1),
  BRAIN_MEMORY_REDACT_SECRETS: flag('0'),
  BRAIN_MEMORY_EMBEDDER: z.enum(['neural', 'chain']).default('neural'),

  // Gateway and signer limits (SPEC 1, 5, 8)
  GATEWAY_RATE_LIMIT_PER_SECOND: int(50, 1),
  SIGNER_RATE_LIMIT_PER_MINUTE: int(10, 1),
  SIGNER_NONCE_CACHE_MS: int(4_000, 0, 4_999),

  // Contract-signature issuing (SPEC 2.5-2.8, 4.10, 5); while SIGNER_CHAIN_ID is unset the routes answer 501
  SIGNER_CHAIN_ID: z
    .enum(['8453', '84532'], { error: 'expected 8453 (Base) or 84532 (Base Sepolia)' })
    .transform(Number)
    .optional(),
  SIGNER_RPC_URL: optionalUrl(['http', 'https']),
  SIGNER_FORGE_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'expected a 0x-prefixed 20-byte hex address' })
    .optional(),
  SIGNER_SEED_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'expected a 0x-prefixed 20-byte hex address' })
    .optional(),
  SIGNER_KEYSTORE_FILE: z.string().min(1).optional(),
  SIGNER_SECRETS_DIR: z.string().min(1).optional(),
  SIGNER_FORGE_BUFFER_SECONDS: int(20, 10, 30),
  SIGNER_FORGE_COOLDOWN_SECONDS: int(60, 0, 7 * 24 * 3600),
  SIGNER_USAGE_START_BLOCK: z.coerce.number({ error: 'expected a block number' }).int().min(0).optional(),

  // World (MUD, SPEC 4.4): area room tick, character autosave, idle gateway players, combat RNG seed
  MUD_TICK_MS: int(100, 10, 10_000),
  MUD_CROWDED_CLIENTS: int(150, 0, 1_000_000),
  MUD_SAVE_INTERVAL_MS: int(30_000, 1_000, 3_600_000),
  MUD_IDLE_TIMEOUT_MS: int(300_000, 10_000, 86_400_000),
  MUD_SEED: int(1, 0, 4_294_967_295),
  // The telnet port of the game role (services/mud/telnet): 0 turns it off; unset is 4000 in development, else off
  TELNET_PORT: z.coerce
    .number({ error: 'expected an integer' })
    .int({ error: 'expected an integer' })
    .min(0, { error: 'expected an integer >= 0' })
    .max(65535, { error: 'expected an integer <= 65535' })
    .optional(),
  TELNET_MAX_PER_ADDRESS: int(20, 1, 100_000),
  TELNET_IDLE_TIMEOUT_SECONDS: int(1800, 10, 86_400),
  // host[:port][/path] at which SDK clients reach THIS game process's rooms (several game processes: each its own)
  GAME_PUBLIC_ADDRESS: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~/-]*)?$/, {
      error: 'expected host[:port][/path] without a scheme, e.g. game-2.example.com or 10.0.0.7:2567',
    })
    .optional(),

  // Room types this game process hosts first (comma-separated, e.g. area_caves,area_marsh): such a room is created here
  // whenever this process is up; other rooms go to the game process with the fewest rooms (Colyseus's default)
  GAME_HOSTS_ROOMS: lowercaseList(
    z
      .string()
      .regex(/^[a-z0-9_-]{1,64}$/, { error: 'expected comma-separated room type names (a-z, 0-9, _ and -)' }),
  ),

  // Notifications (SPEC 6): at most this many notifications of each noisy kind per user and hour
  NOTIFICATIONS_NOISY_PER_HOUR: int(20, 1, 100_000),

  // Economy (SPEC 1, 8). The hard-currency cap is the spec's constant (21,000,000), fixed when the supply is created.
  ECONOMY_SOFT_DECAY_MONTHLY_PERCENT: decimal(1, 0, 100),
  ECONOMY_CREATOR_FEE_PERCENT: decimal(5, 0, 100),

  // MCP tool gateway (SPEC 1, 4.3): sessions, origins, per-caller and per-tool call limits
  MCP_SESSION_IDLE_SECONDS: int(1800, 10, 7 * 24 * 3600),
  MCP_MAX_SESSIONS: int(1000, 1, 1_000_000),
  MCP_MAX_SESSIONS_PER_CALLER: int(32, 1, 1_000_000),
  MCP_ALLOWED_ORIGINS: z.string().min(1).optional(),
  MCP_CALLS_PER_MINUTE: int(600, 1),
  MCP_TOOL_CALLS_PER_MINUTE: int(120, 1),
  // Durable per-identity quotas (per day, in Redis when configured), usage metering and confirmations
  MCP_QUOTA_UNITS_PER_DAY: int(20_000, 1),
  MCP_QUOTA_TOOL_CALLS_PER_DAY: int(5_000, 1),
  MCP_USAGE_RETENTION_DAYS: int(90, 1, 3650),
  MCP_METRICS_PER_CALLER: flag('0'),
  MCP_REDIS_KEY_PREFIX: z.string().min(1).max(100).default('mcp:'),
  MCP_CONFIRMATION_KEY: z.string().min(32, { error: 'expected a key of at least 32 characters' }).optional(),

  // Audit log (services/admin): how long audit events are kept
  AUDIT_RETENTION_DAYS: int(365, 1, 3650),

  // Guest sign-in (tier 0), the development mail outbox, the web client and the brain's first-start seed
  GUEST_SIGNIN_ENABLED: flag('1'),
  GUEST_SIGNIN_PER_HOUR: int(20, 1),
  GUEST_SESSION_TTL_SECONDS: int(30 * 24 * 3600, 60, 365 * 24 * 3600),
  GUEST_RETENTION_DAYS: int(30, 1),
  WEB_CLIENT_ENABLED: flag('1'),
  BRAIN_SEED_ON_START: flag('1'),
});

export type Env = z.infer<typeof envSchema>;
