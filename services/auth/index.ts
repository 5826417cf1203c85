import { EnsPlugin, FetchRequest, JsonRpcProvider, Network, WebSocketProvider, type Provider } from 'ethers';
import type { RequestHandler } from 'express';
import type { ServiceRegistrar } from '../../platform/app';
import type { JobRegistrar } from '../../platform/jobs/scheduler';
import { createLimiter } from '../../platform/http/rateLimit';
import type { PlatformContext } from '../../platform/platform';
import { MemoryEphemeralStore, RedisEphemeralStore } from '../../platform/stores/ephemeralStore';
import { Accounts } from './accounts';
import { AuthGuard } from '../../access/authGuard';
import { corsPolicy } from '../../platform/http/corsPolicy';
import { DevOutbox } from './email/devOutbox';
import { EmailSignIn } from './email/emailSignIn';
import { SmtpMailer, type Mailer } from './email/mailer';
import { registerOutboxRoutes } from './email/outboxRoutes';
import { registerEmailRoutes } from './email/router';
import { createGuestPart } from './guest';
import { CachedEnsResolver, noEns } from './ensResolver';
import { MemoryNonceStore, RedisNonceStore } from './wallet/nonceStore';
import { OidcSignIn, type PendingLogin } from './oidc/oidcSignIn';
import { registerOidcRoutes } from './oidc/router';
import { ReplayMonitor } from './wallet/replayMonitor';
import { registerSessionRoutes } from './router';
import { Sessions, type IssuedSession } from './sessions';
import type { GuestSession } from './guest/guestSignIn';
import { DisplayNameSchema } from './guest/schemas';
import { ValidationError } from '../../platform/errors';
import { SIGN_IN_PATHS, SignInAudit } from './signInAudit';
import type { AuditRecorder } from '../../models/AuditEvent';
import { registerWalletRoutes } from './wallet/router';
import { WalletSignIn } from './wallet/walletSignIn';
// What other areas use (the MCP tools publish these routes' own schemas, so a tool and its route cannot drift).
export { presentMe, presentUser } from './presenters';
export { MeSchema, UserSchema } from './schemas';
export type { Sessions } from './sessions';

/** Path prefixes of the REST areas browser pages call, which answer CORS by the one allowed-origin policy. */
const BROWSER_AREAS = [
  '/auth',
  '/mud',
  '/brain',
  '/api',
  '/dev',
  '/economy',
  '/marketplace',
  '/social',
  '/quests',
  '/influencer',
  '/admin',
  '/npc',
  '/companions',
  '/notifications',
];

/**
 * Sign-in for channels that are not HTTP (the world's telnet prompt): the same commands, limits and errors as
 * `POST /auth/guest` and `POST /auth/email/login`, so a terminal gets no looser rules than the web page.
 */
export type { Principal } from '../../access/principal';

export interface PromptSignIn {
  /** A new guest (tier 0) for a client at `address`; `displayName` as the route takes it. */
  guest(address: string, displayName?: string): Promise<GuestSession>;
  /** An email account's session; 401 on a wrong password, 429 past EMAIL_LOGIN_MAX_ATTEMPTS. */
  email(email: string, password: string): Promise<IssuedSession>;
}

/** A display name typed at the prompt, checked by the same rules as `POST /auth/guest`'s body. */
function promptDisplayName(name: string): string {
  const parsed = DisplayNameSchema.safeParse(name);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? 'invalid';
  throw new ValidationError(`Display name: ${message}`, [{ path: 'display_name', message }]);
}

/** The identity service: its routes, the guard other services authenticate with, and what to release on stop. */
export interface AuthService {
  register: ServiceRegistrar;
  guard: AuthGuard;
  /** Admin sessions (bearer, or HTTP Basic password for browsers) for admin pages. */
  adminGuard: RequestHandler[];
  accounts: Accounts;
  sessions: Sessions;
  /** Guest and email sign-in for the telnet prompt. */
  prompt: PromptSignIn;
  /** Background jobs (guest retention). */
  jobs: JobRegistrar[];
  /** CORS for REST routes: SIWE_ALLOWED_ORIGINS, the policy of /auth, for other areas' paths. */
  cors: RequestHandler;
  close(): Promise<void>;
}

/** Options of createAuthService. */
export interface AuthServiceOptions {
  /** The platform's audit log: sign-ins, failed sign-ins and role changes are recorded there. */
  audit?: AuditRecorder;
}

/** How long one RPC call may take before sign-in gives up on it (ethers' default is 5 minutes). */
const RPC_TIMEOUT_MS = 5_000;

/** The Ethereum RPC for EIP-1271 and ENS, on a fixed network (with a custom ENS registry when configured). */
function rpcProvider(url: string, chainId: number, ensRegistry: string | undefined): Provider {
  const network = Network.from(chainId);
  if (ensRegistry) network.attachPlugin(new EnsPlugin(ensRegistry, chainId));
  if (url.startsWith('ws')) return new WebSocketProvider(url, network, { staticNetwork: network });
  const request = new FetchRequest(url);
  request.timeout = RPC_TIMEOUT_MS;
  return new JsonRpcProvider(request, network, { staticNetwork: network });
}

