import type { z } from 'zod';
import type { SocialIdentityRecord } from '../../models/SocialIdentity';
import type { SocialInteractionRecord } from '../../models/SocialInteraction';
import type { SocialTrustChangeRecord } from '../../models/SocialTrustChange';
import type { GraphNode, PersonView } from './graphReader';
import { identityOfKey } from './identities';
import type { MarkResult } from './marks/markSetter';
import type { PersonHit } from './peopleSearch';
import type { ProfileData } from './profileReader';
import type {
  GraphSchema,
  HistorySchema,
  InteractionSchema,
  LinkedIdentitySchema,
  PersonEntry,
  Profile,
  SearchSchema,
  ThreatsSchema,
} from './schemas';
import { RECENT_DAYS } from './profileReader';
import type { Relationship } from './trust/relationships';
import type { ThreatAssessment } from './trust/threat';

/** Replayed answers carry `Idempotent-Replayed: true`. */
export function replayHeaders(replayed: boolean): Record<string, string> | undefined {
  return replayed ? { 'Idempotent-Replayed': 'true' } : undefined;
}

/** An interaction as the API shows it (the same for the first answer and every replay). */
export function presentInteraction(record: SocialInteractionRecord): z.infer<typeof InteractionSchema> {
  return {
    id: record._id,
    actor: identityOfKey(record.actor),
    target: record.target ? identityOfKey(record.target) : null,
    kind: record.kind as z.infer<typeof InteractionSchema>['kind'],
    content: record.content,
    sentiment: record.sentiment,
    hostile: record.hostile,
    occurred_at: new Date(record.occurredAt).toISOString(),
    recorded_at: new Date(record.recordedAt).toISOString(),
    effect: record.effect
      ? {
          observer: identityOfKey(record.effect.observer),
          subject: identityOfKey(record.effect.subject),
          applied: record.effect.applied,
          trust_after: record.effect.trust_after,
          capped: record.effect.capped,
        }
      : null,
  };
}

/** A linked identity of a person. */
export function presentIdentity(identity: SocialIdentityRecord): z.infer<typeof LinkedIdentitySchema> {
  return {
    platform: identity.platform,
    user_id: identity.user_id,
    display_name: identity.display_name ?? null,
    last_seen: new Date(identity.last_seen).toISOString(),
    linked_at: identity.linked_at ? new Date(identity.linked_at).toISOString() : null,
  };
}

/** A threat assessment. */
export function presentThreat(threat: ThreatAssessment) {
  return { score: threat.score, level: threat.level, reasons: threat.reasons };
}

/** The profile route's body. */
export function presentProfile(data: ProfileData): Profile {
  return {
    person: identityOfKey(data.person),
    identities: data.identities.map(presentIdentity),
    viewer: data.viewer,
    trust: data.trust
      ? { viewer_trusts_them: data.trust.viewerTrustsThem, they_trust_viewer: data.trust.theyTrustViewer }
      : null,
    relationship: data.relationship,
    reputation: data.standing.reputation,
    friend_count: data.friends,
    foe_count: data.foes,
    recent: {
      days: RECENT_DAYS,
      interactions: data.recent.interactions,
      by_kind: data.recent.byKind,
      last_at: data.recent.lastAt ? new Date(data.recent.lastAt).toISOString() : null,
    },
    topics: data.topics,
    threat: presentThreat(data.standing.threat),
  };
}

/** One person in a list (friends, relationships). */
export function presentPerson(view: PersonView): PersonEntry {
  return {
    identity: identityOfKey(view.person),
    display_name: view.displayName,
    trust: view.trust,
    relationship: view.relationship,
    marks: view.marks,
    interactions: view.interactions,
  };
}

/** A mark's result: the edge after the change. */
export function presentMark(result: MarkResult) {
  return {
    observer: identityOfKey(result.observer),
    subject: identityOfKey(result.subject),
    trust: result.trust,
    trust_before: result.trust_before,
    relationship: result.relationship,
    marks: (['fren', 'foe', 'block'] as const).filter((mark) => result.marks[mark]),
  };
}

/** The threat list. */
export function presentThreats(
  entries: { person: string; threat: ThreatAssessment }[],
  identities: Map<string, SocialIdentityRecord[]>,
): z.infer<typeof ThreatsSchema> {
  return {
    threats: entries.map((entry) => ({
      person: identityOfKey(entry.person),
      identities: (identities.get(entry.person) ?? []).map((identity) => ({
        platform: identity.platform,
        user_id: identity.user_id,
      })),
      threat: presentThreat(entry.threat),
    })),
  };
}

/** The friends-of-friends graph. */
export function presentGraph(
  root: string,
  depth: number,
  graph: {
    nodes: GraphNode[];
    edges: { from: string; to: string; trust: number; relationship: Relationship }[];
  },
): z.infer<typeof GraphSchema> {
  return {
    root: identityOfKey(root),
    depth,
    nodes: graph.nodes.map((node) => ({
      identity: identityOfKey(node.person),
      depth: node.depth,
      score: Math.round(node.score * 10_000) / 10_000,
      via: node.via ? identityOfKey(node.via) : null,
    })),
    edges: graph.edges.map((edge) => ({
      from: identityOfKey(edge.from),
      to: identityOfKey(edge.to),
      trust: edge.trust,
      relationship: edge.relationship,
    })),
  };
}

/** A trust history. */
export function presentHistory(history: {
  observer: string;
  subject: string;
  trust: number;
  changes: SocialTrustChangeRecord[];
}): z.infer<typeof HistorySchema> {
  return {
    observer: identityOfKey(history.observer),
    subject: identityOfKey(history.subject),
    trust: history.trust,
    changes: history.changes.map((change) => ({
      at: new Date(change.at).toISOString(),
      cause: change.cause,
      applied: change.applied,
      before: change.before,
      after: change.after,
    })),
  };
}

/** Search results. */
export function presentSearch(hits: PersonHit[]): z.infer<typeof SearchSchema> {
  return {
    results: hits.map((hit) => ({
      person: identityOfKey(hit.person),
      score: hit.score,
      matched: hit.matched,
      topics: hit.topics,
    })),
  };
}
