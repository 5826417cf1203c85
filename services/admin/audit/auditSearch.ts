import type { AuditEvent } from '../../../models/AuditEvent';
import { auditQuery, type AuditFilter, type AuditStores } from './auditLog';
import { hourOf } from './auditText';

/** A semantic search of the audit log with filters. */
export interface AuditSearchInput {
  query: string;
  from?: Date;
  to?: Date;
  actor?: string;
  kinds?: string[];
  limit: number;
}

/** One matching event with the similarity of its text to the query (1 for identifier-only matches). */
export interface AuditSearchHit {
  event: AuditEvent;
  score: number;
}

/** The answer: the hits newest first, and how the query was read (for the caller to judge the matches). */
export interface AuditSearchResult {
  hits: AuditSearchHit[];
  interpreted: { texts: Array<{ text: string; score: number }>; identifiers: string[] };
  took_ms: number;
}

/** Signatures considered per query, and how close to the best one a signature must be to count as a match. */
const CANDIDATE_SIGNATURES = 24;
const RELATIVE_SCORE = 0.6;
/** Equality combinations (signatures × hours) per index lookup; the embedded engine's compound `$in` cap is 1000. */
const COMBINATIONS = 960;
/** Identifiers in a query filter by actor or target instead of being searched for by meaning. */
const IDENTIFIER = /\b(?:user:[0-9a-f]{24}|address:0x[0-9a-fA-F]{40}|0x[0-9a-fA-F]{40}|[0-9a-f]{24})\b/g;

/**
 * Semantic search over the audit log. The query is embedded and compared with the log's distinct event texts
 * (signatures, see auditText.ts); those within 60% of the best similarity are the matches, and their events are
 * read newest first by walking hours backwards through the `{sig, hour}` index (each lookup an exact set of
 * equalities), within the signatures' first and last sightings and the filters. Identifiers in the query (user ids,
 * addresses) filter actor or target. Cost grows with the matches returned, not with the size of the log.
 */
export async function searchAudit(stores: AuditStores, input: AuditSearchInput): Promise<AuditSearchResult> {
  const started = performance.now();
  const identifiers = [...new Set(input.query.match(IDENTIFIER) ?? [])];
  const words = input.query.replace(IDENTIFIER, ' ').trim();
  const filter: AuditFilter = { actor: input.actor, kinds: input.kinds, from: input.from, to: input.to };
  const scope = identifierScope(identifiers);
  if (!/[a-z]{2,}/i.test(words)) {
    const events = await stores.events
      .find({ ...auditQuery(filter), ...scope }, { _id: 0, hour: 0, sig: 0 })
      .sort({ at: -1 })
      .limit(input.limit)
      .lean<AuditEvent[]>();
    return {
      hits: events.map((event) => ({ event, score: 1 })),
      interpreted: { texts: [], identifiers },
      took_ms: elapsed(started),
    };
  }
  const candidates = await stores.vectors.search(words, input.kinds, CANDIDATE_SIGNATURES);
  const best = candidates[0]?.score ?? 0;
  const matches = best > 0 ? candidates.filter((hit) => hit.score >= best * RELATIVE_SCORE) : [];
  const texts = await stores.signatures
    .find({ _id: { $in: matches.map((hit) => hit.sig) } }, { text: 1, first_seen: 1, last_seen: 1 })
    .lean();
  const scores = new Map(matches.map((hit) => [hit.sig, hit.score]));
  const hits: AuditSearchHit[] = [];
  if (texts.length > 0 && input.actor) {
    // One actor's events are few: read them through the `{actor, at}` index at once instead of walking hours.
    const rows = await stores.events
      .find(
        { ...auditQuery(filter), ...scope, sig: { $in: texts.map((row) => row._id) } },
        { _id: 0, hour: 0 },
      )
      .sort({ at: -1 })
      .limit(input.limit)
      .lean<Array<AuditEvent & { sig: string }>>();
    for (const { sig, ...event } of rows) hits.push({ event, score: round(scores.get(sig) ?? 0) });
  } else if (texts.length > 0) {
    const newest = Math.max(...texts.map((row) => hourOf(row.last_seen)));
    const oldest = Math.min(...texts.map((row) => hourOf(row.first_seen)));
    const top = Math.min(newest, input.to ? hourOf(input.to) : newest);
    const bottom = Math.max(oldest, input.from ? hourOf(input.from) : oldest);
    const sigs = texts.map((row) => row._id);
    // Start with the newest hour and double the span each step (up to the lookup cap): a common match fills the
    // page from a few recent candidates, a rare one still walks the range in few lookups.
    const maxSpan = Math.max(1, Math.floor(COMBINATIONS / sigs.length));
    let span = 1;
    for (
      let high = top;
      high >= bottom && hits.length < input.limit;
      high -= span, span = Math.min(maxSpan, span * 2)
    ) {
      const hours = Array.from({ length: Math.min(span, high - bottom + 1) }, (_, index) => high - index);
      const rows = await stores.events
        .find(
          { ...auditQuery(filter), ...scope, sig: { $in: sigs }, hour: { $in: hours } },
          { _id: 0, hour: 0 },
        )
        .sort({ at: -1 })
        .limit(input.limit - hits.length)
        .lean<Array<AuditEvent & { sig: string }>>();
      for (const { sig, ...event } of rows) hits.push({ event, score: round(scores.get(sig) ?? 0) });
    }
  }
  return {
    hits,
    interpreted: {
      texts: texts
        .map((row) => ({ text: row.text, score: round(scores.get(row._id) ?? 0) }))
        .sort((a, b) => b.score - a.score),
      identifiers,
    },
    took_ms: elapsed(started),
  };
}

/** Events whose actor or target is one of the identifiers (an address may be either side). */
function identifierScope(identifiers: string[]): Record<string, unknown> {
  if (identifiers.length === 0) return {};
  const values = identifiers.flatMap((id) => {
    if (/^[0-9a-f]{24}$/.test(id)) return [`user:${id}`, id];
    if (/^0x/i.test(id)) return [`address:${id}`, id, id.toLowerCase()];
    return [id];
  });
  return { $or: [{ actor: { $in: values } }, { target: { $in: values } }] };
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
