import { seededRandom } from '../../../platform/seededRandom';
import { advanceCursor } from '../../../services/social/sync/botCursor';
import { dispositionOf, relationshipOf } from '../../../services/social/trust/relationships';
import { assessThreat } from '../../../services/social/trust/threat';
import {
  applyInteraction,
  decayedBase,
  INTERACTION_KINDS,
  newEdgeState,
  TRUST,
  trustScore,
  withMark,
  type EdgeState,
} from '../../../services/social/trust/trustRules';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 26, 8);
const mark = { at: new Date(T0), reason: null };

/** An edge state at T0 with `overrides`. */
function buildEdge(overrides: Partial<EdgeState> = {}): EdgeState {
  return { ...newEdgeState(T0), ...overrides };
}

describe('trust rules', () => {
  it('starts at 50 and moves by the published delta of a kind', () => {
    const { state, change } = applyInteraction(buildEdge(), 'help', undefined, T0);
    expect(trustScore(buildEdge(), T0)).toBe(50);
    expect(change).toEqual({ raw: 4, applied: 4, before: 50, after: 54, capped: false });
    expect(state.interactions).toBe(1);
  });

  it('halves each repeat of the same kind on the same day, and counts afresh the next day', () => {
    let state = buildEdge();
    const applied: number[] = [];
    for (let i = 0; i < 3; i++) {
      const next = applyInteraction(state, 'gift', undefined, T0 + i);
      applied.push(next.change.applied);
      state = next.state;
    }
    expect(applied).toEqual([5, 2.5, 1.25]);
    expect(applyInteraction(state, 'gift', undefined, T0 + DAY).change.applied).toBe(5);
  });

  it('caps gains at 15 and losses at 30 points per edge and day', () => {
    let state = buildEdge();
    const kinds = ['help', 'gift', 'trade_completed', 'play_together', 'praise', 'help', 'gift'] as const;
    for (const kind of kinds) state = applyInteraction(state, kind, 1, T0).state;
    expect(trustScore(state, T0)).toBe(65);
    const capped = applyInteraction(state, 'help', undefined, T0).change;
    expect(capped).toMatchObject({ applied: 0, capped: true, after: 65 });
    let hostile = buildEdge();
    for (const kind of ['kill', 'scam', 'attack', 'grief'] as const)
      hostile = applyInteraction(hostile, kind, -1, T0).state;
    expect(trustScore(hostile, T0)).toBe(20);
    // A day later the 20 has decayed to 20.7, and the next day's cap starts afresh: 20.7 - 17 = 3.7.
    expect(trustScore(applyInteraction(hostile, 'kill', -1, T0 + DAY).state, T0 + DAY)).toBe(4);
  });

  it('adds 2 points per unit of sentiment', () => {
    expect(applyInteraction(buildEdge(), 'message', 1, T0).change.applied).toBe(2.5);
    expect(applyInteraction(buildEdge(), 'message', -1, T0).change.applied).toBe(-1.5);
  });

  it('decays the interaction-driven part halfway to 50 every 30 days, from either side', () => {
    expect(decayedBase(90, T0, T0 + 30 * DAY)).toBeCloseTo(70, 6);
    expect(decayedBase(10, T0, T0 + 60 * DAY)).toBeCloseTo(40, 6);
    expect(trustScore(buildEdge({ base: 90 }), T0 + 30 * DAY)).toBe(70);
    expect(decayedBase(90, T0, T0 - DAY)).toBe(90);
  });

  it('weighs marks more: fren +20 and foe -30 while they stand, each clearing the other, not decayed', () => {
    const fren = withMark(buildEdge(), 'fren', mark, T0);
    expect(trustScore(fren, T0)).toBe(70);
    expect(trustScore(fren, T0 + 365 * DAY)).toBe(70);
    const foe = withMark(fren, 'foe', mark, T0);
    expect(foe.marks.fren).toBeNull();
    expect(trustScore(foe, T0)).toBe(20);
    expect(trustScore(withMark(foe, 'foe', null, T0), T0)).toBe(50);
  });

  it('never raises trust in a blocked person', () => {
    const blocked = withMark(buildEdge(), 'block', mark, T0);
    expect(applyInteraction(blocked, 'gift', 1, T0).change.applied).toBe(0);
    expect(applyInteraction(blocked, 'insult', undefined, T0).change.applied).toBe(-6);
  });

  it('keeps trust within 0-100 under any sequence of interactions, marks and time', () => {
    const random = seededRandom(20);
    for (let run = 0; run < 200; run++) {
      let state = buildEdge();
      let now = T0;
      for (let step = 0; step < 60; step++) {
        now += Math.floor(random() * 3 * DAY);
        const roll = random();
        if (roll < 0.1)
          state = withMark(
            state,
            (['fren', 'foe', 'block'] as const)[Math.floor(random() * 3)],
            random() < 0.5 ? mark : null,
            now,
          );
        else {
          const kind = INTERACTION_KINDS[Math.floor(random() * INTERACTION_KINDS.length)];
          state = applyInteraction(state, kind, random() * 2 - 1, now).state;
        }
        const score = trustScore(state, now);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(TRUST.min);
        expect(score).toBeLessThanOrEqual(TRUST.max);
        expect(state.base).toBeGreaterThanOrEqual(0);
        expect(state.base).toBeLessThanOrEqual(100);
      }
    }
  });
});

