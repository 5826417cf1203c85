import type { Agenda } from 'agenda';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import client from 'prom-client';
import type { DecisionDocument, DecisionPublication as Publication } from '../../../models/Decision';
import type { Clock } from '../../../platform/clock';
import { registry } from '../../../platform/metrics';

/** Makes decisions searchable in the brain (the corpus ingestor); throws when it cannot. */
export interface DecisionPublisher {
  publish(decision: DecisionDocument): Promise<void>;
}

/** Publishes of decisions into the corpus, by outcome (published, failed). */
export const decisionPublishes = new client.Counter({
  name: 'brain_decision_publishes_total',
  help: 'Publishes of decisions into the brain corpus, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Decisions whose current version the corpus does not hold yet (pending or failed), as last counted. */
export const decisionsUnpublished = new client.Gauge({
  name: 'brain_decisions_unpublished',
  help: 'Decisions whose current version is not published into the brain corpus',
  registers: [registry],
});

/** The job that publishes again what failed or was never published (every minute, and once at a worker's start). */
export const DECISION_PUBLISH_JOB = 'brain.decisions.publish';

/** Decisions whose current version the corpus does not hold (pending, failed, or stored before tracking). */
const UNPUBLISHED = { 'publication.state': { $ne: 'published' as const } };

/** First retry 30 s after a failure, doubling up to an hour. */
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 3_600_000;

/** The publication of a decision no change has touched yet: pending, due now. */
export function pendingPublication(at: Date): Publication {
  return {
    state: 'pending',
    published_version: 0,
    attempts: 0,
    last_error: null,
    last_attempt_at: null,
    next_attempt_at: at,
  };
}

/** A summary of decisions not published, for the admin status. */
export interface PublicationBacklog {
  decisions: number;
  pending: number;
  failed: number;
  oldestFailure: { id: string; at: Date | null; error: string | null } | null;
}

/**
 * Publication of decisions into the brain's corpus, recorded on each decision (`publication`): a change marks it
 * pending (in the same write), the publish that follows marks it published or failed, and `retryDue` (the job
 * `brain.decisions.publish`, every minute and at start) publishes again what failed or was never published, with a
 * backoff of 30 s doubling to an hour. A failure is a counted metric, a warning with the error code, and a status an
 * operator reads in `GET /brain/decisions/:id`, `GET /brain/decisions?publication=failed` and `/admin/brain/status`.
 */
export class DecisionPublication {
  constructor(
    private readonly model: Model<DecisionDocument>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly publisher?: DecisionPublisher,
  ) {}

  /** Publishes `doc` (its current version) and records the outcome; answers the publication as now stored. */
  async publish(doc: DecisionDocument): Promise<Publication> {
    const at = new Date(this.clock.now());
    try {
      await this.publisher?.publish(doc);
    } catch (error) {
      return this.failed(doc, at, error);
    }
    decisionPublishes.inc({ outcome: 'published' });
    const published: Publication = {
      state: 'published',
      published_version: doc.version,
      attempts: 0,
      last_error: null,
      last_attempt_at: at,
      next_attempt_at: null,
    };
    const stored = await this.model.updateOne(
      { _id: doc._id, version: doc.version },
      { $set: { publication: published } },
    );
    if (stored.matchedCount === 1) return published;
    // Changed while publishing: that change publishes itself, and the job republishes if this one landed last.
    await this.model.updateOne({ _id: doc._id }, { $set: { 'publication.state': 'pending' } });
    return { ...published, state: 'pending' };
  }

  /** Defines the retry job, every minute; a worker process also runs it once at start (recovery after downtime). */
  async registerJob(agenda: Agenda, runNow: boolean): Promise<void> {
    agenda.define(DECISION_PUBLISH_JOB, async () => {
      await this.retryDue();
    });
    await agenda.every('1 minute', DECISION_PUBLISH_JOB);
    if (runNow) await agenda.now(DECISION_PUBLISH_JOB);
  }

  /** Publishes the decisions due for a (re)try, oldest first, at most `limit`; answers how many it published. */
  async retryDue(limit = 100): Promise<number> {
    const now = new Date(this.clock.now());
    const due = await this.model
      .find({
        ...UNPUBLISHED,
        $or: [{ 'publication.next_attempt_at': null }, { 'publication.next_attempt_at': { $lte: now } }],
      })
      .sort({ updated_at: 1 })
      .limit(limit)
      .lean();
    let published = 0;
    for (const doc of due) if ((await this.publish(doc)).state === 'published') published++;
    await this.backlog();
    return published;
  }

  /** Counts what is not published (and sets the gauge). */
  async backlog(): Promise<PublicationBacklog> {
    const [decisions, pending, failed, oldest] = await Promise.all([
      this.model.estimatedDocumentCount(),
      this.model.countDocuments(UNPUBLISHED),
      this.model.countDocuments({ 'publication.state': 'failed' }),
      this.model.findOne({ 'publication.state': 'failed' }).sort({ 'publication.last_attempt_at': 1 }).lean(),
    ]);
    decisionsUnpublished.set(pending);
    return {
      decisions,
      pending: pending - failed,
      failed,
      oldestFailure: oldest
        ? {
            id: oldest._id,
            at: oldest.publication?.last_attempt_at ?? null,
            error: oldest.publication?.last_error ?? null,
          }
        : null,
    };
  }

  private async failed(doc: DecisionDocument, at: Date, error: unknown): Promise<Publication> {
    decisionPublishes.inc({ outcome: 'failed' });
    const code = errorCode(error);
    const attempts = (doc.publication?.attempts ?? 0) + 1;
    const failed: Publication = {
      state: 'failed',
      published_version: doc.publication?.published_version ?? 0,
      attempts,
      last_error: code,
      last_attempt_at: at,
      next_attempt_at: new Date(at.getTime() + Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), RETRY_MAX_MS)),
    };
    this.logger.warn(
      { err: error, decision: doc._id, version: doc.version, attempts, code },
      'decision could not be published to the corpus; it will be retried',
    );
    // Only the version that failed: a newer change is pending and publishes itself.
    await this.model.updateOne({ _id: doc._id, version: doc.version }, { $set: { publication: failed } });
    decisionsUnpublished.set(await this.model.countDocuments(UNPUBLISHED));
    return failed;
  }
}

/** The error's stable code (`BRAIN_EMBEDDING_UNAVAILABLE`, ...), or its class name; never its message. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code)) return code;
  return error instanceof Error ? error.name.slice(0, 64) : 'UNKNOWN';
}
