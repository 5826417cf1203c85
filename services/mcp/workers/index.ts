import type { AdminService } from '../../admin';
import type { AuthService } from '../../auth';
import type {
  BrainService,
  CorpusGraphReads,
  DecisionService,
  GraphService,
  MemoryService,
  SecurityService,
} from '../../brain';
import type { EconomyService } from '../../economy';
import type { InfluencerService } from '../../influencer';
import type { MarketplaceService } from '../../marketplace';
import type { WorldService } from '../../mud';
import type { QuestsService } from '../../quests';
import type { SignerArea } from '../../signer';
import type { SocialService } from '../../social';
import type { Worker } from '../toolDefinition';
import { adminWorker } from './admin';
import { brainWorker } from './brain';
import { decisionsWorker } from './decisions';
import { economyWorker } from './economy';
import { graphWorker } from './graph';
import { identityWorker } from './identity';
import { influencerWorker } from './influencer';
import { marketplaceWorker } from './marketplace';
import { memoryWorker } from './memory';
import { questsWorker } from './quests';
import { securityWorker } from './security';
import { signerWorker } from './signer';
import { socialWorker } from './social';
import { worldWorker } from './world';

/**
 * The service areas whose tools the gateway offers: each area's service interface, absent when this process does
 * not serve the area. A new area adds its field here and one line below.
 */
export interface WorkerSources {
  auth: Pick<AuthService, 'accounts' | 'sessions'>;
  brain?: BrainService;
  /** The brain's memory service (or the one the composition was handed). */
  memory?: MemoryService;
  decisions?: DecisionService;
  graph?: GraphService;
  /** The documents' co-occurrence graph (neighbours, communities), offered by the graph worker. */
  corpusGraph?: CorpusGraphReads;
  security?: SecurityService;
  world?: WorldService;
  signer?: Pick<SignerArea, 'status' | 'signatures'>;
  economy?: EconomyService;
  marketplace?: MarketplaceService;
  social?: SocialService;
  quests?: QuestsService;
  influencer?: InfluencerService;
  admin?: AdminService;
  /** BRAIN_INGEST_MAX_DOCUMENTS. */
  maxDocumentsPerIngest: number;
}

/** The product's workers (one per service area), in the order `tools/list` shows them. */
export function productWorkers(sources: WorkerSources): Worker[] {
  const workers: Worker[] = [identityWorker(sources.auth)];
  if (sources.brain) {
    workers.push(brainWorker({ brain: sources.brain, maxDocumentsPerIngest: sources.maxDocumentsPerIngest }));
  }
  if (sources.memory) workers.push(memoryWorker(sources.memory));
  if (sources.decisions) workers.push(decisionsWorker(sources.decisions));
  if (sources.graph) workers.push(graphWorker(sources.graph, sources.corpusGraph));
  if (sources.security) workers.push(securityWorker(sources.security));
  if (sources.world) workers.push(worldWorker(sources.world));
  if (sources.social) workers.push(socialWorker(sources.social));
  if (sources.economy) workers.push(economyWorker(sources.economy));
  if (sources.marketplace) workers.push(marketplaceWorker(sources.marketplace));
  if (sources.quests) workers.push(questsWorker(sources.quests));
  if (sources.influencer) workers.push(influencerWorker(sources.influencer));
  if (sources.admin) workers.push(adminWorker(sources.admin));
  if (sources.signer) workers.push(signerWorker(sources.signer));
  return workers;
}
