import { createHash, randomInt } from 'node:crypto';
import type { Clock } from '../../../platform/clock';
import type { EphemeralStore } from '../../../platform/stores/ephemeralStore';

/** How long a link code stays good, seconds. */
export const LINK_CODE_TTL_SECONDS = 300;

/** Letters and digits that cannot be mistaken for one another when read off a page (no 0/O, 1/I/L, U). */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 8;

/** A code issued to a signed-in user. */
export interface IssuedLinkCode {
  /** `XXXX-XXXX`, typed at the telnet prompt as `code XXXX-XXXX` (case and the dash do not matter). */
  code: string;
  expiresAt: Date;
  /** Seconds until it expires. */
  expiresIn: number;
}

/**
 * One-time codes that sign a terminal into the character of the web page's user (`link telnet`): a signed-in user
 * asks for one (`POST /mud/telnet/code`), types it at the telnet prompt within LINK_CODE_TTL_SECONDS, and it is gone
 * (the store's `take` is atomic, so two terminals cannot both use it). Eight characters of a 30-letter alphabet
 * (~39 bits) against three tries per connection: guessing is hopeless. Codes are kept hashed.
 */
export class LinkCodes {
  constructor(
    private readonly store: EphemeralStore<{ userId: string }>,
    private readonly clock: Clock,
  ) {}

  async issue(userId: string): Promise<IssuedLinkCode> {
    const raw = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    await this.store.put(keyOf(raw), { userId }, LINK_CODE_TTL_SECONDS);
    return {
      code: `${raw.slice(0, 4)}-${raw.slice(4)}`,
      expiresAt: new Date(this.clock.now() + LINK_CODE_TTL_SECONDS * 1000),
      expiresIn: LINK_CODE_TTL_SECONDS,
    };
  }

  /** The user a typed code was issued to, using it up; undefined for an unknown, used or expired code. */
  async redeem(typed: string): Promise<string | undefined> {
    const raw = typed.toUpperCase().replace(/[\s-]/g, '');
    if (raw.length !== LENGTH) return undefined;
    return (await this.store.take(keyOf(raw)))?.userId;
  }
}

function keyOf(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}
