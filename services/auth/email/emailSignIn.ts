import { Types, type Connection } from 'mongoose';
import type { Logger } from 'pino';
import { emailVerificationModel } from '../../../models/EmailVerification';
import { identityModel } from '../../../models/Identity';
import type { Clock } from '../../../platform/clock';
import { retryAfter } from '../../../platform/errors';
import type { Limiter } from '../../../platform/http/rateLimit';
import { authError } from '../errors';
import type { Accounts } from '../accounts';
import type { IssuedSession, Sessions } from '../sessions';
import { hashSecret, newVerificationCode } from '../tokens';
import type { Mailer } from './mailer';
import { hashPassword, passwordMatches } from './passwords';

export interface EmailSignInOptions {
  /** Base URL placed in verification links, e.g. https://forge.example.com */
  publicBaseUrl: string;
  verificationTtlMinutes: number;
  sessionTtlSeconds: number;
}

export interface EmailSignInDependencies {
  connection: Connection;
  accounts: Accounts;
  sessions: Sessions;
  /** Absent when SMTP is not configured: every email route then answers 501. */
  mailer?: Mailer;
  /** Counts login attempts per address. */
  loginAttempts: Limiter;
  clock: Clock;
  logger: Logger;
}

const LOGIN_FAILED = () => authError('EMAIL_LOGIN_FAILED', 'Invalid email or password');

/**
 * Email-first sign-in: register (the answer never reveals whether the address exists), verify with the single-use
 * code mailed as a code and a link, then log in with the password. Registering while signed in links the address
 * to the current account once verified. An unverified address belongs to nobody yet, so a later registration of
 * it takes it over; a verified one is never moved (its owner gets a notice instead).
 */
export class EmailSignIn {
  private readonly identities;
  private readonly verifications;

  constructor(
    private readonly options: EmailSignInOptions,
    private readonly deps: EmailSignInDependencies,
  ) {
    this.identities = identityModel(deps.connection);
    this.verifications = emailVerificationModel(deps.connection);
  }

  async register(email: string, password: string, linkTo?: Types.ObjectId): Promise<void> {
    const mailer = this.mailer();
    const passwordHash = await hashPassword(password);
    const existing = await this.identities.findOne({ kind: 'email', subject: email }).lean();
    if (existing?.verifiedAt) {
      this.deliver(mailer, {
        to: email,
        subject: 'Someone tried to register your address',
        text: 'Your address is already registered on Forge Platform. If this was you, sign in instead.',
      });
      return;
    }
    const userId = linkTo ?? existing?.userId ?? new Types.ObjectId();
    const identity = await this.identities.findOneAndUpdate(
      { kind: 'email', subject: email, verifiedAt: null },
      { $set: { userId, passwordHash }, $setOnInsert: { kind: 'email', subject: email, verifiedAt: null } },
      { upsert: true, returnDocument: 'after' },
    );
    await this.verifications.deleteMany({ identityId: identity._id });
    const code = newVerificationCode();
    await this.verifications.create({
      codeHash: hashSecret(code),
      identityId: identity._id,
      expiresAt: new Date(this.deps.clock.now() + this.options.verificationTtlMinutes * 60_000),
    });
    const link = new URL('/auth/email/verify', this.options.publicBaseUrl);
    link.searchParams.set('code', code);
    this.deliver(mailer, {
      to: email,
      subject: 'Verify your email address',
      text: `Your Forge Platform verification code is:\n\n${code}\n\nOr open ${link.href}\n\nIt expires in ${this.options.verificationTtlMinutes} minutes.`,
    });
  }

  /** Consumes a verification code (single use) and signs the owner in. */
  async verify(code: string): Promise<IssuedSession> {
    this.mailer();
    const verification = await this.verifications.findOneAndDelete({
      codeHash: hashSecret(code),
      expiresAt: { $gt: new Date(this.deps.clock.now()) },
    });
    const identity = verification && (await this.identities.findById(verification.identityId).lean());
    if (!identity) {
      throw authError('EMAIL_CODE_INVALID', 'The code is invalid, expired or already used', { errors: [] });
    }
    const userId = await this.deps.accounts.proveIdentity('email', identity.subject, {}, identity.userId);
    return this.deps.sessions.issue(userId, 'email', this.options.sessionTtlSeconds);
  }

  async login(email: string, password: string): Promise<IssuedSession> {
    this.mailer();
    const attempt = await this.deps.loginAttempts.hit(email);
    if (!attempt.allowed) {
      throw authError(
        'EMAIL_LOGIN_THROTTLED',
        'Too many login attempts for this address',
        retryAfter(attempt.resetSeconds),
      );
    }
    const identity = await this.identities.findOne({ kind: 'email', subject: email }).lean();
    const matches = await passwordMatches(identity?.passwordHash, password, (error) =>
      this.deps.logger.error(
        { err: error, userId: identity?.userId.toString(), code: 'PASSWORD_HASH_CORRUPT' },
        'stored password hash is unreadable; the login was refused',
      ),
    );
    if (!matches || !identity) throw LOGIN_FAILED();
    if (!identity.verifiedAt) throw authError('EMAIL_NOT_VERIFIED', 'Verify your email address first');
    const userId = await this.deps.accounts.proveIdentity('email', email, {}, identity.userId);
    return this.deps.sessions.issue(userId, 'email', this.options.sessionTtlSeconds);
  }

  private mailer(): Mailer {
    if (!this.deps.mailer) throw authError('EMAIL_DISABLED', 'Email sign-in is not configured (SMTP_URL)');
    return this.deps.mailer;
  }

  // Sent in the background so the answer takes the same time whatever the address's state.
  private deliver(mailer: Mailer, mail: { to: string; subject: string; text: string }): void {
    mailer
      .send(mail)
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'verification mail not sent'));
  }
}
