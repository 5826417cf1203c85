import type { SocialEdgeRecord } from '../../../models/SocialEdge';
import type { SocialStore } from '../socialStore';
import { assessThreat, type ThreatAssessment, THREAT_LEVELS, type ThreatLevel } from './threat';
import { trustScore } from './trustRules';
import { stateOf } from './trustLedger';

const DAY_MS = 86_400_000;
/** Edges toward one person read for their threat and reputation at most. */
export const MAX_INCOMING_EDGES = 5_000;
/** Interactions of the last day read for the hostile rate at most (the rate's points are capped far below). */
const MAX_RECENT_HOSTILE = 2_000;
/** People the threat list assesses at most (the candidates with recent signals). */
const MAX_CANDIDATES = 500;

/** A person's reputation (mean incoming trust, 50 with nobody) and threat. */
export interface Standing {
  reputation: number;
  observers: number;
  threat: ThreatAssessment;
}

/**
 * Reads the signals of one person's threat and assesses it, with their reputation. Two queries, or one when the
 * caller already counted their hostile interactions of the last day (`hostileKnown`).
 */
export async function standingOf(
  store: SocialStore,
  person: string,
  hostileKnown?: number,
): Promise<Standing> {
  const now = store.clock.now();
  const [incoming, hostileLastDay] = await Promise.all([
    store.edges
      .find(
        { to: person },
        {
          base: 1,
          decayedAt: 1,
          marks: 1,
          reportedAt: 1,
          day: 1,
          dayGain: 1,
          dayLoss: 1,
          repeats: 1,
          interactions: 1,
        },
      )
      .limit(MAX_INCOMING_EDGES)
      .lean<SocialEdgeRecord[]>(),
    // find, not countDocuments: the count runs as an aggregation, which the embedded engine answers by a scan.
    hostileKnown ??
      store.interactions
        .find({ actorPerson: person, recordedAt: { $gte: new Date(now - DAY_MS) } }, { hostile: 1 })
        .limit(MAX_RECENT_HOSTILE)
        .lean()
        .then((recent) => recent.filter((interaction) => interaction.hostile).length),
  ]);
  let sum = 0;
  let foeMarkers = 0;
  let reporters = 0;
  let blockers = 0;
  for (const edge of incoming) {
    sum += trustScore(stateOf(edge), now);
    if (edge.marks?.foe) foeMarkers++;
    if (edge.marks?.block) blockers++;
    if (edge.reportedAt && edge.reportedAt.getTime() >= now - 30 * DAY_MS) reporters++;
  }
  const observers = incoming.length;
  const meanTrust = observers > 0 ? sum / observers : 50;
  return {
    reputation: Math.round(meanTrust),
    observers,
    threat: assessThreat({ observers, meanTrust, foeMarkers, reporters, hostileLastDay, blockers }),
  };
}

/**
 * People ranked by threat, at `minLevel` or above. Candidates are those with a signal in the last 30 days (a
 * foe mark, block or report on an edge toward them, or a hostile interaction they made); each is assessed afresh.
 */
export async function rankThreats(store: SocialStore, minLevel: ThreatLevel, limit: number) {
  const since = new Date(store.clock.now() - 30 * DAY_MS);
  const [marked, hostile] = await Promise.all([
    store.edges.distinct('to', {
      $or: [
        { 'marks.foe': { $ne: null } },
        { 'marks.block': { $ne: null } },
        { reportedAt: { $gte: since } },
      ],
    }),
    store.interactions.distinct('actorPerson', { hostile: true, recordedAt: { $gte: since } }),
  ]);
  const candidates = [...new Set([...marked, ...hostile].map(String))].slice(0, MAX_CANDIDATES);
  const floor = THREAT_LEVELS.indexOf(minLevel);
  const assessed = await Promise.all(
    candidates.map(async (person) => ({ person, ...(await standingOf(store, person)) })),
  );
  return assessed
    .filter((entry) => THREAT_LEVELS.indexOf(entry.threat.level) >= floor)
    .sort((a, b) => b.threat.score - a.threat.score || a.person.localeCompare(b.person))
    .slice(0, limit);
}
