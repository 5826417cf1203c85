import type { Temperament } from '../../content/schemas';
import type { Emotion } from '../../state/AreaState';

/** Things that happen to a creature and may change how it feels. */
export type EmotionEvent = 'PLAYER_ENTERS' | 'ATTACKED' | 'HEALTH_LOW' | 'ALLY_DIED' | 'TIME_PASSES';

/** What a creature does about how it feels. */
export type Behaviour = 'ignore' | 'approach' | 'flee' | 'attack';

type Table = Record<Emotion, Record<EmotionEvent, Emotion>>;

/**
 * The transition table every creature starts from: state × event → next state. Read a row as "when CALM
 * and a player enters, become CURIOUS".
 */
export const BASE_TRANSITIONS: Table = {
  CALM: {
    PLAYER_ENTERS: 'CURIOUS',
    ATTACKED: 'DEFENSIVE',
    HEALTH_LOW: 'SCARED',
    ALLY_DIED: 'ALERT',
    TIME_PASSES: 'CALM',
  },
  CURIOUS: {
    PLAYER_ENTERS: 'CURIOUS',
    ATTACKED: 'DEFENSIVE',
    HEALTH_LOW: 'SCARED',
    ALLY_DIED: 'SCARED',
    TIME_PASSES: 'CALM',
  },
  SCARED: {
    PLAYER_ENTERS: 'SCARED',
    ATTACKED: 'PANICKED',
    HEALTH_LOW: 'PANICKED',
    ALLY_DIED: 'PANICKED',
    TIME_PASSES: 'CALM',
  },
  ALERT: {
    PLAYER_ENTERS: 'ALERT',
    ATTACKED: 'DEFENSIVE',
    HEALTH_LOW: 'SCARED',
    ALLY_DIED: 'DEFENSIVE',
    TIME_PASSES: 'CALM',
  },
  FRIENDLY: {
    PLAYER_ENTERS: 'FRIENDLY',
    ATTACKED: 'DEFENSIVE',
    HEALTH_LOW: 'SCARED',
    ALLY_DIED: 'SCARED',
    TIME_PASSES: 'FRIENDLY',
  },
  DEFENSIVE: {
    PLAYER_ENTERS: 'DEFENSIVE',
    ATTACKED: 'DEFENSIVE',
    HEALTH_LOW: 'PANICKED',
    ALLY_DIED: 'DEFENSIVE',
    TIME_PASSES: 'ALERT',
  },
  PANICKED: {
    PLAYER_ENTERS: 'PANICKED',
    ATTACKED: 'PANICKED',
    HEALTH_LOW: 'PANICKED',
    ALLY_DIED: 'PANICKED',
    TIME_PASSES: 'SCARED',
  },
};

/** Cells each temperament changes in the base table (`neutral` uses it as is). */
export const TEMPERAMENT_OVERRIDES: Record<
  Temperament,
  Partial<Record<Emotion, Partial<Record<EmotionEvent, Emotion>>>>
> = {
  neutral: {},
  aggressive: {
    CALM: { PLAYER_ENTERS: 'ALERT', ALLY_DIED: 'DEFENSIVE' },
    CURIOUS: { PLAYER_ENTERS: 'ALERT' },
    ALERT: { HEALTH_LOW: 'ALERT' },
    DEFENSIVE: { HEALTH_LOW: 'DEFENSIVE' },
  },
  timid: {
    CALM: { PLAYER_ENTERS: 'SCARED', ATTACKED: 'PANICKED' },
    CURIOUS: { PLAYER_ENTERS: 'SCARED', ATTACKED: 'PANICKED' },
    DEFENSIVE: { HEALTH_LOW: 'PANICKED', TIME_PASSES: 'SCARED' },
  },
  docile: {
    CALM: { PLAYER_ENTERS: 'FRIENDLY' },
    CURIOUS: { PLAYER_ENTERS: 'FRIENDLY' },
    DEFENSIVE: { TIME_PASSES: 'CALM' },
  },
};

/** What each state makes a creature do. */
export const BEHAVIOUR: Record<Emotion, Behaviour> = {
  CALM: 'ignore',
  CURIOUS: 'approach',
  SCARED: 'flee',
  ALERT: 'attack',
  FRIENDLY: 'approach',
  DEFENSIVE: 'attack',
  PANICKED: 'flee',
};

/** Health at or below this fraction of max raises HEALTH_LOW. */
export const LOW_HEALTH_FRACTION = 0.3;

/** The next emotion for a creature of `temperament` in `state` when `event` happens. */
export function nextEmotion(temperament: Temperament, state: Emotion, event: EmotionEvent): Emotion {
  return TEMPERAMENT_OVERRIDES[temperament][state]?.[event] ?? BASE_TRANSITIONS[state][event];
}

/** The behaviour that follows an emotion. */
export function behaviourOf(state: Emotion): Behaviour {
  return BEHAVIOUR[state];
}

/** True when `health` of `maxHealth` counts as low. */
export function isHealthLow(health: number, maxHealth: number): boolean {
  return health <= Math.floor(maxHealth * LOW_HEALTH_FRACTION);
}
