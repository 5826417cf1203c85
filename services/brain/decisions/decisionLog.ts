import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import { timeOrderedId } from '../../../ai/memory/timeOrderedId';
import {
  decisionModel,
  type DecisionCategory,
  type DecisionDocument,
  type DecisionStatus,
  type DecisionVersion,
  type PublicationState,
} from '../../../models/Decision';
import type { Clock } from '../../../platform/clock';
import { DecisionPublication, pendingPublication, type DecisionPublisher } from './decisionPublication';
import { assertPublishable } from './decisionText';
import { decisionError, transitionInvalid } from './errors';

export type { DecisionPublisher } from './decisionPublication';

/** A new decision. `id` and `sourceMemoryId` are set by consolidation (a stable id per extracted sentence). */
export interface NewDecision {
  title: string;
  category: DecisionCategory;
  rationale: string;
  context?: string | null;
  supersedes?: string;
  actor: string;
  id?: string;
  sourceMemoryId?: string;
}

/** Filters of the decision history. */
export interface DecisionQuery {
  category?: DecisionCategory;
  status?: DecisionStatus;
  /** Only decisions whose publication into the corpus is in this state. */
  publication?: PublicationState;
  q?: string;
  asOf?: Date;
  cursor?: string;
  limit: number;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The version in force at `at` (undefined before the decision existed). */
export function versionAt(decision: DecisionDocument, at: Date): DecisionVersion | undefined {
  return decision.versions.filter((version) => version.at <= at).at(-1);
}

/**
 * Decision tracking (SPEC 2.9, 3.3) with temporal versioning. Transitions: active → superseded (by a newer active
 * decision), active → reverted; reverting a decision re-activates the decisions it superseded. Anything else is 409
 * DECISION_TRANSITION_INVALID. Each change is one conditional update on (`_id`, `version`, `status`) that appends a
 * version (who, when, why), so concurrent changes cannot both apply.
 *
 * Each change is then published into the brain's corpus (`publication`, see `decisionPublication.ts`): text the
 * corpus would refuse as binary is refused (400 DECISION_TEXT_BINARY) before anything is stored, and a publish that
 * fails afterwards is recorded on the decision and retried.
 */
export class DecisionLog {
  readonly model: Model<DecisionDocument>;
  readonly publication: DecisionPublication;

