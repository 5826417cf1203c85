import { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { AuthService } from '../auth';
import type { BrainService } from '../brain';
import { embeddingProvidersFrom } from '../../ai/embeddings/embeddingProviders';
import type { WorldService } from '../mud';
import { AdminBrain } from './adminBrain';
import { adminService, type AdminService } from './adminService';
import { knowledgeStatus, type BrainStatusSource } from './areaStatus';
import { AuditLog } from './audit/auditLog';
import { AuditRetention } from './audit/auditRetention';
import { SignatureVectors } from './audit/signatureVectors';
import { registerAdminRoutes } from './router';

export type { AuditEvent, AuditRecorder } from '../../models/AuditEvent';
export type { AuditLog } from './audit/auditLog';
export type { BrainAreaStatus, BrainStatusSource } from './areaStatus';
// What other areas use (the MCP tools publish these routes' own schemas, so a tool and its route cannot drift).
export { auditedMoneyEvents } from './audit/moneyAudit';
export type { AdminService } from './adminService';
export {
  AdminStatusSchema,
  AuditSearchRequestSchema,
  AuditSearchResponseSchema,
  InsightsSummarySchema,
  OperationsQueryRequestSchema,
  OperationsQueryResponseSchema,
  PatternRequestSchema,
  PatternResponseSchema,
  UserActivityQuerySchema,
  UserActivitySchema,
} from './schemas';

/**
 * Opens the platform's audit log on the stores (every role records: api routes, game rooms, worker jobs): the
 * `audit_events` collection with its indexes, and the signature vectors embedded through the brain's chain.
 */
export async function openAuditLog(context: PlatformContext): Promise<AuditLog> {
  const { stores, config, clock } = context;
  if (!stores.mongo) throw new Error('The audit log needs MongoDB');
  const logger = context.logger.child({ component: 'audit' });
  const chain = new EmbeddingChain({ providers: embeddingProvidersFrom(config), clock, logger });
  const vectors = await SignatureVectors.open(stores.qdrant, chain, logger);
  return AuditLog.open(stores.mongo, { vectors, clock, logger });
}

/** The audit log as a brain-backed area of the status: events, embedded signatures, the newest event. */
export function auditStatus(audit: AuditLog): BrainStatusSource {
  return {
    name: 'audit',
    status: async () => {
      // Buffered events and their signatures first: the counts then include everything logged before the call.
      await audit.flush();
      const [events, signatures, [newest]] = await Promise.all([
        audit.count(),
        audit.stores.vectors.size(),
        audit.recent({}, 1),
      ]);
      return {
        state: 'up',
        indexes: { events, signatures },
        last_sync: newest ? new Date(newest.at) : null,
        last_consolidation: null,
        detail: null,
      };
    },
  };
}

/** What the admin area is built from: the audit log, and the areas whose state it reports. */
export interface AdminAreaSources {
  audit: AuditLog;
  brain?: BrainService;
  world?: WorldService;
  /** Other brain-backed areas (quests, influencer, memory, social) for the status. */
  areas?: BrainStatusSource[];
}

/** The admin area's parts and its service interface (the MCP gateway's admin tools). */
export interface AdminArea extends ProductParts {
  service: AdminService;
}

/**
 * The admin area (SPEC 4.9): the admin brain's routes over the platform's audit log (api role) and the audit
 * retention job (AUDIT_RETENTION_DAYS; workers). The audit log itself is opened first by the composition
 * (`openAuditLog`), since every other area records into it.
 */
export function createAdminArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  sources: AdminAreaSources,
): AdminArea {
  const { config, stores, clock } = context;
  if (!stores.mongo) throw new Error('The admin area needs MongoDB');
  const retention = new AuditRetention(sources.audit.stores, config.AUDIT_RETENTION_DAYS);
  const areas = [
    ...(sources.brain ? [knowledgeStatus(sources.brain)] : []),
    auditStatus(sources.audit),
    ...(sources.areas ?? []),
  ];
  const brain = new AdminBrain({
    connection: stores.mongo,
    config,
    clock,
    guard: auth.guard,
    audit: sources.audit,
    areas,
    providers: async () => (sources.brain ? (await sources.brain.stats()).embedding_providers : []),
    character: sources.world
      ? async (userId) => (await sources.world?.readCharacters({ userId, limit: 1 }))?.[0] ?? null
      : undefined,
  });
  return {
    service: adminService(brain),
    services: hasRole(config, 'api') ? [(routes) => registerAdminRoutes(routes, brain)] : [],
    jobs: [(agenda) => retention.registerJob(agenda)],
  };
}
