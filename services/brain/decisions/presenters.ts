import type { DecisionDocument, DecisionPublication } from '../../../models/Decision';

/** A publication as the routes answer it; a decision stored before it was tracked is pending. */
export function presentPublication(publication: Partial<DecisionPublication> | undefined) {
  return {
    state: publication?.state ?? 'pending',
    published_version: publication?.published_version ?? 0,
    attempts: publication?.attempts ?? 0,
    last_error: publication?.last_error ?? null,
    last_attempt_at: publication?.last_attempt_at?.toISOString() ?? null,
    next_attempt_at: publication?.next_attempt_at?.toISOString() ?? null,
  };
}

/** A decision as the routes answer it. */
export function presentDecision(doc: DecisionDocument) {
  return {
    id: doc._id,
    version: doc.version,
    title: doc.title,
    category: doc.category,
    status: doc.status,
    rationale: doc.rationale,
    context: doc.context,
    supersedes: doc.supersedes,
    superseded_by: doc.superseded_by,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    created_by: doc.created_by,
    source_memory_id: doc.source_memory_id,
    publication: presentPublication(doc.publication),
  };
}

/** A decision with every version, oldest first. */
export function presentDecisionWithVersions(doc: DecisionDocument) {
  return {
    ...presentDecision(doc),
    versions: doc.versions.map((v) => ({ ...v, at: v.at.toISOString() })),
  };
}
