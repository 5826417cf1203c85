import { Client, type Room } from '@colyseus/sdk';
import { type BaseWallet, Wallet } from 'ethers';
import request from 'supertest';
import WebSocket from 'ws';
import type { Clock } from '../../../platform/clock';
import { productParts } from '../../../productParts';
import { areaRoomName } from '../../../rooms/areaRoomOptions';
import type { MudEvent } from '../../../rooms/text/narration';
import type { ServerFrame } from '../../../services/mud/playerSocket';
import { EventLog } from '../../helpers/gameServer';
import { socketOpened } from '../../helpers/handshake';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signInWithWallet } from '../../helpers/siwe';

/** The whole platform (identity + world) with the game role, wallet sign-in on and a fast 10 ms tick. */
export function startWorldPlatform(env: Record<string, string> = {}, clock?: Clock): Promise<TestPlatform> {
  return startTestPlatform(
    { ROLES: 'api,game,worker', SIWE_ENABLED: '1', MUD_TICK_MS: '10', ...env },
    productParts,
    clock,
  );
}

/** A signed-in player: their session token and user id. */
export interface Player {
  token: string;
  userId: string;
}

/** Signs a wallet (default a new one) in through the public routes. */
export async function signIn(url: string, wallet: BaseWallet = Wallet.createRandom()): Promise<Player> {
  const { body } = await signInWithWallet(url, wallet);
  const me = await request(url).get('/auth/me').set('Authorization', `Bearer ${body.token}`).expect(200);
  return { token: body.token, userId: me.body.id };
}

/** Writes a saved character for `player` (a level-1 villager in the square unless `overrides` say otherwise). */
export async function buildCharacter(
  server: TestPlatform,
  player: Player,
  overrides: Record<string, unknown> = {},
): Promise<void> {
  await server.platform.stores.mongo.collection('characters').insertOne({
    userId: player.userId,
    name: 'Villager',
    roomRef: 'village:square',
    health: 30,
    maxHealth: 30,
    level: 1,
    xp: 0,
    currencies: { soft: 0, hard: 0 },
    inventory: {},
    equipment: {},
    skills: {},
    quests: {},
    relations: {},
    companion: null,
    updatedAt: Date.now(),
    ...overrides,
  });
}

/** `POST /mud/action` (or another world route) as `player`. */
export function act(url: string, player: Player | undefined, body: unknown, path = '/mud/action') {
  const req = request(url).post(path);
  if (player) req.set('Authorization', `Bearer ${player.token}`);
  return req.send(body as object);
}

/** Joins the player's area room with the Colyseus SDK; resolves after the first room description. */
export async function joinWithSdk(url: string, player: Player, areaId = 'village') {
  const client = new Client(url);
  client.auth.token = player.token;
  const room: Room = await client.joinOrCreate(areaRoomName(areaId));
  const log = new EventLog(room);
  await log.waitFor((e) => e.type === 'room.look');
  return { client, room, log };
}

/** A plain-WebSocket client of `/mud/ws/{user_id}` that records frames and lets a test wait for one. */
export class ChannelClient {
  readonly frames: ServerFrame[] = [];
  private waiters: Array<{ match: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void }> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as ServerFrame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => (w.match(frame) ? (w.resolve(frame), false) : true));
    });
  }

  /**
   * Opens the channel of `userId` presenting `token` as a bearer header (or, like a browser, as the
   * `bearer.<token>` subprotocol beside `mud.v1`); rejects with the refusal's status and problem body.
   */
  static open(
    url: string,
    userId: string,
    token?: string,
    via: 'header' | 'subprotocol' = 'header',
  ): Promise<ChannelClient> {
    const address = `${url.replace(/^http/, 'ws')}/mud/ws/${userId}`;
    const socket =
      via === 'subprotocol'
        ? new WebSocket(address, ['mud.v1', `bearer.${token}`])
        : new WebSocket(address, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const client = new ChannelClient(socket);
    return socketOpened(socket).then(() => client);
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame (already received or future) matching `match`. */
  waitFor(match: (f: ServerFrame) => boolean, timeoutMs = 5000): Promise<ServerFrame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching frame; got ${JSON.stringify(this.frames.map((f) => f.type))}`)),
        timeoutMs,
      );
      this.waiters.push({ match, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  }

  /** The next frame after those received so far matching `match`. */
  next(match: (f: ServerFrame) => boolean, timeoutMs = 5000): Promise<ServerFrame> {
    const from = this.frames.length;
    return this.waitFor((f) => this.frames.indexOf(f) >= from && match(f), timeoutMs);
  }

  /** Event frames' texts. */
  texts(): string[] {
    return this.frames.flatMap((f) => (f.type === 'event' ? [f.event.text] : []));
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/** Texts of events. */
export const textsOf = (events: MudEvent[]) => events.map((e) => e.text);
