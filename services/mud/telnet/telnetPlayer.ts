import type { Logger } from 'pino';
import { AppError } from '../../../platform/errors';
import type { ActionOutcome } from '../../../rooms/actionOutcome';
import type { PlayerIdentity } from '../../../rooms/persistence';
import type { MudEvent } from '../../../rooms/text/narration';
import { FRAMES_PER_SECOND } from '../playerSocket';
import type { RoomAtlas } from '../roomAtlas';
import type { WorldAccess } from '../worldAccess';
import type { GmcpMessage } from './gmcpMessages';
import { GmcpReporter, type StaleLists } from './gmcpReporter';
import { type TerminalStyle, renderEvent, renderLine } from './terminalText';

/** What a playing session writes to. */
export interface PlayerTerminal {
  write(text: string): void;
  prompt(text: string): void;
  sendGmcp(message: GmcpMessage): void;
  readonly gmcp: boolean;
  close(text: string): void;
}

/**
 * A signed-in telnet player. Each line is a typed command run through the action gateway as
 * `{action: "command", line}` — the path of `POST /mud/action` and the plain WebSocket — one at a time, in order,
 * at most FRAMES_PER_SECOND lines a second (the WebSocket's limit); the action's events, then a prompt, are written
 * back. Events the player witnesses between actions arrive through the gateway's subscription, batched per turn of
 * the event loop. `color off|on` and `quit` are the terminal's own.
 */
export class TelnetPlayer {
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe?: () => void;
  private witnessed: MudEvent[] = [];
  private flushScheduled = false;
  private windowStart = 0;
  private linesInWindow = 0;
  private health = '';
  private ended = false;
  private readonly reporter: GmcpReporter;

  constructor(
    readonly identity: PlayerIdentity,
    private readonly guest: boolean | undefined,
    private readonly terminal: PlayerTerminal,
    private readonly style: TerminalStyle,
    private readonly access: WorldAccess,
    atlas: RoomAtlas,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    this.reporter = new GmcpReporter(identity.userId, atlas, (message) => terminal.sendGmcp(message));
  }

  /** Starts streaming events, tells GMCP who this is and describes the room. */
  async open(): Promise<void> {
    this.unsubscribe = await this.access.subscribe(this.identity.userId, (event) => this.witness(event));
    this.gmcpReady();
    this.enqueue({ action: 'look' }, true);
  }

  /** GMCP was (or already is) on: send the character's name and what is known, then the lists. */
  gmcpReady(): void {
    if (!this.terminal.gmcp) return;
    this.reporter.hello(this.identity.name, this.guest);
    this.refresh({ items: true, quests: true });
  }

  /**
   * The connection closed: stop streaming and run nothing more. Resolves once the action in flight (if any) is done,
   * so the player is released after it, not re-attached by it.
   */
  closed(): Promise<void> {
    this.ended = true;
    this.unsubscribe?.();
    return this.queue;
  }

  /** A line the player typed. */
  line(text: string): void {
    if (!this.withinRate()) {
      this.terminal.write(
        renderLine(`At most ${FRAMES_PER_SECOND} commands a second; that one was dropped.`, this.style),
      );
      return;
    }
    const [verb, arg] = text.toLowerCase().split(/\s+/);
    if (verb === 'quit') return this.terminal.close('Farewell. Your character is saved.\r\n');
    if ((verb === 'color' || verb === 'colour') && (arg === 'on' || arg === 'off')) {
      this.style.colour = arg === 'on';
      this.terminal.write(renderLine(`Colour is ${arg}.`, this.style));
      return this.showPrompt();
    }
    if (text === '') return this.showPrompt();
    this.enqueue({ action: 'command', line: text }, true);
  }

  private enqueue(action: unknown, shown: boolean): void {
    this.queue = this.queue.then(() => this.run(action, shown));
  }

  private async run(action: unknown, shown: boolean): Promise<void> {
    if (this.ended) return;
    try {
      const outcome = await this.access.perform(this.identity, action, { backlog: false });
      this.report(outcome, shown);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500)
        this.log.warn({ err: error, userId: this.identity.userId }, 'telnet action failed');
      if (!shown) return;
      const message =
        error instanceof AppError ? (error.detail ?? error.message) : 'That failed on the server.';
      this.terminal.write(renderEvent(message, 'system', 'error', this.style));
      this.showPrompt();
    }
  }

  private report(outcome: ActionOutcome, shown: boolean): void {
    if (shown) this.terminal.write(this.render(outcome.events));
    if (this.terminal.gmcp) {
      this.reporter.snapshot(outcome.player);
      const stale = this.reporter.events(outcome.events);
      // A refresh's own results say nothing new is stale, so refreshing never loops.
      // The snapshot just sent is the player as the action left them: only the lists may need reading.
      if (shown) this.refresh({ ...stale, player: false });
    }
    this.health = `${outcome.player.health}/${outcome.player.maxHealth}`;
    if (shown) this.showPrompt();
  }

  /** Reads the inventory, quest log or player again, silently, for GMCP. */
  private refresh(stale: Partial<StaleLists>): void {
    if (!this.terminal.gmcp) return;
    if (stale.player) this.enqueue({ action: 'look' }, false);
    if (stale.items) this.enqueue({ action: 'inventory' }, false);
    if (stale.quests) this.enqueue({ action: 'quests' }, false);
  }

  private witness(event: MudEvent): void {
    this.witnessed.push(event);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const events = this.witnessed;
      this.witnessed = [];
      this.terminal.write('\r\n' + this.render(events));
      if (this.terminal.gmcp) this.refresh(this.reporter.events(events));
      this.showPrompt();
    });
  }

  private render(events: MudEvent[]): string {
    return events.map((event) => renderShared(event, this.style)).join('');
  }

  private showPrompt(): void {
    this.terminal.prompt(this.health ? `[${this.health} hp] > ` : '> ');
  }

  private withinRate(): boolean {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.linesInWindow = 0;
    }
    this.linesInWindow += 1;
    return this.linesInWindow <= FRAMES_PER_SECOND;
  }
}

/**
 * The last rendering of each event and the style it was rendered in. The bystanders of one room witness the very
 * same event object (narrated once, rooms/eventDelivery.ts, and passed by reference by in-process presence), and
 * nearly all terminals share one style (80 columns, colour on): the text is rendered once for all of them.
 */
const rendered = new WeakMap<MudEvent, { width: number; colour: boolean; text: string }>();

function renderShared(event: MudEvent, style: TerminalStyle): string {
  const last = rendered.get(event);
  if (last && last.width === style.width && last.colour === style.colour) return last.text;
  const text = renderEvent(event.text, event.channel, event.type, style);
  rendered.set(event, { width: style.width, colour: style.colour, text });
  return text;
}
