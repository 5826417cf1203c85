import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ManualClock } from '../../../platform/clock';
import { buyListing } from '../../../services/marketplace/purchases';
import { REPO_ROOT } from '../../helpers/childProcess';
import { startTestPlatform } from '../../helpers/platform';
import { marketParts } from './marketParts';

/** Runs crashingPurchase.ts up to `step`; answers the ids it printed once it died of SIGKILL. */
async function crashAt(step: string, dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'crashingPurchase.ts')], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, CRASH_STEP: step },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, sig) => resolve(sig)),
  );
  if (signal !== 'SIGKILL') throw new Error(`child did not crash: ${err}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as {
    seller: string;
    buyer: string;
    listing: string;
    key: string;
  };
}

describe('purchase saga survives kill -9 at every step: money conserved, item in one place, paid at most once', () => {
  for (const step of ['opened', 'reserved', 'charged', 'paid', 'delivered-items']) {
    it(`completes a purchase killed after "${step}" once the platform is back`, async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-crash-'));
      const ids = await crashAt(step, dataDir);
      // Back 31 s later: the recovery passes take over what the dead process left pending.
      const clock = new ManualClock(Date.now() + 31_000);
      let handles: Awaited<ReturnType<typeof marketParts>> | undefined;
      const server = await startTestPlatform(
        { DATA_DIR: dataDir, ROLES: 'api' },
        async (context) => {
          handles = await marketParts(context);
          return handles.parts;
        },
        clock,
      );
      try {
        const { economy, market } = handles as NonNullable<typeof handles>;
        await economy.recovery.run();
        await market.recovery.run();
        const sale = await market.core.sales.findById(`sale:${ids.buyer}:${ids.key}`).lean();
        expect(sale?.state).toBe('delivered');
        const characters = market.core.listings.db.collection('characters');
        const holding = async (userId: string) =>
          ((await characters.findOne({ userId }))?.inventory as Record<string, number> | undefined)?.[
            'village:cloth'
          ] ?? 0;
        expect([await holding(ids.seller), await holding(ids.buyer)]).toEqual([0, 2]);
        expect((await market.core.listings.findById(ids.listing).lean())?.state).toBe('sold');
        expect((await economy.economy.wallet(ids.buyer)).soft).toBe(50);
        expect((await economy.economy.wallet(ids.seller)).soft).toBe(48);
        const purchases = await economy.economy.core.ledger.countDocuments({
          account: `user:${ids.buyer}`,
          kind: 'purchase',
        });
        expect(purchases).toBe(1);
        const replay = await buyListing(market.core, ids.listing, ids.buyer, ids.key);
        expect([replay.replayed, replay.sale.state]).toEqual([true, 'delivered']);
        expect((await economy.economy.wallet(ids.buyer)).soft).toBe(50);
        expect(await holding(ids.buyer)).toBe(2);
        expect(await economy.economy.audit()).toMatchObject({
          ok: true,
          mismatchedAccounts: [],
          pendingOperations: 0,
        });
      } finally {
        await server.stop();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
