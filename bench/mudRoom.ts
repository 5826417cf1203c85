/**
 * Bench: N SDK clients (default 500, `CLIENTS=`) in one area room simulating at 10 Hz; each client sends
 * `ACTIONS=` (default 20) `look`/`say` requests in turn and the round trip of each request is recorded.
 * Prints join time, action round-trip p50/p95/p99 and process memory. Target: p95 < 50 ms at 500 clients.
 *
 *   npx tsx bench/mudRoom.ts
 */
import { Server, matchMaker } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Client, type Room } from '@colyseus/sdk';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AREA_ROOM_NAME } from '../rooms/areaRoomOptions';
import { defineAreaRooms } from '../rooms/areaRooms';
import { loadWorld } from '../rooms/content/loader';
import { InMemoryPlayerStore } from '../rooms/persistence';

const CLIENTS = Number(process.env.CLIENTS ?? 500);
const ACTIONS = Number(process.env.ACTIONS ?? 20);
const ROOMS = ['village:square', 'village:market', 'village:inn', 'village:chapel', 'village:smithy'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const world = await loadWorld();
  const store = new InMemoryPlayerStore();
  // Spread the characters over a few rooms, as a real crowd would be.
  for (let i = 0; i < CLIENTS; i++) {
    await store.save({
      userId: `u${i}`,
      name: `P${i}`,
      roomRef: ROOMS[i % ROOMS.length],
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
      updatedAt: 0,
    });
  }
  const server = new Server({ transport: new WebSocketTransport(), gracefullyShutdown: false, greet: false });
  defineAreaRooms(server, {
    world,
    store,
    authenticate: async (token) => ({ userId: token, name: token.toUpperCase() }),
    tickMs: 100,
    maxMessagesPerSecond: 1000,
  });
  await server.listen(0, '127.0.0.1');
  const port = (server.transport.server!.address() as AddressInfo).port;

  const joinStart = performance.now();
  const rooms: Room[] = [];
  for (let i = 0; i < CLIENTS; i += 50) {
    const batch = Array.from({ length: Math.min(50, CLIENTS - i) }, async (_, j) => {
      const client = new Client(`ws://127.0.0.1:${port}`);
      client.auth.token = `u${i + j}`;
      const room = await client.joinOrCreate(AREA_ROOM_NAME, { areaId: 'village' });
      room.onMessage('event', () => undefined);
      return room;
    });
    rooms.push(...(await Promise.all(batch)));
  }
  const joinMs = performance.now() - joinStart;

  const samples: number[] = [];
  const actStart = performance.now();
  await Promise.all(
    rooms.map(async (room, i) => {
      for (let n = 0; n < ACTIONS; n++) {
        const t0 = performance.now();
        if (process.env.SAY !== '0' && (n + i) % 5 === 0) await room.request('say', { text: `hello ${n}` });
        else await room.request('look');
        samples.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 50 + ((i * 7 + n) % 100)));
      }
    }),
  );
  const actMs = performance.now() - actStart;
  samples.sort((a, b) => a - b);
  const memory = process.memoryUsage();
  const areaRoom = matchMaker.getLocalRoomById('area_village');
  console.log(
    JSON.stringify(
      {
        clients: CLIENTS,
        playersInRoom: areaRoom?.clients.length,
        tickHz: 10,
        joinSeconds: +(joinMs / 1000).toFixed(2),
        actions: samples.length,
        actionsPerSecond: Math.round(samples.length / (actMs / 1000)),
        roundTripMs: {
          p50: +percentile(samples, 50).toFixed(2),
          p95: +percentile(samples, 95).toFixed(2),
          p99: +percentile(samples, 99).toFixed(2),
          max: +samples[samples.length - 1].toFixed(2),
        },
        memoryMB: { rss: Math.round(memory.rss / 2 ** 20), heapUsed: Math.round(memory.heapUsed / 2 ** 20) },
        target: 'p95 < 50 ms',
      },
      null,
      2,
    ),
  );
  await Promise.all(rooms.map((room) => room.leave().catch(() => undefined)));
  await server.gracefullyShutdown(false);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
