import type { EdgeState } from './trustRules';
import { trustScore } from './trustRules';

/** How one person stands toward another (README, "Relationship table"), from the observer's edge. */
export const RELATIONSHIPS = ['blocked', 'foe', 'wary', 'neutral', 'friendly', 'fren'] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

/** The trust thresholds of the table: below `foe` is foe, below `wary` wary, and so on; `fren` and above is fren. */
export const RELATIONSHIP_THRESHOLDS = { foe: 20, wary: 40, neutral: 60, friendly: 80 } as const;

/** A fren mark counts while trust stays at or above this (a betrayed fren drops to what trust says). */
export const FREN_MARK_FLOOR = 40;

/**
 * The relationship the table gives: block first, then a foe mark, then a fren mark (while trust ≥ 40), then the
 * trust bands 0-19 foe, 20-39 wary, 40-59 neutral, 60-79 friendly, 80-100 fren.
 */
export function relationshipOf(trust: number, marks: EdgeState['marks']): Relationship {
  if (marks.block) return 'blocked';
  if (marks.foe) return 'foe';
  if (marks.fren && trust >= FREN_MARK_FLOOR) return 'fren';
  if (trust < RELATIONSHIP_THRESHOLDS.foe) return 'foe';
  if (trust < RELATIONSHIP_THRESHOLDS.wary) return 'wary';
  if (trust < RELATIONSHIP_THRESHOLDS.neutral) return 'neutral';
  if (trust < RELATIONSHIP_THRESHOLDS.friendly) return 'friendly';
  return 'fren';
}

/** The relationship of an edge at `now` (an absent edge is a stranger: trust 50, neutral). */
export function edgeRelationship(state: EdgeState | undefined, now: number): Relationship {
  return state ? relationshipOf(trustScore(state, now), state.marks) : 'neutral';
}

/** SPEC 2.10: how an NPC disposes itself toward a player. */
export type Disposition = 'friendly' | 'neutral' | 'wary';

/**
 * An NPC's disposition from a player's standing: friendly from 60 (friendly, fren), wary below 40 or at an elevated
 * threat level, neutral between.
 */
export function dispositionOf(reputation: number, threatLevel: string): Disposition {
  if (threatLevel === 'high' || threatLevel === 'critical' || threatLevel === 'elevated') return 'wary';
  if (reputation >= RELATIONSHIP_THRESHOLDS.neutral) return 'friendly';
  if (reputation < RELATIONSHIP_THRESHOLDS.wary) return 'wary';
  return 'neutral';
}
