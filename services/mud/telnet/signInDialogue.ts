import { AppError } from '../../../platform/errors';
import type { PlayerIdentity } from '../../../rooms/persistence';
import { Types } from 'mongoose';
import type { PromptSignIn } from '../../auth';
import type { WorldAccess } from '../worldAccess';
import type { LinkCodes } from './linkCodes';

/** What the dialogue says and does on the terminal. */
export interface DialogueTerminal {
  say(text: string): void;
  prompt(text: string): void;
  echoOff(): void;
  echoOn(): void;
  close(text: string): void;
}

/** Wrong passwords (or refused guest names) before the connection is closed. */
export const MAX_SIGN_IN_FAILURES = 3;

/** Who signed in: the player and, when the way they signed in says, whether they are a guest. */
export interface SignedIn {
  identity: PlayerIdentity;
  guest?: boolean;
}

/**
 * The sign-in conversation at the telnet prompt: `guest [name]` plays as a new guest (tier 0, the rules and limits of
 * `POST /auth/guest`, counted per client address); an email address asks for the password with the terminal's echo
 * off, then signs in as `POST /auth/email/login` does (its attempt limit included); `code <code>` redeems a one-time
 * code from `POST /mud/telnet/code` (the web page's `link telnet`); `quit` leaves. Each failure says why; after
 * MAX_SIGN_IN_FAILURES the connection closes.
 */
export class SignInDialogue {
  private email?: string;
  private failures = 0;
  private busy = false;

  constructor(
    private readonly terminal: DialogueTerminal,
    private readonly signIn: PromptSignIn,
    private readonly access: WorldAccess,
    private readonly codes: LinkCodes,
    private readonly address: string,
    private readonly signedIn: (who: SignedIn) => void,
  ) {}

  /** The greeting and first prompt. */
  open(worldName: string): void {
    this.terminal.say(
      `Welcome to ${worldName}.\n` +
        'Type "guest" to play as a guest (or "guest <name>" to choose your name), ' +
        'or type the email address of your account, or "code <code>" with a code from the web page ' +
        '("link telnet"). "quit" leaves.',
    );
    this.terminal.prompt('Name or email: ');
  }

  /** A line typed before sign-in. Lines typed while a sign-in is being checked are ignored. */
  async line(text: string): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.answer(text);
    } finally {
      this.busy = false;
    }
  }

  private async answer(text: string): Promise<void> {
    if (this.email !== undefined) return this.password(this.email, text);
    const [word, ...rest] = text.split(/\s+/);
    const verb = word.toLowerCase();
    if (verb === '') return this.terminal.prompt('Name or email: ');
    if (verb === 'quit') return this.terminal.close('Farewell.\r\n');
    if (verb === 'guest') return this.guest(rest.join(' ') || undefined);
    if (verb === 'code') return this.code(rest.join(''));
    if (/^[^\s@]+@[^\s@]+$/.test(word)) {
      this.email = word;
      this.terminal.echoOff();
      return this.terminal.prompt('Password: ');
    }
    this.terminal.say('Type "guest", "guest <name>" or your email address.');
    this.terminal.prompt('Name or email: ');
  }

  private async guest(name: string | undefined): Promise<void> {
    await this.attempt(async () => {
      const session = await this.signIn.guest(this.address, name);
      return { token: session.token, guest: true };
    });
  }

  private async code(typed: string): Promise<void> {
    const userId = await this.codes.redeem(typed);
    if (userId === undefined) return this.failed('That code is unknown, used or expired.');
    this.signedIn({ identity: await this.access.player(new Types.ObjectId(userId)) });
  }

  private async password(email: string, password: string): Promise<void> {
    this.email = undefined;
    this.terminal.echoOn();
    await this.attempt(async () => {
      const session = await this.signIn.email(email, password);
      return { token: session.token, guest: false };
    });
  }

  private async attempt(issue: () => Promise<{ token: string; guest: boolean }>): Promise<void> {
    try {
      const { token, guest } = await issue();
      const identity = await this.access.authenticate(token);
      if (!identity) throw new AppError(401, 'INVALID_CREDENTIAL', 'Unauthorized');
      this.signedIn({ identity, guest });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      this.failed(error.detail ?? error.message);
    }
  }

  private failed(reason: string): void {
    this.failures += 1;
    if (this.failures >= MAX_SIGN_IN_FAILURES) {
      return this.terminal.close(`${reason}\r\nToo many failed sign-ins.\r\n`);
    }
    this.terminal.say(reason);
    this.terminal.prompt('Name or email: ');
  }
}