/** Builds sign-in (wallet, email, SSO), sessions and guards from the platform's stores and configuration. */
export function createAuthService(context: PlatformContext, options: AuthServiceOptions = {}): AuthService {
  const { config, stores, clock, logger } = context;
  const connection = stores.mongo;
  if (!connection) throw new Error('The identity service needs MongoDB');
  const log = logger.child({ component: 'auth' });
  const redis = stores.redis;
  const provider = config.ETH_RPC_URL
    ? rpcProvider(config.ETH_RPC_URL, config.ETH_CHAIN_ID, config.ENS_REGISTRY_ADDRESS)
    : undefined;
  const ens = provider ? new CachedEnsResolver(provider, log, { clock }) : noEns;

  const accounts = new Accounts(connection, clock, {
    wallets: new Set(config.ADMIN_ADDRESSES),
    emails: new Set(config.ADMIN_EMAILS),
  });
  const signInAudit = options.audit && new SignInAudit(options.audit, clock);
  const sessions = new Sessions(connection, clock, signInAudit && ((session) => signInAudit.issued(session)));
  const guard = new AuthGuard(sessions, config.BRAIN_SERVICE_TOKEN);

  const wallet = new WalletSignIn(
    {
      enabled: config.SIWE_ENABLED,
      domain: config.SIWE_DOMAIN,
      chainId: config.SIWE_CHAIN_ID,
      nonceTtlSeconds: config.SIWE_NONCE_TTL_SECONDS,
      sessionTtlSeconds: config.SIWE_SESSION_TTL_SECONDS,
    },
    {
      nonces: redis ? new RedisNonceStore(redis) : new MemoryNonceStore(clock),
      replays: new ReplayMonitor(
        createLimiter({
          redis,
          keyPrefix: 'siwe:replays:',
          points: config.SIWE_REPLAY_CAP,
          durationSeconds: config.SIWE_REPLAY_WINDOW_SECONDS,
        }),
        log,
      ),
      accounts,
      sessions,
      ens,
      clock,
      provider,
    },
  );

  // Without SMTP_URL: the development outbox outside production, 501 in production.
  const outbox = !config.SMTP_URL && config.NODE_ENV !== 'production' ? new DevOutbox(log, clock) : undefined;
  const mailer: Mailer | undefined = config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.EMAIL_FROM)
    : outbox;
  const email = new EmailSignIn(
    {
      publicBaseUrl: config.PUBLIC_BASE_URL,
      verificationTtlMinutes: config.EMAIL_VERIFICATION_TTL_MINUTES,
      sessionTtlSeconds: config.SIWE_SESSION_TTL_SECONDS,
    },
    {
      connection,
      accounts,
      sessions,
      mailer,
      loginAttempts: createLimiter({
        redis,
        keyPrefix: 'auth:email-login:',
        points: config.EMAIL_LOGIN_MAX_ATTEMPTS,
        durationSeconds: config.EMAIL_LOGIN_WINDOW_SECONDS,
      }),
      clock,
      logger: log,
    },
  );

  const sso = new OidcSignIn(
    config.OIDC_ISSUER_URL && config.OIDC_CLIENT_ID
      ? {
          issuerUrl: config.OIDC_ISSUER_URL,
          clientId: config.OIDC_CLIENT_ID,
          clientSecret: config.OIDC_CLIENT_SECRET,
          redirectUri:
            config.OIDC_REDIRECT_URI ?? new URL('/auth/oidc/callback', config.PUBLIC_BASE_URL).href,
          scopes: config.OIDC_SCOPES,
          sessionTtlSeconds: config.SIWE_SESSION_TTL_SECONDS,
          allowInsecureIssuer: config.NODE_ENV !== 'production',
        }
      : undefined,
    redis
      ? new RedisEphemeralStore<PendingLogin>(redis, 'auth:oidc:')
      : new MemoryEphemeralStore<PendingLogin>(clock),
    accounts,
    sessions,
  );

  const guest = createGuestPart(context, { sessions, guard, logger: log });
  const cors = corsPolicy(config.SIWE_ALLOWED_ORIGINS);

  return {
    guard,
    accounts,
    sessions,
    jobs: [guest.job],
    prompt: {
      guest: (address, displayName) =>
        guest.guest.signIn(address, displayName === undefined ? undefined : promptDisplayName(displayName)),
      email: (address, password) => email.login(address.trim().toLowerCase(), password),
    },
    cors,
    adminGuard: guard.requireRole('admin', { allowBasic: true }),
    register(routes) {
      // One allowed-origin policy (SIWE_ALLOWED_ORIGINS) for every REST area a browser page calls.
      routes.router.use(BROWSER_AREAS, cors);
      if (signInAudit) routes.router.use(SIGN_IN_PATHS, signInAudit.scope);
      registerWalletRoutes(routes, wallet, guard);
      guest.register(routes);
      if (outbox) registerOutboxRoutes(routes, outbox);
      registerEmailRoutes(routes, email, guard);
      registerOidcRoutes(routes, sso, guard);
      registerSessionRoutes(routes, { guard, accounts, sessions, ens, audit: options.audit, clock });
      // After the routes: an error middleware sees the refusals of the sign-in routes above.
      if (signInAudit) routes.router.use(SIGN_IN_PATHS, signInAudit.failures);
    },
    async close() {
      mailer?.close();
      await provider?.destroy();
    },
  };
}
