import { randomUUID } from 'node:crypto';
import type { Agenda } from 'agenda';
import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import {
  CONSOLIDATION_STEPS,
  consolidationRunModel,
  type ConsolidationRunDocument,
} from '../../../models/ConsolidationRun';
import { memoryAuditModel } from '../../../models/MemoryAudit';
import type { Clock } from '../../../platform/clock';
import type { Config } from '../../../platform/config';
import type { DecisionLog } from '../decisions/decisionLog';
import type { SubjectGraph } from '../graph/subjectGraph';
import type { MemoryKeeper } from '../memory/memoryKeeper';
import { consolidationDuration, consolidationLastSuccess, consolidationRuns } from './consolidationMetrics';
import { dailyCron, lastSlot } from './consolidationSlot';
import { STEP_RUNNERS, type StepContext } from './consolidationSteps';

/** The Agenda job of the nightly consolidation. */
export const CONSOLIDATION_JOB = 'brain-memory-consolidation';
/** A running run whose heartbeat is older than this is taken as dead (crashed) and resumed by the next start. */
const STALE_AFTER_MS = 10 * 60_000;

/** Waits while a backup runs (issue 23's backup job implements it); consolidation starts after it. */
export interface BackupGate {
  waitForIdle(): Promise<void>;
}

/** What consolidation is built from. */
export interface ConsolidationOptions {
  mongo: Connection;
  memory: MemoryKeeper;
  decisions: DecisionLog;
  graph: SubjectGraph;
  clock: Clock;
  logger: Logger;
  config: Pick<
    Config,
    | 'ROLES'
    | 'BRAIN_CONSOLIDATION_AT'
    | 'BRAIN_CONSOLIDATION_TIMEZONE'
    | 'BRAIN_EPISODIC_RETENTION_DAYS'
    | 'BRAIN_ARCHIVAL_AGE_DAYS'
  >;
  /** Default: nothing to wait for. */
  backupGate?: BackupGate;
}

/** Gives the event loop a turn between batches, so a long run never starves requests. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Nightly memory consolidation (SPEC 1): at BRAIN_CONSOLIDATION_AT in BRAIN_CONSOLIDATION_TIMEZONE, after a running
 * backup, with catch-up at start when the last slot has no run. A run claims its slot (`scheduled:<slot>`) so two
 * workers never both run it; its steps (decisions, entities, contradictions, archive, purge) are each idempotent and
 * recorded as done, so a crashed run is resumed from the step it stopped in and a second run changes nothing.
 */
export class Consolidation {
  readonly runs: Model<ConsolidationRunDocument>;
  private active = new Set<Promise<unknown>>();
  private stopping = false;
  private signalStop!: () => void;
  /** Resolves when shutdown begins: a run still waiting for the backup gate gives up then. */
  private readonly stopped = new Promise<void>((resolve) => (this.signalStop = resolve));

  constructor(private readonly options: ConsolidationOptions) {
    this.runs = consolidationRunModel(options.mongo);
  }

  async init(): Promise<void> {
    await this.runs.init();
  }

  /** Runs (or resumes) the run of `slot`, or a manual one; answers the run record as it ended. */
  async run(
    trigger: ConsolidationRunDocument['trigger'],
    slot: Date | null = null,
  ): Promise<ConsolidationRunDocument> {
    return this.execute(await this.claim(trigger, slot));
  }

  /** Carries out a claimed run's remaining steps; a run someone else holds is answered as it stands. */
  private async execute(run: ConsolidationRunDocument): Promise<ConsolidationRunDocument> {
    if (run.status !== 'running' || run.attempts === 0) return run;
    const { clock, logger } = this.options;
    const started = clock.now();
    try {
      if (this.options.backupGate) await Promise.race([this.options.backupGate.waitForIdle(), this.stopped]);
      if (this.stopping) throw new Error('stopped for shutdown before the backup finished');
      const ctx = this.stepContext(run);
      for (const step of CONSOLIDATION_STEPS) {
        if (run.steps_done.includes(step)) continue;
        const counts = await STEP_RUNNERS[step](ctx);
        const $set = Object.fromEntries(
          Object.entries(counts).map(([key, value]) => [`counts.${key}`, value]),
        );
        await this.runs.updateOne(
          { _id: run._id },
          { $set: { ...$set, heartbeat_at: new Date(clock.now()) }, $addToSet: { steps_done: step } },
        );
      }
      return await this.finish(run, 'succeeded', started, null);
    } catch (error) {
      logger.error({ err: error, run: run._id }, 'memory consolidation failed');
      return this.finish(run, 'failed', started, (error as Error).message);
    }
  }

  /** Claims a manual run and carries it out in the background; answers its record (status running). */
  async start(): Promise<ConsolidationRunDocument> {
    const run = await this.claim('manual', null);
    this.track(this.execute(run));
    return run;
  }

  /** Runs, newest first. */
  list(limit: number, before?: Date) {
    return this.runs
      .find(before ? { started_at: { $lt: before } } : {})
      .sort({ started_at: -1 })
      .limit(limit)
      .lean();
  }

