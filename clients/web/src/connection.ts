import { Client, type Room } from '@colyseus/sdk';
import type { MudEvent } from './events';

/** Connection status shown to the player. */
export type LinkStatus = 'connecting' | 'online' | 'reconnecting' | 'signed-out';

export interface WorldListener {
  onRoom(room: Room): void;
  onEvents(events: MudEvent[]): void;
  onStatus(status: LinkStatus, detail?: string): void;
  /** The session was refused (expired or revoked): back to sign-in. */
  onUnauthenticated(): void;
}

const FIRST_AREA = 'village';
const REJOIN_MIN_MS = 500;
const REJOIN_MAX_MS = 5_000;

/**
 * The player's link to the world over Colyseus: joins the area room hosting the character (following a
 * `WRONG_AREA: <area>` refusal to the right one), follows area handoffs through their seat reservations without a
 * reload, lets the SDK's own reconnection retry a dropped socket, and, when that fails (the server restarted),
 * joins again with the session token until the world answers.
 */
export class WorldConnection {
  private readonly client: Client;
  private room: Room | undefined;
  private area = FIRST_AREA;
  private closed = false;
  private rejoinDelay = REJOIN_MIN_MS;

  constructor(
    token: string,
    private readonly listener: WorldListener,
  ) {
    this.client = new Client(location.origin);
    this.client.auth.token = token;
  }

  /** Joins the world (and keeps trying until it answers). */
  async start(): Promise<void> {
    this.listener.onStatus('connecting');
    await this.join();
  }

  /** Sends a typed command line (`look`, `n`, `attack rat`); the world answers with events. */
  command(line: string): boolean {
    if (!this.room) return false;
    this.room.send('command', { line });
    return true;
  }

  /** Leaves the world for good (sign-out). */
  async close(): Promise<void> {
    this.closed = true;
    const room = this.room;
    this.room = undefined;
    await room?.leave(true).catch(() => undefined);
  }

  private async join(): Promise<void> {
    while (!this.closed) {
      try {
        this.attach(await this.client.joinOrCreate(`area_${this.area}`));
        return;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const wrongArea = /WRONG_AREA: (\S+)/.exec(message);
        if (wrongArea?.[1]) {
          this.area = wrongArea[1];
          continue;
        }
        if (/UNAUTHENTICATED/.test(message)) {
          this.listener.onUnauthenticated();
          return;
        }
        this.listener.onStatus('reconnecting', message);
        await sleep(this.rejoinDelay);
        this.rejoinDelay = Math.min(REJOIN_MAX_MS, this.rejoinDelay * 2);
      }
    }
  }

  private attach(room: Room): void {
    this.room = room;
    this.area = room.name.replace(/^area_/, '');
    this.rejoinDelay = REJOIN_MIN_MS;
    room.reconnection.maxRetries = 3;
    room.reconnection.minUptime = 0;
    room.onMessage('events', (events: MudEvent[]) => {
      this.listener.onEvents(events);
      const handoff = events.find((event) => event.type === 'area.handoff');
      if (handoff) void this.handOff(room, handoff);
    });
    room.onDrop(() => this.listener.onStatus('reconnecting', 'connection lost'));
    room.onReconnect(() => this.listener.onStatus('online'));
    room.onLeave(() => {
      if (this.room !== room || this.closed) return;
      this.room = undefined;
      this.listener.onStatus('reconnecting', 'rejoining the world');
      void this.join();
    });
    this.listener.onRoom(room);
    this.listener.onStatus('online');
  }

  /** Moves to the next area's room with the reservation the old room made, then leaves the old one. */
  private async handOff(from: Room, handoff: MudEvent): Promise<void> {
    const reservation = handoff.data.reservation;
    this.area = String(handoff.data.areaId ?? this.area);
    this.room = undefined;
    try {
      const next = reservation
        ? await this.client.consumeSeatReservation(reservation as never)
        : await this.client.joinOrCreate(`area_${this.area}`);
      this.attach(next);
    } catch {
      void this.join();
    }
    await from.leave(true).catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
