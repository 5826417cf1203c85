/**
 * The trust rules of the social graph, as pure functions over one directed edge's state (how much an observer
 * trusts a subject). Every number the README's tables publish is defined here once; tests pin them.
 */

/** What one person did to (or near) another. */
export const INTERACTION_KINDS = [
  'help',
  'gift',
  'trade_completed',
  'play_together',
  'praise',
  'message',
  'spam',
  'insult',
  'scam',
  'grief',
  'attack',
  'kill',
  'report',
] as const;
export type InteractionKind = (typeof INTERACTION_KINDS)[number];

/**
 * How one kind moves trust. `delta`: points of the observer's trust in the subject before repeats and caps.
 * `observer`: whose trust moves — the target's trust in the actor (`target`), or the actor's in the target
 * (`actor`, for a report: the reporter trusts the reported less). `hostile`: counts toward the actor's threat.
 */
export interface KindRule {
  delta: number;
  observer: 'target' | 'actor';
  hostile: boolean;
}

/** The published deltas per kind (README, "Trust rules"). */
export const KIND_RULES: Record<InteractionKind, KindRule> = {
  help: { delta: 4, observer: 'target', hostile: false },
  gift: { delta: 5, observer: 'target', hostile: false },
  trade_completed: { delta: 3, observer: 'target', hostile: false },
  play_together: { delta: 2, observer: 'target', hostile: false },
  praise: { delta: 2, observer: 'target', hostile: false },
  message: { delta: 0.5, observer: 'target', hostile: false },
  spam: { delta: -3, observer: 'target', hostile: true },
  insult: { delta: -6, observer: 'target', hostile: true },
  scam: { delta: -15, observer: 'target', hostile: true },
  grief: { delta: -12, observer: 'target', hostile: true },
  attack: { delta: -10, observer: 'target', hostile: true },
  kill: { delta: -15, observer: 'target', hostile: true },
  report: { delta: -8, observer: 'actor', hostile: false },
};

/** The constants of the rules. */
export const TRUST = {
  /** Where every edge starts and where decay leads. */
  start: 50,
  min: 0,
  max: 100,
  /** A sentiment in [-1, 1] adds `sentimentWeight × sentiment` points to the kind's delta. */
  sentimentWeight: 2,
  /** The n-th repeat of one kind between the same two people on one day counts `repeatFactor^n` of its delta. */
  repeatFactor: 0.5,
  /** Most interactions may raise one edge's trust per UTC day (points). */
  dailyGainCap: 15,
  /** Most interactions may lower one edge's trust per UTC day (points). */
  dailyLossCap: 30,
  /** The interaction-driven part of trust halves its distance to `start` every `halfLifeDays`. */
  halfLifeDays: 30,
  /** Offsets of the explicit marks while they stand (not capped, not decayed). */
  frenOffset: 20,
  foeOffset: -30,
} as const;

const DAY_MS = 86_400_000;

/** A mark on an edge: when, and the optional reason. */
export interface Mark {
  at: Date;
  reason: string | null;
}

/** The state of one directed edge that the rules read and write. */
export interface EdgeState {
  /** The interaction-driven score (0-100, fractional), decayed up to `decayedAt`. */
  base: number;
  decayedAt: number;
  /** UTC day number (ms / 86 400 000) the counters below belong to. */
  day: number;
  dayGain: number;
  dayLoss: number;
  /** Interactions per kind on `day`. */
  repeats: Partial<Record<InteractionKind, number>>;
  marks: { fren?: Mark | null; foe?: Mark | null; block?: Mark | null };
  interactions: number;
}

/** A fresh edge at `now`. */
export function newEdgeState(now: number): EdgeState {
  return {
    base: TRUST.start,
    decayedAt: now,
    day: Math.floor(now / DAY_MS),
    dayGain: 0,
    dayLoss: 0,
    repeats: {},
    marks: {},
    interactions: 0,
  };
}

const clamp = (value: number) => Math.min(TRUST.max, Math.max(TRUST.min, value));

/** `base` decayed from `from` to `to` (ms) toward TRUST.start with the half-life. Never moves it past 50. */
export function decayedBase(base: number, from: number, to: number): number {
  if (to <= from) return base;
  const days = (to - from) / DAY_MS;
  return TRUST.start + (base - TRUST.start) * 0.5 ** (days / TRUST.halfLifeDays);
}

/** The edge's trust score at `now`: decayed base plus mark offsets, rounded and kept in 0-100. */
export function trustScore(state: EdgeState, now: number): number {
  const base = decayedBase(state.base, state.decayedAt, now);
  const offset = (state.marks.fren ? TRUST.frenOffset : 0) + (state.marks.foe ? TRUST.foeOffset : 0);
  return Math.round(clamp(base + offset));
}

/** The change one interaction made: the raw delta, what was applied after repeats and caps, and the new score. */
export interface TrustChange {
  raw: number;
  applied: number;
  before: number;
  after: number;
  capped: boolean;
}

/**
 * Applies one interaction of `kind` (with optional sentiment) to the edge at `now`: decays first, then scales the
 * delta by the day's repeats of that kind, cuts it to what the day's cap leaves, and keeps the base in 0-100.
 * Returns the new state (the input is not modified) and the change. A blocked subject can only lose trust.
 */
export function applyInteraction(
  state: EdgeState,
  kind: InteractionKind,
  sentiment: number | undefined,
  now: number,
): { state: EdgeState; change: TrustChange } {
  const before = trustScore(state, now);
  const day = Math.floor(now / DAY_MS);
  const sameDay = day === state.day;
  const repeats = sameDay ? { ...state.repeats } : {};
  let dayGain = sameDay ? state.dayGain : 0;
  let dayLoss = sameDay ? state.dayLoss : 0;
  const seen = repeats[kind] ?? 0;
  const sentimentPoints = TRUST.sentimentWeight * Math.max(-1, Math.min(1, sentiment ?? 0));
  const raw = (KIND_RULES[kind].delta + sentimentPoints) * TRUST.repeatFactor ** seen;
  let allowed = raw;
  if (raw > 0) {
    allowed = state.marks.block ? 0 : Math.min(raw, TRUST.dailyGainCap - dayGain);
    dayGain += allowed;
  } else if (raw < 0) {
    allowed = Math.max(raw, -(TRUST.dailyLossCap - dayLoss));
    dayLoss -= allowed;
  }
  const base = clamp(decayedBase(state.base, state.decayedAt, now) + allowed);
  repeats[kind] = seen + 1;
  const next: EdgeState = {
    ...state,
    base: Math.round(base * 1e6) / 1e6,
    decayedAt: Math.max(now, state.decayedAt),
    day,
    dayGain,
    dayLoss,
    repeats,
    interactions: state.interactions + 1,
  };
  const after = trustScore(next, now);
  return {
    state: next,
    change: { raw, applied: allowed, before, after, capped: Math.abs(allowed) < Math.abs(raw) },
  };
}

/** The explicit marks a person can set on another. */
export type MarkKind = 'fren' | 'foe' | 'block';

/**
 * Sets or clears one mark. fren and foe exclude each other: setting one clears the other. The base is decayed
 * to `now` so the offset applies on top of today's value.
 */
export function withMark(state: EdgeState, mark: MarkKind, value: Mark | null, now: number): EdgeState {
  const marks = { ...state.marks, [mark]: value };
  if (value && mark === 'fren') marks.foe = null;
  if (value && mark === 'foe') marks.fren = null;
  return {
    ...state,
    base: decayedBase(state.base, state.decayedAt, now),
    decayedAt: Math.max(now, state.decayedAt),
    marks,
  };
}
