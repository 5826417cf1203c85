import type { SocialEdgeRecord } from '../../models/SocialEdge';
import type { SocialIdentityRecord } from '../../models/SocialIdentity';
import type { SocialInteractionRecord } from '../../models/SocialInteraction';
import { socialError } from './errors';
import { edgeId, identityKey, type IdentityRef } from './identities';
import type { SocialStore } from './socialStore';
import { standingOf, type Standing } from './trust/threatAssessor';
import { TOPIC_WINDOW, topicsOf } from './topics';
import { edgeRelationship, type Relationship } from './trust/relationships';
import { trustScore, TRUST } from './trust/trustRules';
import { loadEdges, stateOf } from './trust/trustLedger';

/** Days the profile's recent-interactions summary covers. */
export const RECENT_DAYS = 7;
const DAY_MS = 86_400_000;
/** Edges from one person read for their friend and foe counts at most. */
const MAX_OUTGOING_EDGES = 5_000;

/** Everything the profile route presents. */
export interface ProfileData {
  person: string;
  identities: SocialIdentityRecord[];
  viewer: IdentityRef | null;
  trust: { viewerTrustsThem: number; theyTrustViewer: number } | null;
  relationship: Relationship | null;
  standing: Standing;
  friends: number;
  foes: number;
  recent: { interactions: number; byKind: Record<string, number>; lastAt: Date | null };
  topics: { term: string; weight: number }[];
}

/** The person an identity belongs to; 404 IDENTITY_NOT_FOUND when the platform has never seen it. */
export async function requirePerson(store: SocialStore, ref: IdentityRef): Promise<string> {
  const person = await store.existingPersonOf(ref);
  if (!person) throw socialError('IDENTITY_NOT_FOUND', `No social identity ${identityKey(ref)}`);
  return person;
}

/** The profile of `ref` as `viewer` sees it (trust both ways and the viewer's relationship; none without a viewer). */
export async function readProfile(
  store: SocialStore,
  ref: IdentityRef,
  viewer: IdentityRef | null,
): Promise<ProfileData> {
  const person = await requirePerson(store, ref);
  const now = store.clock.now();
  const viewerPerson = viewer ? await store.existingPersonOf(viewer) : null;
  // One read of their latest interactions serves the summary, the topics and the hostile rate.
  const latest = await store.interactions
    .find({ actorPerson: person }, { kind: 1, recordedAt: 1, terms: 1, hostile: 1 })
    .sort({ recordedAt: -1 })
    .limit(TOPIC_WINDOW)
    .lean<Pick<SocialInteractionRecord, 'kind' | 'recordedAt' | 'terms' | 'hostile'>[]>();
  const since = (ms: number) => latest.filter((interaction) => interaction.recordedAt.getTime() >= now - ms);
  const recent = since(RECENT_DAYS * DAY_MS);
  const hostileLastDay = since(DAY_MS).filter((interaction) => interaction.hostile).length;
  const [identities, standing, outgoing, viewerEdges] = await Promise.all([
    store.identitiesOf(person),
    standingOf(store, person, hostileLastDay),
    store.edges
      .find({ from: person }, { base: 1, decayedAt: 1, marks: 1 })
      .limit(MAX_OUTGOING_EDGES)
      .lean<SocialEdgeRecord[]>(),
    viewerPerson && viewerPerson !== person
      ? loadEdges(store, [edgeId(viewerPerson, person), edgeId(person, viewerPerson)])
      : Promise.resolve(null),
  ]);
  let friends = 0;
  let foes = 0;
  for (const edge of outgoing) {
    const relationship = edgeRelationship(stateOf(edge), now);
    if (relationship === 'fren') friends++;
    if (relationship === 'foe') foes++;
  }
  const byKind: Record<string, number> = {};
  for (const interaction of recent) byKind[interaction.kind] = (byKind[interaction.kind] ?? 0) + 1;
  const trustOf = (edge: SocialEdgeRecord | undefined) =>
    edge ? trustScore(stateOf(edge), now) : TRUST.start;
  const toward = viewerEdges?.get(edgeId(viewerPerson as string, person));
  return {
    person,
    identities,
    viewer,
    trust:
      viewer && viewerPerson !== person
        ? {
            viewerTrustsThem: trustOf(toward),
            theyTrustViewer: trustOf(viewerEdges?.get(edgeId(person, viewerPerson as string))),
          }
        : null,
    relationship:
      viewer && viewerPerson !== person ? edgeRelationship(toward ? stateOf(toward) : undefined, now) : null,
    standing,
    friends,
    foes,
    recent: { interactions: recent.length, byKind, lastAt: recent[0]?.recordedAt ?? null },
    topics: topicsOf(latest),
  };
}
