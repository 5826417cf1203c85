import type { Connection } from 'mongoose';
import { identityModel } from '../../models/Identity';
import { userModel } from '../../models/User';
import type { Config } from '../../platform/config';
import type { Clock } from '../../platform/clock';
import type { AuthService } from '../auth';
import type { AuditLog } from './audit/auditLog';
import { searchAudit, type AuditSearchInput } from './audit/auditSearch';
import { collectStatus, type BrainStatusSource, type ProviderState } from './areaStatus';
import { summariseInsights } from './insightsSummary';
import { answerQuestion } from './operationsQuery';
import { detectPatterns } from './patternDetection';
import type { CharacterRecord } from '../../models/Character';
import { userActivity } from './userActivity';

/** What the admin brain is built from. */
export interface AdminBrainDependencies {
  connection: Connection;
  config: Config;
  clock: Clock;
  guard: AuthService['guard'];
  audit: AuditLog;
  /** Brain-backed areas for the status (knowledge, audit, quests, influencer, …). */
  areas: BrainStatusSource[];
  /** Embedding providers and their breakers. */
  providers: () => Promise<ProviderState[]>;
  /** The world's character read, when the world is composed. */
  character?: (userId: string) => Promise<CharacterRecord | null>;
}

/** The admin brain's commands behind its routes (SPEC 4.9). */
export class AdminBrain {
  readonly guard: AuthService['guard'];
  private readonly users;
  private readonly identities;

  constructor(private readonly deps: AdminBrainDependencies) {
    this.guard = deps.guard;
    this.users = userModel(deps.connection);
    this.identities = identityModel(deps.connection);
  }

  /** Every brain-backed area's state, the providers' breakers and the Colyseus monitor's URL. */
  async status() {
    const { status, areas } = await collectStatus(this.deps.areas);
    const base = this.deps.config.PUBLIC_BASE_URL.replace(/\/$/, '');
    return { status, areas, providers: await this.deps.providers(), monitor_url: `${base}/colyseus` };
  }

  /** Semantic audit search (writes buffered events first, so a search sees what was just recorded). */
  async searchAudit(input: AuditSearchInput) {
    await this.deps.audit.flush();
    return searchAudit(this.deps.audit.stores, input);
  }

  async detectPatterns(input: { window: string; kinds?: string[] }) {
    await this.deps.audit.flush();
    return detectPatterns(this.sources(), input);
  }

  async answer(question: string) {
    await this.deps.audit.flush();
    return answerQuestion(this.sources(), question);
  }

  async insights() {
    await this.deps.audit.flush();
    return summariseInsights({
      ...this.sources(),
      connection: this.deps.connection,
      areas: this.deps.areas,
      providers: this.deps.providers,
    });
  }

  async activity(userId: string, options: { limit: number; before?: Date }) {
    await this.deps.audit.flush();
    return userActivity(
      {
        events: this.deps.audit.stores.events,
        users: this.users,
        identities: this.identities,
        character: this.deps.character,
      },
      userId,
      options,
    );
  }

  private sources() {
    return { events: this.deps.audit.stores.events, users: this.users, clock: this.deps.clock };
  }
}
