import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import { AppError } from '../../platform/errors';
import type { PlayerIdentity } from '../../rooms/persistence';
import { toErrorBody } from '../../rooms/rules/errors';
import { mudError } from './errors';
import { presentOutcome } from './presenters';
import { type ActionResult, FrameIdSchema, type MudEventBody } from './schemas';
import type { WorldAccess } from './worldAccess';

/** Frames the server sends on the plain WebSocket channel (JSON text). */
export type ServerFrame =
  | { type: 'event'; event: MudEventBody }
  | { type: 'result'; id?: string; result: Omit<ActionResult, 'events'> }
  | {
      type: 'error';
      id?: string;
      status: number;
      code: string;
      message: string;
      errors?: Array<{ path: string; message: string }>;
    };

/** Action frames a connection may send per second; more are answered `RATE_LIMITED` and dropped. */
export const FRAMES_PER_SECOND = 30;

/**
 * One open plain-WebSocket channel of a player. Action frames run one at a time, in order, through the
 * action gateway; their events go out as `event` frames followed by a `result` frame, and everything the
 * player witnesses meanwhile arrives as `event` frames. A malformed frame gets an `error` frame and changes
 * nothing.
 */
export class PlayerSocket {
  private queue: Promise<void> = Promise.resolve();
  private windowStart = 0;
  private framesInWindow = 0;
  private unsubscribe?: () => void;

  constructor(
    private readonly socket: WebSocket,
    readonly identity: PlayerIdentity,
    private readonly access: WorldAccess,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  /** Starts streaming events and describes the player's room (the first frames are a `look`). */
  async open(): Promise<void> {
    this.socket.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    this.unsubscribe = await this.access.subscribe(this.identity.userId, (event) =>
      this.send({ type: 'event', event }),
    );
    this.enqueue(undefined, { action: 'look' });
  }

  /** Stops streaming (the socket closed). */
  closed(): void {
    this.unsubscribe?.();
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    if (!this.withinRate()) {
      this.sendError(
        undefined,
        new AppError(429, 'RATE_LIMITED', 'Too Many Requests', {
          detail: `At most ${FRAMES_PER_SECOND} frames per second; this one was dropped.`,
        }),
      );
      return;
    }
    const frame = isBinary ? undefined : parseJson(data.toString());
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) {
      this.sendError(
        undefined,
        malformed('A frame must be a JSON object in a text message, e.g. {"action":"look"}.'),
      );
      return;
    }
    const { id, ...action } = frame as Record<string, unknown>;
    if (id !== undefined && !FrameIdSchema.safeParse(id).success) {
      this.sendError(undefined, malformed('"id" must be a string of 1-64 characters.'));
      return;
    }
    this.enqueue(id as string | undefined, action);
  }

  private enqueue(id: string | undefined, action: unknown): void {
    this.queue = this.queue.then(() => this.run(id, action));
  }

  private async run(id: string | undefined, action: unknown): Promise<void> {
    try {
      const { events, ...result } = presentOutcome(
        await this.access.perform(this.identity, action, { backlog: false }),
      );
      for (const event of events) this.send({ type: 'event', event });
      this.send({ type: 'result', ...(id === undefined ? {} : { id }), result });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500)
        this.log.warn({ err: error, userId: this.identity.userId }, 'world channel action failed');
      this.sendError(id, error);
    }
  }

  private withinRate(): boolean {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.framesInWindow = 0;
    }
    this.framesInWindow += 1;
    return this.framesInWindow <= FRAMES_PER_SECOND;
  }

  private sendError(id: string | undefined, error: unknown): void {
    const body = toErrorBody(error);
    this.send({ type: 'error', ...(id === undefined ? {} : { id }), ...body });
  }

  private send(frame: ServerFrame): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(frame));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function malformed(detail: string): AppError {
  return mudError('MALFORMED_FRAME', detail);
}
