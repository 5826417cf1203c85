import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AreaState } from '../../../rooms/state/AreaState';
import type { MudEvent } from '../../../rooms/text/narration';
import { MongoPlayerStore } from '../../../services/mud/characterStore';
import { type RunningServer, spawnServer, waitForLog } from '../../helpers/childProcess';
import { waitForState } from '../../helpers/gameServer';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, joinWithSdk, signIn, startWorldPlatform, textsOf } from './worldPlatform';

/**
 * Fights the cellar rats over combat rounds until one dies at the player's hand. A rat brought down to its
 * last hit point may panic and run (up into the inn), ending that fight, so the player turns on the next one; if
 * every rat has run, the player follows them up, and comes back down after the kill.
 */
async function huntRat({ room, log }: Awaited<ReturnType<typeof joinWithSdk>>): Promise<void> {
  let upstairs = false;
  for (let attempt = 0; attempt < 8; attempt++) {
    const from = log.events.length;
    const attacked = await room.request('attack', { target: 'rat' }).then(
      () => true,
      (error: { reason?: { code?: string } }) => {
        // A refused request carries the world's reason (`{status, code, message}`) as `reason`.
        const code = error.reason?.code;
        if (code === 'ALREADY_FIGHTING') return true;
        if (code === 'NO_SUCH_TARGET' && !upstairs) return false;
        throw new Error(`attack refused: ${JSON.stringify(error.reason ?? error)}`);
      },
    );
    if (!attacked) {
      await room.request('move', { direction: 'up' });
      upstairs = true;
      continue;
    }
    const ended = await log.waitFor(
      (e) => e.type === 'xp.gained' || (e.type === 'creature.left' && /^The (\w+ )?cellar rat/.test(e.text)),
      5000,
      from,
    );
    if (ended.type !== 'xp.gained') continue;
    if (upstairs) await room.request('move', { direction: 'down' });
    return;
  }
  throw new Error('every rat ran away');
}

/** The last inventory line a REST `inventory` action reports. */
async function carried(url: string, player: Player): Promise<string> {
  const res = await act(url, player, { action: 'inventory' }).expect(200);
  return res.body.events.at(-1).text.split('\n')[0];
}

describe('characters persist in MongoDB across restarts', () => {
  let dataDir: string;
  let server: TestPlatform | undefined;
  let child: RunningServer | undefined;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-mud-'));
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps REST progress and what an SDK player earned on ticks (saved when they left)', async () => {
    server = await startWorldPlatform({ DATA_DIR: dataDir });
    const ann = await signIn(server.url);
    const bob = await signIn(server.url);
    await act(server.url, ann, { direction: 'east' }, '/mud/move').expect(200);
    await act(server.url, ann, { action: 'take', item: 'rope' }).expect(200);

    const fight = await joinWithSdk(server.url, bob);
    await fight.room.request('move', { direction: 'south' });
    await fight.room.request('move', { direction: 'down' });
    await huntRat(fight);
    await waitForState(fight.room, (state: AreaState) => (state.players.get(bob.userId)?.xp ?? 0) > 0);
    const earned = fight.room.state.players.get(bob.userId)!.xp;
    await fight.room.leave();
    // Loaded again from the store by the REST call: the xp earned in combat rounds was saved on leave.
    const afterLeave = await act(server.url, bob, { action: 'look' }).expect(200);
    expect(afterLeave.body.player).toMatchObject({ room: 'village:cellar', xp: earned });
    expect(earned).toBeGreaterThanOrEqual(4);

    await server.stop();
    server = await startWorldPlatform({ DATA_DIR: dataDir });
    const look = await act(server.url, ann, { action: 'look' }).expect(200);
    expect([look.body.room, look.body.player.currencies]).toEqual(['village:market', { soft: 10, hard: 0 }]);
    expect(await carried(server.url, ann)).toBe('You carry: coil of rope.');

    const again = await joinWithSdk(server.url, bob);
    await waitForState(again.room, (state: AreaState) => state.players.get(bob.userId)?.xp === earned);
    expect(again.room.state.players.get(bob.userId)?.roomRef).toBe('village:cellar');
    await again.room.leave();
  });

  it('keeps the rooms a player visited, the topics asked and a completed quest across a restart', async () => {
    server = await startWorldPlatform({ DATA_DIR: dataDir });
    const ann = await signIn(server.url);
    const play = async (body: Record<string, unknown>, route?: string) =>
      (await act(server!.url, ann, body, route).expect(200)).body.events as MudEvent[];
    const walk = async (...directions: string[]) => {
      for (const direction of directions) await play({ direction }, '/mud/move');
    };
    await play({ action: 'quest', op: 'accept', quest: 'First Steps' });
    await play({ action: 'talk', npc: 'elder', topic: 'founder' });
    await walk('west');
    await play({ action: 'talk', npc: 'smith' });
    await walk('east', 'east', 'east', 'west', 'west');
    await play({ action: 'quest', op: 'complete', quest: 'First Steps' });
    const mapped = async () =>
      (await play({ action: 'map' })).find((e) => e.type === 'map')?.data?.rooms as string[];
    const visited = await mapped();
    expect([...visited].sort()).toEqual(["Brandal's Smithy", 'East Gate', 'Market Row', 'Village Square']);

    await server.stop();
    server = await startWorldPlatform({ DATA_DIR: dataDir });
    expect(await mapped()).toEqual(visited);
    const saved = await new MongoPlayerStore(server.platform.stores.mongo).load(ann.userId);
    expect(saved?.quests['village:first_steps']).toEqual({
      status: 'completed',
      counts: [1, 1],
      completedAt: expect.any(Number),
    });
    expect(saved?.asked).toEqual(['village:elder#founder']);
  });

  it('loses no acknowledged action when the process is killed (SIGKILL) and restarted', async () => {
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      SIWE_ENABLED: '1',
      GATEWAY_RATE_LIMIT_PER_SECOND: '100000',
    };
    const start = async () => {
      child = spawnServer(env);
      const listening = await waitForLog(child, (line) => line.msg === 'listening', 60_000);
      return `http://127.0.0.1:${listening.port as number}`;
    };
    let url = await start();
    const ann = await signIn(url);
    await act(url, ann, { action: 'take', item: 'stick', qty: 1 }).expect(200);
    const moved = await act(url, ann, { direction: 'west' }, '/mud/move').expect(200);
    expect(moved.body.room).toBe('village:smithy');
    child!.child.kill('SIGKILL');
    await child!.exit;

    url = await start();
    const look = await act(url, ann, { action: 'look' }).expect(200);
    expect(look.body.room).toBe('village:smithy');
    expect(textsOf(look.body.events)[0]).toMatch(/^Brandal's Smithy\n/);
    expect(await carried(url, ann)).toBe('You carry: sturdy stick.');
  }, 120_000);
});
