import type { SocialEdgeRecord } from '../../models/SocialEdge';
import type { SocialIdentityRecord } from '../../models/SocialIdentity';
import { edgeId } from './identities';
import type { SocialStore } from './socialStore';
import { edgeRelationship, type Relationship } from './trust/relationships';
import { trustScore, type MarkKind } from './trust/trustRules';
import { stateOf } from './trust/trustLedger';

/** One person seen from another: the edge's trust, relationship and marks. */
export interface PersonView {
  person: string;
  displayName: string | null;
  trust: number;
  relationship: Relationship;
  marks: MarkKind[];
  interactions: number;
}

/** Edges read per person and direction at most. */
const MAX_EDGES = 5_000;
/** Friends of one person expanded at depth 2 at most (the closest first). */
const MAX_EXPANDED = 50;

function viewOf(
  edge: SocialEdgeRecord,
  other: string,
  now: number,
  names: Map<string, string | null>,
  showBlock = true,
): PersonView {
  const stored = stateOf(edge);
  // A block is the blocker's business: hidden, it shows as what trust and the other marks say.
  const state = showBlock ? stored : { ...stored, marks: { ...stored.marks, block: null } };
  const marks = (['fren', 'foe', 'block'] as const).filter((mark) => state.marks[mark]);
  return {
    person: other,
    displayName: names.get(other) ?? null,
    trust: trustScore(state, now),
    relationship: edgeRelationship(state, now),
    marks,
    interactions: edge.interactions,
  };
}

/** Display names of persons (the name of the identity that is the person). */
export async function namesOf(store: SocialStore, persons: string[]): Promise<Map<string, string | null>> {
  const found = await store.identities
    .find({ _id: { $in: persons } }, { display_name: 1 })
    .lean<SocialIdentityRecord[]>();
  return new Map(found.map((identity) => [identity._id, identity.display_name]));
}

/** Whose blocks a reader sees: every one (the service token), or those a person (the signed-in reader) set. */
export type BlockVisibility = 'all' | string;

/** Who `person` has edges toward (outgoing) and who has edges toward them (incoming), closest first. */
export async function relationshipsOf(
  store: SocialStore,
  person: string,
  filter: Relationship | undefined,
  limit: number,
  blocksOf: BlockVisibility = 'all',
) {
  const now = store.clock.now();
  const [outgoing, incoming] = await Promise.all([
    store.edges.find({ from: person }).limit(MAX_EDGES).lean<SocialEdgeRecord[]>(),
    store.edges.find({ to: person }).limit(MAX_EDGES).lean<SocialEdgeRecord[]>(),
  ]);
  const names = await namesOf(store, [...outgoing.map((e) => e.to), ...incoming.map((e) => e.from)]);
  const views = (edges: SocialEdgeRecord[], side: 'to' | 'from') =>
    edges
      .map((edge) => viewOf(edge, edge[side], now, names, blocksOf === 'all' || edge.from === blocksOf))
      .filter((view) => !filter || view.relationship === filter)
      .sort((a, b) => b.trust - a.trust || a.person.localeCompare(b.person))
      .slice(0, limit);
  return { outgoing: views(outgoing, 'to'), incoming: views(incoming, 'from') };
}

/** The people `person` regards as fren (marked, or trust 80 and above), closest first. */
export async function friendsOf(store: SocialStore, person: string, limit: number): Promise<PersonView[]> {
  return (await relationshipsOf(store, person, 'fren', limit)).outgoing;
}

/** A node of the friends-of-friends graph: best trust-weighted path from the root and the friend it came through. */
export interface GraphNode {
  person: string;
  depth: number;
  score: number;
  via: string | null;
}

/**
 * Friends and friends of friends (depth 1 or 2), trust-weighted: an edge counts when its relationship is friendly
 * or fren (trust ≥ 60 or a fren mark) and not blocked; a node's score is the product of trust/100 along its best
 * path. The root's blocks hide people from the graph even when a friend trusts them.
 */
export async function graphOf(store: SocialStore, root: string, depth: number, limit: number) {
  const now = store.clock.now();
  const trusted = (edge: SocialEdgeRecord) => {
    const relationship = edgeRelationship(stateOf(edge), now);
    return relationship === 'fren' || relationship === 'friendly';
  };
  const rootEdges = await store.edges.find({ from: root }).limit(MAX_EDGES).lean<SocialEdgeRecord[]>();
  const hidden = new Set(
    rootEdges.filter((edge) => edge.marks?.block || edge.marks?.foe).map((edge) => edge.to),
  );
  const nodes = new Map<string, GraphNode>();
  const edges: { from: string; to: string; trust: number; relationship: Relationship }[] = [];
  for (const edge of rootEdges.filter(trusted)) {
    const trust = trustScore(stateOf(edge), now);
    nodes.set(edge.to, { person: edge.to, depth: 1, score: trust / 100, via: null });
    edges.push({ from: root, to: edge.to, trust, relationship: edgeRelationship(stateOf(edge), now) });
  }
  if (depth >= 2) {
    const expand = [...nodes.values()].sort((a, b) => b.score - a.score).slice(0, MAX_EXPANDED);
    const second = await store.edges
      .find({ from: { $in: expand.map((node) => node.person) }, to: { $nin: [root, ...hidden] } })
      .limit(MAX_EDGES)
      .lean<SocialEdgeRecord[]>();
    for (const edge of second.filter(trusted)) {
      const trust = trustScore(stateOf(edge), now);
      const score = (nodes.get(edge.from) as GraphNode).score * (trust / 100);
      edges.push({ from: edge.from, to: edge.to, trust, relationship: edgeRelationship(stateOf(edge), now) });
      const known = nodes.get(edge.to);
      if (!known) nodes.set(edge.to, { person: edge.to, depth: 2, score, via: edge.from });
      else if (known.depth === 2 && known.score < score)
        nodes.set(edge.to, { ...known, score, via: edge.from });
    }
  }
  const kept = [...nodes.values()].sort((a, b) => a.depth - b.depth || b.score - a.score).slice(0, limit);
  const keptIds = new Set([root, ...kept.map((node) => node.person)]);
  return { nodes: kept, edges: edges.filter((edge) => keptIds.has(edge.from) && keptIds.has(edge.to)) };
}

/** The changes of `observer`'s trust in `subject`, newest first, and the trust now. */
export async function trustHistory(store: SocialStore, observer: string, subject: string, limit: number) {
  const id = edgeId(observer, subject);
  const [edge, changes] = await Promise.all([
    store.edges.findById(id).lean<SocialEdgeRecord>(),
    store.changes.find({ edge: id }).sort({ at: -1, _id: -1 }).limit(limit).lean(),
  ]);
  return { trust: edge ? trustScore(stateOf(edge), store.clock.now()) : 50, changes };
}
