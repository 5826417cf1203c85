/**
 * The platform process bench/economy.ts measures: identity, the economy and the marketplace on embedded MongoDB and
 * Qdrant in a temporary DATA_DIR (local embedder). It creates `users` users with sessions, funds each with soft
 * currency, lists `listings` creator-content listings of the first half of the users, prints one JSON line
 * `{url, tokens, userIds, listings}` and serves until stdin closes; then it prints the conservation audit (stderr).
 * Run by bench/economy.ts: tsx bench/economy/server.ts <users> <listings>
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Types } from 'mongoose';
import { userModel } from '../../models/User';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { Platform, type PlatformContext } from '../../platform/platform';
import { combineParts } from '../../productParts';
import { createAuthService } from '../../services/auth';
import { createEconomyArea } from '../../services/economy';
import { userAccount } from '../../services/economy/accountIds';
import { createMarketplaceArea } from '../../services/marketplace';
import { createWorldArea } from '../../services/mud';
import { createListing } from '../../services/marketplace/listings';
import { embeddedEngines } from '../../embedded';

const USERS = Number(process.argv[2] ?? 200);
const LISTINGS = Number(process.argv[3] ?? 3000);

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-economy-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ROLES: 'api',
    LOG_LEVEL: 'warn',
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
  });
  let built: { context: PlatformContext; auth: ReturnType<typeof createAuthService> } | undefined;
  let areas:
    | {
        economy: Awaited<ReturnType<typeof createEconomyArea>>;
        market: Awaited<ReturnType<typeof createMarketplaceArea>>;
      }
    | undefined;
  const platform = await Platform.start({
    config,
    engines: embeddedEngines,
    logger: createLogger({ level: 'warn' }),
    parts: async (context) => {
      const auth = createAuthService(context);
      const economy = await createEconomyArea(context, auth);
      const world = await createWorldArea(context, auth, { economy: economy.economy });
      const market = await createMarketplaceArea(context, auth, economy.economy, world.service);
      built = { context, auth };
      areas = { economy, market };
      return {
        ...combineParts([{ services: [auth.register], close: () => auth.close() }, economy, world, market]),
      };
    },
  });
  const { auth, context } = built as NonNullable<typeof built>;
  const { economy, market } = areas as NonNullable<typeof areas>;
  const users = userModel(context.stores.mongo);
  const userIds: string[] = [];
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i += 1) {
    const user = await users.create({ _id: new Types.ObjectId(), roles: ['player'], tier: 1 });
    userIds.push(user._id.toHexString());
    tokens.push((await auth.sessions.issue(user._id, 'wallet', 24 * 3600)).token);
    await economy.economy.grant({
      account: userAccount(user._id.toHexString()),
      currency: 'soft',
      amount: 10_000_000,
      reason: 'bench',
      idempotencyKey: `bench-fund-${i}`,
      grantor: 'service',
    });
  }
  const listings: string[] = [];
  for (let i = 0; i < LISTINGS; i += 1) {
    const { listing } = await createListing(market.core, {
      seller: userIds[i % Math.ceil(USERS / 2)],
      item: `content:bench-${i}`,
      qty: 1,
      price: { currency: 'soft', amount: 100 + (i % 50) },
      title: `Guide number ${i}`,
      description: `A bench guide about topic ${i % 97} and region ${i % 13}`,
    });
    listings.push(listing._id.toHexString());
  }
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${platform.port}`, tokens, userIds, listings })}\n`,
  );
  process.stdin.resume();
  process.stdin.on('end', () => {
    // The books after the run: every transfer and purchase balanced, nothing left pending.
    void economy.economy
      .audit()
      .then((report) =>
        process.stderr.write(
          `audit after the HTTP phases: ok=${report.ok}, ${report.ledgerEntries} ledger lines, ` +
            `${report.pendingOperations} operations pending, mismatched accounts ${report.mismatchedAccounts.length}\n`,
        ),
      )
      .then(() => platform.stop())
      .then(() => fs.rm(dataDir, { recursive: true, force: true }))
      .then(() => process.exit(0));
  });
}

void main();
