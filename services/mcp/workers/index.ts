import type { AuthService } from '../../auth';
import type { BrainService } from '../../brain';
import type { EconomyService } from '../../economy';
import type { MarketplaceService } from '../../marketplace';
import type { WorldService } from '../../mud';
import type { SignerArea } from '../../signer';
import type { Worker } from '../toolDefinition';
import { brainWorker } from './brain';
import { economyWorker } from './economy';
import { identityWorker } from './identity';
import { marketplaceWorker } from './marketplace';
import { signerWorker } from './signer';
import { worldWorker } from './world';

/**
 * The service areas whose tools the gateway offers: each area's service interface, absent when this process does
 * not serve the area. A new area adds its field here and one line below.
 */
export interface WorkerSources {
  auth: Pick<AuthService, 'accounts' | 'sessions'>;
  brain?: BrainService;
  world?: WorldService;
  signer?: Pick<SignerArea, 'status'>;
  economy?: EconomyService;
  marketplace?: MarketplaceService;
  /** BRAIN_INGEST_MAX_DOCUMENTS. */
  maxDocumentsPerIngest: number;
}

/** The product's workers (one per service area), in the order `tools/list` shows them. */
export function productWorkers(sources: WorkerSources): Worker[] {
  const workers: Worker[] = [identityWorker(sources.auth)];
  if (sources.brain) {
    workers.push(brainWorker({ brain: sources.brain, maxDocumentsPerIngest: sources.maxDocumentsPerIngest }));
  }
  if (sources.world) workers.push(worldWorker(sources.world));
  if (sources.economy) workers.push(economyWorker(sources.economy));
  if (sources.marketplace) workers.push(marketplaceWorker(sources.marketplace));
  if (sources.signer) workers.push(signerWorker(sources.signer));
  return workers;
}
