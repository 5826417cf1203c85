import { z } from 'zod';
import { envSchema, type Env, type Role } from './envSchema';

export { ROLES, type Role } from './envSchema';

/** The typed configuration every component receives. Derived defaults (SIWE domain and origins) are resolved. */
export type Config = Omit<
  Env,
  'SIWE_ENABLED' | 'SIWE_DOMAIN' | 'SIWE_ALLOWED_ORIGINS' | 'PUBLIC_BASE_URL' | 'EMAIL_FROM' | 'TELNET_PORT'
> & {
  /** The telnet port; 0 when it is off. */
  TELNET_PORT: number;
  SIWE_ENABLED: boolean;
  SIWE_DOMAIN: string;
  SIWE_ALLOWED_ORIGINS: string[];
  PUBLIC_BASE_URL: string;
  EMAIL_FROM: string;
};

/** Start-up stops with this when a variable is malformed; the message names each variable and what was expected. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; expected: string; received?: string }[]) {
    super(
      `Invalid configuration:\n${problems
        .map(
          (p) =>
            `  ${p.variable}: ${p.expected}${p.received === undefined ? '' : ` (got ${JSON.stringify(p.received)})`}`,
        )
        .join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

/** The telnet port a development machine opens when TELNET_PORT is unset (the MUD convention). */
const DEVELOPMENT_TELNET_PORT = 4000;

const SECRET_VARIABLES = new Set(['BRAIN_SERVICE_TOKEN', 'QDRANT_API_KEY', 'SMTP_URL', 'OIDC_CLIENT_SECRET']);

/**
 * Variables that were renamed with a new meaning: a deployment still setting one would otherwise be silently
 * ignored, so start-up stops and says what replaced it.
 */
const RETIRED_VARIABLES: Record<string, string> = {
  BRAIN_ASK_EVIDENCE_THRESHOLD:
    'retired: use BRAIN_ASK_CONFIDENCE_THRESHOLD (0-1, default 0.5), on the calibrated answer confidence scale',
};

/**
 * Parses the environment once. Empty strings count as unset, so `FOO=` in a `.env` file means "use the default".
 * Throws ConfigError naming every bad variable (secret values are never echoed).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const retired = Object.entries(RETIRED_VARIABLES)
    .filter(([variable]) => env[variable] !== undefined && env[variable] !== '')
    .map(([variable, expected]) => ({ variable, expected }));
  if (retired.length > 0) throw new ConfigError(retired);
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, input));
  const values = parsed.data;
  const publicBaseUrl = values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`;
  const siweDomain = values.SIWE_DOMAIN ?? defaultSiweDomain(values, publicBaseUrl);
  return {
    ...values,
    SIWE_ENABLED: values.SIWE_ENABLED ?? (values.NODE_ENV === 'development' && isLoopback(siweDomain)),
    SIWE_DOMAIN: siweDomain,
    PUBLIC_BASE_URL: publicBaseUrl,
    EMAIL_FROM: values.EMAIL_FROM ?? `Forge Platform <no-reply@${values.BASE_DOMAIN}>`,
    TELNET_PORT: values.TELNET_PORT ?? (values.NODE_ENV === 'development' ? DEVELOPMENT_TELNET_PORT : 0),
    SIWE_ALLOWED_ORIGINS: (values.SIWE_ALLOWED_ORIGINS ?? `https://*.${values.BASE_DOMAIN}`)
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  };
}

/**
 * SIWE_DOMAIN's default: BASE_DOMAIN, except on a development machine left at BASE_DOMAIN=localhost, where it is the
 * host of PUBLIC_BASE_URL (`localhost:3000` on the defaults): EIP-4361's domain is the authority the browser shows,
 * port included, so a browser wallet on the page a fresh clone serves signs a message the server accepts.
 */
function defaultSiweDomain(values: Env, publicBaseUrl: string): string {
  if (values.NODE_ENV !== 'development' || values.BASE_DOMAIN !== 'localhost') return values.BASE_DOMAIN;
  return new URL(publicBaseUrl).host;
}

/** Whether a SIWE domain names this machine (localhost, 127.0.0.1 or [::1], any port). */
function isLoopback(domain: string): boolean {
  return /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(domain);
}

/** Applies a `--role a,b` / `--role=a` command-line choice over the configured ROLES. */
export function withRoleArguments(config: Config, argv: string[]): Config {
  const chosen: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--role') chosen.push(argv[i + 1] ?? '');
    else if (arg.startsWith('--role=')) chosen.push(arg.slice('--role='.length));
  });
  if (chosen.length === 0) return config;
  const roles = envSchema.shape.ROLES.safeParse(chosen.join(','));
  if (!roles.success)
    throw new ConfigError(describeIssues(roles.error, { ROLES: chosen.join(',') }, '--role'));
  return { ...config, ROLES: roles.data };
}

export function hasRole(config: Config, role: Role): boolean {
  return config.ROLES.includes(role);
}

function describeIssues(error: z.ZodError, input: Record<string, string>, name?: string) {
  return error.issues.map((issue) => {
    const variable = name ?? String(issue.path[0] ?? 'environment');
    const raw = input[name ? 'ROLES' : variable];
    return {
      variable,
      expected: issue.message,
      received: SECRET_VARIABLES.has(variable) ? undefined : raw,
    };
  });
}
