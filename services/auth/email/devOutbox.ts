import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../../platform/clock';
import type { Mail, Mailer } from './mailer';

/** A mail kept by the development outbox. */
export interface OutboxMail extends Mail {
  sentAt: Date;
}

/** How many mails the outbox keeps (the oldest go first). */
const OUTBOX_CAPACITY = 100;

/**
 * The development mailer, used when SMTP_URL is unset outside production: each mail is logged in full (a
 * developer reads the verification code in the server's output) and kept in memory for `GET /dev/outbox`. Never
 * used in production, where an unset SMTP_URL keeps email sign-in at 501.
 */
export class DevOutbox implements Mailer {
  private readonly mails: OutboxMail[] = [];
  /**
   * Lets a reader that is not this machine (a phone on the LAN, a container) read the outbox: a random token per
   * start, printed once in the start-up log, presented as `X-Dev-Outbox-Token`.
   */
  readonly readToken = randomBytes(24).toString('base64url');

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    // In the message, not a field: the logger redacts fields named like credentials.
    logger.info(
      `development outbox: mails are kept for GET /dev/outbox, served to this machine or with the header ` +
        `X-Dev-Outbox-Token: ${this.readToken}`,
    );
  }

  async send(mail: Mail): Promise<void> {
    this.mails.push({ ...mail, sentAt: new Date(this.clock.now()) });
    if (this.mails.length > OUTBOX_CAPACITY) this.mails.shift();
    this.logger.info(
      { to: mail.to, subject: mail.subject, text: mail.text },
      'development outbox: mail kept',
    );
  }

  /** The kept mails, newest first. */
  list(): OutboxMail[] {
    return [...this.mails].reverse();
  }

  close(): void {}
}
