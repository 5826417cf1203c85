import { Types, type Connection } from 'mongoose';
import { userModel } from '../../../models/User';
import type { Clock } from '../../../platform/clock';
import type { Limiter } from '../../../platform/http/rateLimit';
import type { IssuedSession, Sessions } from '../sessions';
import { assertAllowedName, displayNameKey, generatedNames, isDuplicateKey } from './displayNames';
import { GuestErrors } from './errors';

/** Guest sign-in settings (GUEST_SIGNIN_ENABLED, GUEST_SESSION_TTL_SECONDS). */
export interface GuestSignInOptions {
  enabled: boolean;
  sessionTtlSeconds: number;
}

export interface GuestSignInDependencies {
  connection: Connection;
  /** Stamps the guest's creation, which the retention job measures from. */
  clock: Clock;
  sessions: Sessions;
  /** Guests created per client address (GUEST_SIGNIN_PER_HOUR per hour). */
  perAddress: Limiter;
}

/** A new guest: its session and the name the world shows. */
export interface GuestSession extends IssuedSession {
  displayName: string;
}

/**
 * Guest sign-in (tier 0, "Anonymous"): a real user with no identity, who plays the world and uses the public
 * routes. The user is written in one insert carrying its display name, so a taken or refused name creates nothing.
 * A guest who later proves a wallet, email or SSO identity while signed in links it to this same user, so its
 * character stays; guests that never do are removed by the retention job.
 */
export class GuestSignIn {
  private readonly users;

  constructor(
    private readonly options: GuestSignInOptions,
    private readonly deps: GuestSignInDependencies,
  ) {
    this.users = userModel(deps.connection);
  }

  /** Creates a guest for a request from `address`; 501 when disabled, 429 past the per-address limit. */
  async signIn(address: string, displayName?: string): Promise<GuestSession> {
    if (!this.options.enabled) throw GuestErrors.disabled();
    if (displayName !== undefined) assertAllowedName(displayName);
    const decision = await this.deps.perAddress.hit(address);
    if (!decision.allowed) throw GuestErrors.throttled(decision.resetSeconds);
    const { userId, name } =
      displayName === undefined ? await this.createNamed() : await this.create(displayName);
    const session = await this.deps.sessions.issue(userId, 'guest', this.options.sessionTtlSeconds);
    return { ...session, displayName: name };
  }

  /** Inserts the guest under `name`; 409 DISPLAY_NAME_TAKEN when someone holds it. */
  private async create(name: string): Promise<{ userId: Types.ObjectId; name: string }> {
    const created = await this.tryCreate(name);
    if (!created) throw GuestErrors.nameTaken();
    return { userId: created, name };
  }

  /** Inserts the guest under the first free generated name. */
  private async createNamed(): Promise<{ userId: Types.ObjectId; name: string }> {
    const names = generatedNames();
    for (;;) {
      const name = names.next().value as string;
      const userId = await this.tryCreate(name);
      if (userId) return { userId, name };
    }
  }

  private async tryCreate(name: string): Promise<Types.ObjectId | undefined> {
    const userId = new Types.ObjectId();
    try {
      await this.users.create({
        _id: userId,
        roles: ['player'],
        tier: 0,
        guest: true,
        displayName: name,
        displayNameKey: displayNameKey(name),
        createdAt: new Date(this.deps.clock.now()),
      });
      return userId;
    } catch (error) {
      if (isDuplicateKey(error)) return undefined;
      throw error;
    }
  }
}
