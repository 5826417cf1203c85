import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { telnetDropped } from '../../../platform/metrics';
import type { PromptSignIn } from '../../auth';
import type { ChannelHolds } from '../channelHolds';
import type { RoomAtlas } from '../roomAtlas';
import type { WorldAccess } from '../worldAccess';
import type { InputLine } from './lineAssembler';
import { SignInDialogue, type SignedIn } from './signInDialogue';
import { TelnetConnection, type ConnectionLimits } from './telnetConnection';
import type { LinkCodes } from './linkCodes';
import { TelnetPlayer } from './telnetPlayer';
import { type TerminalStyle, renderLine } from './terminalText';

/** What every session of the telnet port shares. */
export interface SessionDependencies {
  access: WorldAccess;
  signIn: PromptSignIn;
  /** One-time codes from `POST /mud/telnet/code`. */
  codes: LinkCodes;
  atlas: RoomAtlas;
  holds: ChannelHolds;
  logger: Logger;
  worldName: string;
  /** The MSSP table, as the subnegotiation payload. */
  mssp: () => Promise<Buffer>;
  now: () => number;
  limits?: ConnectionLimits;
}

/** MTTS bit for "the client shows ANSI colour". */
const MTTS_ANSI = 1;

/**
 * One terminal from connect to close: the telnet protocol (`TelnetConnection`), then the sign-in dialogue, then the
 * signed-in player. Input before sign-in goes to the dialogue; after, to the player.
 */
export class TelnetSession {
  /** When the client last typed a line (idle timeout). */
  lastInput: number;
  readonly openedAt: number;
  readonly connection: TelnetConnection;
  private readonly dialogue: SignInDialogue;
  private player?: TelnetPlayer;
  /** Width follows NAWS as it changes; colour is on unless MTTS (at sign-in) or `color off` says otherwise. */
  private readonly style: TerminalStyle;

  constructor(
    socket: Socket,
    readonly address: string,
    private readonly deps: SessionDependencies,
  ) {
    this.openedAt = deps.now();
    this.lastInput = this.openedAt;
    const connection = new TelnetConnection(
      socket,
      {
        line: (line) => this.line(line),
        gmcp: (name, body) => this.gmcp(name, body),
        gmcpReady: () => this.player?.gmcpReady(),
        msspRequested: () => void this.sendMssp(),
        abuse: (reason) => {
          telnetDropped.inc({ reason });
          deps.logger.info({ address, reason }, 'telnet client dropped');
        },
      },
      { now: deps.now, ...deps.limits },
    );
    this.connection = connection;
    this.style = {
      get width() {
        return connection.width;
      },
      colour: true,
    };
    this.dialogue = new SignInDialogue(
      {
        say: (text) => this.connection.write(renderLine(text, this.style)),
        prompt: (text) => this.connection.prompt(text),
        echoOff: () => this.connection.echoOff(),
        echoOn: () => this.connection.echoOn(),
        close: (text) => this.connection.close(text),
      },
      deps.signIn,
      deps.access,
      deps.codes,
      address,
      (who) => void this.play(who),
    );
  }

  /** The signed-in user, once there is one. */
  get userId(): string | undefined {
    return this.player?.identity.userId;
  }

  start(): void {
    this.connection.start();
    this.dialogue.open(this.deps.worldName);
  }

  /** Closes with a word to the player (idle timeout, shutdown, connection cap). */
  close(text: string): void {
    this.connection.close(renderLine(text, this.style));
  }

  /** The socket closed: stop streaming, and let the player leave the world if this was their last channel. */
  closed(): void {
    const player = this.player;
    if (!player) return;
    const { userId } = player.identity;
    if (!this.deps.holds.drop(userId)) {
      void player.closed();
      return;
    }
    player
      .closed()
      .then(() => this.deps.access.release(userId))
      .catch((err: unknown) => this.deps.logger.debug({ err, userId }, 'releasing a telnet player failed'));
  }

  private line(line: InputLine): void {
    this.lastInput = this.deps.now();
    if (line.kind === 'overlong') {
      this.connection.write(
        renderLine(`That line was longer than ${line.limit} bytes and was ignored.`, this.style),
      );
      return;
    }
    if (this.player) return this.player.line(line.text);
    this.dialogue.line(line.text).catch((err: unknown) => {
      this.deps.logger.warn({ err, address: this.address }, 'telnet sign-in failed');
      this.connection.close('The server could not sign you in; try again later.\r\n');
    });
  }

  private async play({ identity, guest }: SignedIn): Promise<void> {
    if (this.connection.mtts !== undefined) this.style.colour = (this.connection.mtts & MTTS_ANSI) !== 0;
    const player = new TelnetPlayer(
      identity,
      guest,
      this.connection,
      this.style,
      this.deps.access,
      this.deps.atlas,
      this.deps.logger,
      this.deps.now,
    );
    this.player = player;
    this.deps.holds.hold(identity.userId);
    if (this.connection.socket.destroyed) return this.closed();
    this.connection.write(renderLine(`You are ${identity.name}.${guest ? ' (guest)' : ''}`, this.style));
    try {
      await player.open();
    } catch (err) {
      this.deps.logger.warn({ err, userId: identity.userId }, 'telnet player could not enter the world');
      this.connection.close('The world is not available right now; try again shortly.\r\n');
    }
  }

  private gmcp(name: string, body: unknown): void {
    const lower = name.toLowerCase();
    if (lower === 'core.supports.set' || lower === 'core.supports.add') {
      const packages = Array.isArray(body) ? body.filter((p): p is string => typeof p === 'string') : [];
      const names = packages.map((p) => p.split(' ')[0].toLowerCase());
      const supports = lower.endsWith('.set') ? new Set<string>() : (this.connection.supports ?? new Set());
      for (const pkg of names) supports.add(pkg);
      this.connection.supports = supports;
      this.player?.gmcpReady();
    } else if (lower === 'core.supports.remove' && Array.isArray(body)) {
      for (const pkg of body)
        if (typeof pkg === 'string') this.connection.supports?.delete(pkg.split(' ')[0].toLowerCase());
    } else if (lower === 'core.hello') {
      const hello = (body ?? {}) as { client?: unknown; version?: unknown };
      this.deps.logger.debug({ client: hello.client, version: hello.version }, 'telnet client hello');
    } else if (lower === 'core.ping') {
      this.connection.sendGmcp(['Core.Ping', undefined]);
    }
  }

  private async sendMssp(): Promise<void> {
    try {
      this.connection.sendMssp(await this.deps.mssp());
    } catch (err) {
      this.deps.logger.warn({ err }, 'MSSP table failed');
    }
  }
}
