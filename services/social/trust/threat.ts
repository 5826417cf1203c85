/**
 * The threat assessment of one person (README, "Threat level"): pure, from the figures the social store counts.
 */

/** What the assessment reads. */
export interface ThreatInputs {
  /** People with an edge toward the person, and the mean of their current trust in them. */
  observers: number;
  meanTrust: number;
  /** Distinct people holding a foe mark on them. */
  foeMarkers: number;
  /** Distinct people who reported them in the last 30 days. */
  reporters: number;
  /** Hostile interactions (insult, spam, scam, grief, attack, kill) they made in the last 24 hours. */
  hostileLastDay: number;
  /** Distinct people who blocked them. */
  blockers: number;
}

export const THREAT_LEVELS = ['none', 'low', 'elevated', 'high', 'critical'] as const;
export type ThreatLevel = (typeof THREAT_LEVELS)[number];

/** One contribution to a threat score, with the figure behind it. */
export interface ThreatReason {
  code: 'low_trust' | 'foe_marks' | 'reports' | 'hostile_rate' | 'blocks';
  points: number;
  detail: string;
}

export interface ThreatAssessment {
  score: number;
  level: ThreatLevel;
  reasons: ThreatReason[];
}

/** Points and caps of each signal, and the level bands (score 0-100). */
export const THREAT = {
  /** Low trust counts once at least this many people have an edge toward the person. */
  minObservers: 3,
  /** Points per trust point of the mean below 40, up to 20. */
  lowTrustBelow: 40,
  lowTrustPerPoint: 0.5,
  lowTrustMax: 20,
  /** A single foe mark is a grudge; from the second on, 10 points per marker, up to 30. */
  foePerMarker: 10,
  foeMax: 30,
  reportPerReporter: 10,
  reportMax: 30,
  hostilePerEvent: 2,
  hostileMax: 20,
  blockPerBlocker: 3,
  blockMax: 10,
  /** Lowest score of each level. */
  bands: { low: 10, elevated: 30, high: 55, critical: 80 },
} as const;

/** The score, level and reasons (largest contribution first). */
export function assessThreat(inputs: ThreatInputs): ThreatAssessment {
  const reasons: ThreatReason[] = [];
  const add = (code: ThreatReason['code'], points: number, detail: string) => {
    if (points > 0) reasons.push({ code, points: Math.round(points), detail });
  };
  if (inputs.observers >= THREAT.minObservers && inputs.meanTrust < THREAT.lowTrustBelow) {
    const points = (THREAT.lowTrustBelow - inputs.meanTrust) * THREAT.lowTrustPerPoint;
    add(
      'low_trust',
      Math.min(THREAT.lowTrustMax, points),
      `mean trust ${Math.round(inputs.meanTrust)} from ${inputs.observers} people`,
    );
  }
  if (inputs.foeMarkers >= 2) {
    add(
      'foe_marks',
      Math.min(THREAT.foeMax, THREAT.foePerMarker * inputs.foeMarkers),
      `marked foe by ${inputs.foeMarkers} people`,
    );
  }
  add(
    'reports',
    Math.min(THREAT.reportMax, THREAT.reportPerReporter * inputs.reporters),
    `reported by ${inputs.reporters} people in 30 days`,
  );
  add(
    'hostile_rate',
    Math.min(THREAT.hostileMax, THREAT.hostilePerEvent * inputs.hostileLastDay),
    `${inputs.hostileLastDay} hostile interactions in 24 hours`,
  );
  add(
    'blocks',
    Math.min(THREAT.blockMax, THREAT.blockPerBlocker * inputs.blockers),
    `blocked by ${inputs.blockers} people`,
  );
  reasons.sort((a, b) => b.points - a.points);
  const score = Math.min(
    100,
    reasons.reduce((sum, reason) => sum + reason.points, 0),
  );
  return { score, level: threatLevelOf(score), reasons };
}

/** The level band of a score. */
export function threatLevelOf(score: number): ThreatLevel {
  const { bands } = THREAT;
  if (score >= bands.critical) return 'critical';
  if (score >= bands.high) return 'high';
  if (score >= bands.elevated) return 'elevated';
  if (score >= bands.low) return 'low';
  return 'none';
}