  /** Runs the last slot when it has no finished run (downtime at 03:30, or a crash mid-run). */
  async catchUp(): Promise<ConsolidationRunDocument | null> {
    const { config, clock } = this.options;
    const slot = lastSlot(clock.now(), config.BRAIN_CONSOLIDATION_AT, config.BRAIN_CONSOLIDATION_TIMEZONE);
    const done = await this.runs.findOne({ slot: { $gte: slot }, status: 'succeeded' }).lean();
    return done ? null : this.run('catch_up', slot);
  }

  /**
   * Defines the nightly job and schedules it; in a process with the worker role (the one that processes jobs), a
   * missed slot runs now, in the background.
   */
  async registerJob(agenda: Agenda): Promise<void> {
    const { config, clock, logger } = this.options;
    agenda.define(CONSOLIDATION_JOB, async () => {
      await this.run(
        'scheduled',
        lastSlot(clock.now(), config.BRAIN_CONSOLIDATION_AT, config.BRAIN_CONSOLIDATION_TIMEZONE),
      );
    });
    await agenda.every(
      dailyCron(config.BRAIN_CONSOLIDATION_AT),
      CONSOLIDATION_JOB,
      {},
      { timezone: config.BRAIN_CONSOLIDATION_TIMEZONE },
    );
    if (!config.ROLES.includes('worker')) return;
    this.track(
      this.catchUp().catch((error: unknown) => logger.error({ err: error }, 'consolidation catch-up failed')),
    );
  }

  private track(work: Promise<unknown>): void {
    this.active.add(work);
    void work.finally(() => this.active.delete(work));
  }

  /** Shutdown: running steps stop at their next batch (the run is resumed at the next start), then waits. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.signalStop();
    await this.idle();
  }

  /** Waits for background runs (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active]);
  }

  /** Inserts the run, or takes over a failed or dead one of the same slot; `attempts` 0 means "leave it". */
  private async claim(
    trigger: ConsolidationRunDocument['trigger'],
    slot: Date | null,
  ): Promise<ConsolidationRunDocument> {
    const now = new Date(this.options.clock.now());
    const id = slot ? `scheduled:${slot.toISOString()}` : `manual:${randomUUID()}`;
    const fresh: ConsolidationRunDocument = {
      _id: id,
      trigger,
      slot,
      status: 'running',
      started_at: now,
      finished_at: null,
      heartbeat_at: now,
      duration_ms: null,
      steps_done: [],
      counts: {},
      error: null,
      attempts: 1,
    };
    try {
      await this.runs.create(fresh);
      return fresh;
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
    const stale = new Date(now.getTime() - STALE_AFTER_MS);
    const taken = await this.runs
      .findOneAndUpdate(
        { _id: id, $or: [{ status: 'failed' }, { status: 'running', heartbeat_at: { $lt: stale } }] },
        {
          $set: { status: 'running', heartbeat_at: now, error: null, finished_at: null },
          $inc: { attempts: 1 },
        },
        { returnDocument: 'after' },
      )
      .lean();
    if (taken) return taken;
    const existing = (await this.runs.findById(id).lean())!;
    return { ...existing, attempts: existing.status === 'running' ? 0 : existing.attempts };
  }

  private stepContext(run: ConsolidationRunDocument): StepContext {
    const { memory, decisions, graph, config, mongo } = this.options;
    return {
      memory,
      decisions,
      graph,
      now: new Date(this.options.clock.now()),
      cutoff: run.started_at,
      episodicRetentionDays: config.BRAIN_EPISODIC_RETENTION_DAYS,
      auditRetentionDays: config.BRAIN_ARCHIVAL_AGE_DAYS,
      pause: async () => {
        await yieldToEventLoop();
        if (this.stopping) throw new Error('stopped for shutdown; the next start resumes the run');
        await this.runs.updateOne(
          { _id: run._id },
          { $set: { heartbeat_at: new Date(this.options.clock.now()) } },
        );
      },
      purgeRecords: async (before) => {
        const runs = await this.runs.deleteMany({ started_at: { $lt: before }, status: { $ne: 'running' } });
        const audits = await memoryAuditModel(mongo).deleteMany({ at: { $lt: before } });
        return runs.deletedCount + audits.deletedCount;
      },
    };
  }

  private async finish(
    run: ConsolidationRunDocument,
    outcome: 'succeeded' | 'failed',
    started: number,
    error: string | null,
  ) {
    const now = this.options.clock.now();
    const duration = Math.max(0, now - started);
    consolidationRuns.inc({ trigger: run.trigger, outcome });
    consolidationDuration.observe({ outcome }, duration / 1000);
    if (outcome === 'succeeded') consolidationLastSuccess.set(now / 1000);
    const updated = await this.runs
      .findOneAndUpdate(
        { _id: run._id },
        { $set: { status: outcome, finished_at: new Date(now), duration_ms: duration, error } },
        { returnDocument: 'after' },
      )
      .lean();
    return updated!;
  }
}
