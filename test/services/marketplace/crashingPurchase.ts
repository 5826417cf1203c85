/**
 * Child process of purchaseCrash.test.ts: opens the platform's stores on DATA_DIR, sets up a seller whose character
 * (offline) holds 2 bolts of cloth, a listing of them and a funded buyer, runs the purchase saga up to STEP, and
 * kills itself with SIGKILL, as a crash at that point would.
 */
import { Types } from 'mongoose';
import { embeddedEngines } from '../../../embedded';
import { loadConfig } from '../../../platform/config';
import { silentLogger } from '../../../platform/logger';
import { Platform } from '../../../platform/platform';
import { userAccount } from '../../../services/economy/accountIds';
import { createListing } from '../../../services/marketplace/listings';
import { advanceSale, openSale, saleSteps } from '../../../services/marketplace/purchases';
import { marketParts } from './marketParts';

const STEPS = ['opened', 'reserved', 'charged', 'paid', 'delivered-items'] as const;

async function main(): Promise<void> {
  const step = process.env.CRASH_STEP as (typeof STEPS)[number];
  const config = loadConfig({
    DATA_DIR: process.env.DATA_DIR ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    ROLES: 'api',
    NODE_ENV: 'test',
  });
  let handles: Awaited<ReturnType<typeof marketParts>> | undefined;
  await Platform.start({
    config,
    logger: silentLogger,
    engines: embeddedEngines,
    parts: async (context) => {
      handles = await marketParts(context);
      return handles.parts;
    },
  });
  const { economy, market } = handles as NonNullable<typeof handles>;
  const seller = new Types.ObjectId().toHexString();
  const buyer = new Types.ObjectId().toHexString();
  const key = 'crash-test-purchase';
  await market.core.listings.db.collection('characters').insertOne({
    userId: seller,
    name: 'Seller',
    roomRef: 'village:square',
    health: 30,
    maxHealth: 30,
    level: 1,
    xp: 0,
    currencies: { soft: 0, hard: 0 },
    inventory: { 'village:cloth': 2 },
    equipment: {},
    skills: {},
    quests: {},
    relations: {},
    companion: null,
    updatedAt: Date.now(),
  });
  await economy.economy.grant({
    account: userAccount(buyer),
    currency: 'soft',
    amount: 100,
    reason: 'crash test',
    idempotencyKey: 'crash-test-grant',
    grantor: 'service',
  });
  const { listing } = await createListing(market.core, {
    seller,
    item: 'village:cloth',
    qty: 2,
    price: { currency: 'soft', amount: 50 },
  });
  const listingId = listing._id.toHexString();
  process.stdout.write(`${JSON.stringify({ seller, buyer, listing: listingId, key })}\n`);
  const { sale } = await openSale(market.core, `sale:${buyer}:${key}`, listing, buyer);
  if (STEPS.indexOf(step) >= 1) await saleSteps.reserve(market.core, sale);
  if (STEPS.indexOf(step) >= 2) await saleSteps.charge(market.core, sale);
  const paid =
    STEPS.indexOf(step) >= 3 ? await advanceSale(market.core, sale, 'pending', { state: 'paid' }) : sale;
  if (STEPS.indexOf(step) >= 4) await saleSteps.deliver(market.core, paid);
  process.kill(process.pid, 'SIGKILL');
}

void main();