describe('relationship table', () => {
  it.each([
    [0, {}, 'foe'],
    [19, {}, 'foe'],
    [20, {}, 'wary'],
    [39, {}, 'wary'],
    [40, {}, 'neutral'],
    [59, {}, 'neutral'],
    [60, {}, 'friendly'],
    [79, {}, 'friendly'],
    [80, {}, 'fren'],
    [45, { fren: mark }, 'fren'],
    [39, { fren: mark }, 'wary'],
    [90, { foe: mark }, 'foe'],
    [90, { block: mark, fren: mark }, 'blocked'],
  ] as const)('trust %d with marks %o is %s', (trust, marks, expected) => {
    expect(relationshipOf(trust, marks)).toBe(expected);
  });

  it('maps standing to an NPC disposition', () => {
    expect(dispositionOf(70, 'none')).toBe('friendly');
    expect(dispositionOf(50, 'low')).toBe('neutral');
    expect(dispositionOf(30, 'none')).toBe('wary');
    expect(dispositionOf(90, 'elevated')).toBe('wary');
  });
});

describe('threat assessment', () => {
  const quiet = { observers: 0, meanTrust: 50, foeMarkers: 0, reporters: 0, hostileLastDay: 0, blockers: 0 };

  it('is none for a quiet person and a single grudge', () => {
    expect(assessThreat(quiet)).toEqual({ score: 0, level: 'none', reasons: [] });
    expect(assessThreat({ ...quiet, foeMarkers: 1 }).level).toBe('none');
  });

  it('adds low trust, foe marks from several people, reports and hostile rate, largest reason first', () => {
    const threat = assessThreat({
      observers: 5,
      meanTrust: 20,
      foeMarkers: 3,
      reporters: 2,
      hostileLastDay: 4,
      blockers: 1,
    });
    expect(threat.reasons.map((reason) => [reason.code, reason.points])).toEqual([
      ['foe_marks', 30],
      ['reports', 20],
      ['low_trust', 10],
      ['hostile_rate', 8],
      ['blocks', 3],
    ]);
    expect(threat).toMatchObject({ score: 71, level: 'high' });
    expect(
      assessThreat({
        ...quiet,
        observers: 9,
        meanTrust: 0,
        foeMarkers: 9,
        reporters: 9,
        hostileLastDay: 50,
        blockers: 9,
      }),
    ).toMatchObject({ score: 100, level: 'critical' });
  });
});

describe('bot cursor', () => {
  it('reports a gap when a seq skips ahead, and fills missing ranges as late batches arrive', () => {
    let state = { highest: 0, missing: [] as [number, number][] };
    const step = (seq: number) => {
      const next = advanceCursor(state, seq);
      state = next.state;
      return next.gap;
    };
    expect(step(1)).toBeNull();
    expect(step(2)).toBeNull();
    expect(step(6)).toEqual([3, 5]);
    expect(step(4)).toBeNull();
    expect(state).toEqual({
      highest: 6,
      missing: [
        [3, 3],
        [5, 5],
      ],
    });
    expect(step(2)).toBeNull();
    expect(step(3)).toBeNull();
    expect(state.missing).toEqual([[5, 5]]);
  });
});
