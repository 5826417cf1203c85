import type { DecisionDocument } from '../../../models/Decision';

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
  };
}

/** A decision with every version, oldest first. */
export function presentDecisionWithVersions(doc: DecisionDocument) {
  return {
    ...presentDecision(doc),
    versions: doc.versions.map((v) => ({ ...v, at: v.at.toISOString() })),
  };
}