  constructor(
    mongo: Connection,
    private readonly clock: Clock,
    logger: Logger,
    publisher?: DecisionPublisher,
  ) {
    this.model = decisionModel(mongo);
    this.publication = new DecisionPublication(this.model, clock, logger, publisher);
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  /** Records a new active decision (superseding `supersedes` when given). Answers null when `id` already exists. */
  async create(input: NewDecision): Promise<DecisionDocument | null> {
    assertPublishable(input);
    if (input.supersedes) await this.activeOrThrow(input.supersedes, 'superseded');
    const at = new Date(this.clock.now());
    const id = input.id ?? timeOrderedId(at.getTime());
    const doc: DecisionDocument = {
      _id: id,
      title: input.title,
      category: input.category,
      rationale: input.rationale,
      context: input.context ?? null,
      status: 'active',
      version: 1,
      supersedes: [],
      superseded_by: null,
      created_at: at,
      updated_at: at,
      created_by: input.actor,
      source_memory_id: input.sourceMemoryId ?? null,
      versions: [
        {
          version: 1,
          status: 'active',
          at,
          actor: input.actor,
          change: 'created',
          reason: null,
          superseded_by: null,
        },
      ],
      publication: pendingPublication(at),
    };
    try {
      await this.model.create(doc);
    } catch (error) {
      if ((error as { code?: number }).code === 11000 && input.id) return null;
      throw error;
    }
    doc.publication = await this.publication.publish(doc);
    if (input.supersedes) return this.supersede(input.supersedes, id, input.actor).then(() => this.get(id));
    return doc;
  }

  /** active → superseded by `by` (another active decision, which records that it supersedes this one). */
  async supersede(id: string, by: string, actor: string): Promise<DecisionDocument> {
    if (id === by) throw transitionInvalid(id, 'active', 'superseded', 'a decision cannot supersede itself');
    await this.activeOrThrow(by, 'superseding');
    const updated = await this.transition(id, 'active', 'superseded', {
      actor,
      change: 'superseded',
      reason: `superseded by ${by}`,
      superseded_by: by,
    });
    await this.change(
      by,
      { actor, change: 'supersedes', reason: `supersedes ${id}` },
      { $addToSet: { supersedes: id } },
    );
    return updated;
  }

  /** active → reverted; the decisions it superseded become active again. */
  async revert(id: string, reason: string, actor: string): Promise<DecisionDocument> {
    const updated = await this.transition(id, 'active', 'reverted', {
      actor,
      change: 'reverted',
      reason,
      superseded_by: null,
    });
    const superseded = await this.model.find({ superseded_by: id, status: 'superseded' }).lean();
    for (const older of superseded) {
      try {
        await this.transition(older._id, 'superseded', 'active', {
          actor,
          change: 'reactivated',
          reason: `${id} was reverted: ${reason}`,
          superseded_by: null,
        });
      } catch (error) {
        // Changed meanwhile (superseded by another decision since): it stays as it is now.
        if ((error as { code?: string }).code !== 'DECISION_TRANSITION_INVALID') throw error;
      }
    }
    return updated;
  }

  async get(id: string): Promise<DecisionDocument> {
    const doc = await this.model.findById(id).lean();
    if (!doc) throw decisionError('DECISION_NOT_FOUND', `No decision ${id}`);
    return doc;
  }

  /** The history, newest first; with `asOf`, only decisions that existed then, with their status then. */
  async list(query: DecisionQuery): Promise<{ decisions: DecisionDocument[]; next_cursor: string | null }> {
    const filter: Record<string, unknown> = {};
    if (query.category) filter.category = query.category;
    if (query.publication === 'published') filter['publication.state'] = 'published';
    else if (query.publication) filter['publication.state'] = { $in: [query.publication, ...legacy(query)] };
    if (query.q) {
      const pattern = { $regex: escapeRegex(query.q), $options: 'i' };
      filter.$or = [{ title: pattern }, { rationale: pattern }, { context: pattern }];
    }
    if (query.asOf) filter.created_at = { $lte: query.asOf };
    else if (query.status) filter.status = query.status;
    const page: DecisionDocument[] = [];
    let cursor = query.cursor;
    for (;;) {
      const batch = await this.model
        .find({ ...filter, ...(cursor ? { _id: { $lt: cursor } } : {}) })
        .sort({ _id: -1 })
        .limit(query.limit + 1)
        .lean();
      for (const doc of batch.slice(0, query.limit)) {
        cursor = doc._id;
        const shown = query.asOf ? asOfView(doc, query.asOf) : doc;
        if (query.status && shown.status !== query.status) continue;
        page.push(shown);
        if (page.length === query.limit)
          return { decisions: page, next_cursor: batch.length > 0 ? cursor : null };
      }
      if (batch.length <= query.limit) return { decisions: page, next_cursor: null };
    }
  }

  private async activeOrThrow(id: string, to: string): Promise<void> {
    const doc = await this.get(id);
    if (doc.status !== 'active') throw transitionInvalid(id, doc.status, to);
  }

  private async transition(
    id: string,
    from: DecisionStatus,
    to: DecisionStatus,
    version: Omit<DecisionVersion, 'version' | 'status' | 'at'>,
  ): Promise<DecisionDocument> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await this.get(id);
      if (doc.status !== from) throw transitionInvalid(id, doc.status, to);
      const updated = await this.apply(
        doc,
        { ...version, status: to },
        { $set: { status: to, superseded_by: version.superseded_by } },
      );
      if (updated) return updated;
    }
    throw transitionInvalid(id, from, to, 'it kept changing concurrently');
  }

  /** A version that changes no status (the superseding decision records what it supersedes). */
  private async change(
    id: string,
    version: Pick<DecisionVersion, 'actor' | 'change' | 'reason'>,
    update: Record<string, unknown>,
  ) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await this.get(id);
      const updated = await this.apply(
        doc,
        { ...version, status: doc.status, superseded_by: doc.superseded_by },
        update,
      );
      if (updated) return updated;
    }
    return this.get(id);
  }

  private async apply(
    doc: DecisionDocument,
    version: Omit<DecisionVersion, 'version' | 'at'>,
    update: Record<string, unknown>,
  ): Promise<DecisionDocument | null> {
    const at = new Date(Math.max(this.clock.now(), doc.updated_at.getTime()));
    const next = doc.version + 1;
    const updated = await this.model
      .findOneAndUpdate(
        { _id: doc._id, version: doc.version },
        {
          ...update,
          $set: {
            ...((update.$set as object) ?? {}),
            version: next,
            updated_at: at,
            'publication.state': 'pending',
            'publication.next_attempt_at': at,
          },
          $push: { versions: { ...version, version: next, at } },
        },
        { returnDocument: 'after' },
      )
      .lean();
    if (updated) updated.publication = await this.publication.publish(updated);
    return updated;
  }
}

/** Decisions stored before publication was tracked count as pending (the retry job publishes them). */
function legacy(query: DecisionQuery): null[] {
  return query.publication === 'pending' ? [null] : [];
}

/** A decision as it stood at `at`: the status and supersession of the version in force then. */
function asOfView(doc: DecisionDocument, at: Date): DecisionDocument {
  const version = versionAt(doc, at);
  return version
    ? { ...doc, status: version.status, superseded_by: version.superseded_by, version: version.version }
    : doc;
}
