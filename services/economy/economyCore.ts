import type { Connection, Model } from 'mongoose';
import { economyAccountModel, type EconomyAccountRecord } from '../../models/EconomyAccount';
import { economyOperationModel, type EconomyOperationRecord } from '../../models/EconomyOperation';
import { ledgerEntryModel, type LedgerEntryRecord } from '../../models/LedgerEntry';
import type { Clock } from '../../platform/clock';
import type { MoneyEvents } from './moneyEvents';
import { LegApplier } from './legApplier';
import { OperationRunner } from './operations';

/** The economy's stores and its two engines, shared by every command. */
export interface EconomyCore {
  accounts: Model<EconomyAccountRecord>;
  ledger: Model<LedgerEntryRecord>;
  operations: Model<EconomyOperationRecord>;
  legs: LegApplier;
  runner: OperationRunner;
  clock: Clock;
  events: MoneyEvents;
}

/** Binds the economy's models to `connection`, builds their indexes (idempotency depends on the unique ones). */
export async function openEconomyCore(
  connection: Connection,
  clock: Clock,
  events: MoneyEvents,
): Promise<EconomyCore> {
  const accounts = economyAccountModel(connection);
  const ledger = ledgerEntryModel(connection);
  const operations = economyOperationModel(connection);
  await Promise.all([accounts.init(), ledger.init(), operations.init()]);
  const legs = new LegApplier(accounts, ledger, clock);
  return {
    accounts,
    ledger,
    operations,
    legs,
    runner: new OperationRunner(operations, legs, clock),
    clock,
    events,
  };
}
