import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import type { Connection } from 'mongoose';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { softCurrencyLedgerEntryModel } from '../../../models/SoftCurrencyLedgerEntry';
import { softCurrencyAccountModel } from '../../../models/SoftCurrencyAccount';
import { silentLogger } from '../../../platform/logger';
import { connectMongo } from '../../../platform/stores/mongo';
import { SoftCurrencyLedger, type BalanceChange } from '../../../services/economy/softCurrency';

let dir: string;
let engine: MongoEngine;
let connection: Connection;
let ledger: SoftCurrencyLedger;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-economy-'));
  engine = await startMongoEngine({ dir });
  connection = await connectMongo(engine.uri, 'economy', silentLogger);
  ledger = await SoftCurrencyLedger.open(connection);
});

afterAll(async () => {
  await connection.close();
  await engine.close();
  await fs.rm(dir, { recursive: true, force: true });
});

let keys = 0;
function buildChange(overrides: Partial<BalanceChange> = {}): BalanceChange {
  keys += 1;
  return {
    idempotencyKey: `test-${keys}`,
    address: Wallet.createRandom().address,
    amount: 100n,
    reason: 'test-grant',
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'applied',
    (error: { status: number; code: string }) => `${error.status} ${error.code}`,
  );
}

describe('SoftCurrencyLedger', () => {
  it('starts every address at 0, credits and debits, and reads the balance case-insensitively', async () => {
    const address = Wallet.createRandom().address;
    expect(await ledger.getBalance(address)).toBe(0n);
    expect(await ledger.credit(buildChange({ address, amount: 500n }))).toEqual({
      balance: 500n,
      applied: true,
    });
    expect(await ledger.debit(buildChange({ address: address.toLowerCase(), amount: 120n }))).toEqual({
      balance: 380n,
      applied: true,
    });
    expect(await ledger.getBalance(address.toLowerCase())).toBe(380n);
  });

  it('keeps uint256-sized amounts exact', async () => {
    const address = Wallet.createRandom().address;
    const huge = 2n ** 255n + 12345n;
    await ledger.credit(buildChange({ address, amount: huge }));
    await ledger.credit(buildChange({ address, amount: huge }));
    expect(await ledger.getBalance(address)).toBe(2n * huge);
  });

  it('applies a retried change once and writes one ledger entry for it', async () => {
    const change = buildChange({ amount: 70n });
    expect(await ledger.credit(change)).toEqual({ balance: 70n, applied: true });
    expect(await ledger.credit(change)).toEqual({ balance: 70n, applied: false });
    expect(await ledger.getBalance(change.address)).toBe(70n);
    const entries = await softCurrencyLedgerEntryModel(connection)
      .find({ idempotencyKey: change.idempotencyKey })
      .lean();
    expect(entries.map((entry) => [entry.delta, entry.balanceAfter, entry.reason])).toEqual([
      ['70', '70', 'test-grant'],
    ]);
  });

  it('completes a change whose ledger write was lost (crash after the balance update) without repeating it', async () => {
    const change = buildChange({ amount: 40n });
    await ledger.credit(change);
    await softCurrencyLedgerEntryModel(connection).deleteOne({ idempotencyKey: change.idempotencyKey });
    expect(await ledger.credit(change)).toEqual({ balance: 40n, applied: false });
    expect(await ledger.getBalance(change.address)).toBe(40n);
    expect(
      await softCurrencyLedgerEntryModel(connection).countDocuments({
        idempotencyKey: change.idempotencyKey,
      }),
    ).toBe(1);
  });

  it('refuses a debit above the balance and a reused key for another change, changing nothing', async () => {
    const change = buildChange({ amount: 10n });
    await ledger.credit(change);
    expect(await failure(ledger.debit(buildChange({ address: change.address, amount: 11n })))).toBe(
      '409 ECONOMY_INSUFFICIENT_BALANCE',
    );
    expect(await failure(ledger.credit({ ...change, amount: 99n }))).toBe('409 ECONOMY_IDEMPOTENCY_CONFLICT');
    expect(await failure(ledger.credit(buildChange({ amount: 0n })))).toBe('400 VALIDATION_FAILED');
    expect(await failure(ledger.credit(buildChange({ address: '0x1234' })))).toBe('400 VALIDATION_FAILED');
    expect(await ledger.getBalance(change.address)).toBe(10n);
  });

  it('serialises concurrent changes of one account through compare-and-set: none is lost', async () => {
    const address = Wallet.createRandom().address;
    await Promise.all(Array.from({ length: 12 }, () => ledger.credit(buildChange({ address, amount: 5n }))));
    expect(await ledger.getBalance(address)).toBe(60n);
    const account = await softCurrencyAccountModel(connection)
      .findOne({ address: address.toLowerCase() })
      .lean();
    expect(account?.recent).toHaveLength(12);
  });
});
