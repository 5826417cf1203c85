import { Wallet, type BaseWallet } from 'ethers';
import request from 'supertest';
import type { Clock } from '../../../platform/clock';
import { productParts } from '../../../productParts';
import type { MemoryService } from '../../../services/brain/memory/memoryService';
import { InProcessMemoryService } from '../../helpers/inProcessMemory';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { act, signIn, type Player } from '../mud/worldPlatform';

export { signIn, type Player };

/**
 * The memory service the NPC and companion brains get in these tests: the in-process one by default. The lead runs
 * the suites again with issue 18's implementation by changing this one factory (the restart test needs a
 * persistent one to prove anything).
 */
export function memoryForTests(clock?: Clock): MemoryService {
  return new InProcessMemoryService(clock);
}

/**
 * The product (identity, world with the game role, NPC and companion brains on `memory`, or on the brain's own
 * persistent memory service when `memory` is undefined), SIWE on, 10 ms ticks.
 */
export function startBrainPlatform(
  memory: MemoryService | undefined,
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<TestPlatform> {
  return startTestPlatform(
    { ROLES: 'api,game,worker', SIWE_ENABLED: '1', MUD_TICK_MS: '10', ...env },
    (context) => productParts(context, { memory }),
    clock,
  );
}

/** Types `lines` in the world as `player`, one after another; answers every event text, in order. */
export async function play(url: string, player: Player, ...lines: string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const line of lines) {
    const res = await act(url, player, { action: 'command', line });
    if (res.status !== 200) throw new Error(`"${line}" → ${res.status} ${JSON.stringify(res.body)}`);
    texts.push(...res.body.events.map((e: { text: string }) => e.text));
  }
  return texts;
}

/** Polls `GET path` as `token` until `done(body)` (the brains remember asynchronously); fails after 10 s. */
export async function eventually<T>(
  url: string,
  path: string,
  token: string,
  done: (body: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await request(url).get(path).set('Authorization', `Bearer ${token}`);
    if (res.status === 200 && done(res.body as T)) return res.body as T;
    if (Date.now() > deadline)
      throw new Error(`${path} never matched: ${res.status} ${JSON.stringify(res.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A bootstrap admin's wallet for `ADMIN_ADDRESSES`. */
export function adminWallet(): BaseWallet {
  return Wallet.createRandom();
}
