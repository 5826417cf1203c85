import {
  answerConfidence,
  CALIBRATED_CONFIDENCE,
  evidenceFeatures,
  NEURAL_CONFIDENCE,
  shouldAnswer,
  type EvidenceFeatures,
} from '../../../ai/answer/answerConfidence';
import type { ContextPassage } from '../../../ai/answer/contextBuilder';
import type { Hit } from '../../../ai/retrieval/hit';

const buildPassage = (overrides: Partial<Hit> = {}, text = 'Creators keep 95% of a sale.'): ContextPassage =>
  ({
    n: 1,
    title: 'Economy',
    text,
    hit: { title: 'Economy', source: 'docs/economy.md', score: 1, ...overrides } as Hit,
  }) as ContextPassage;
const buildFeatures = (overrides: Partial<EvidenceFeatures> = {}): EvidenceFeatures => ({
  sentence: 0.5,
  top: 0.7,
  names: 0,
  agreement: 1,
  unseen: 0,
  ...overrides,
});

describe('answer confidence (abstention calibrated on the multi-corpus tuning half)', () => {
  it('answers exactly when sentence coverage + the first passage score reaches 1.2125', () => {
    expect(shouldAnswer(buildFeatures({ sentence: 0.5, top: 0.72 }), CALIBRATED_CONFIDENCE)).toBe(true);
    expect(shouldAnswer(buildFeatures({ sentence: 0.5, top: 0.7 }), CALIBRATED_CONFIDENCE)).toBe(false);
    expect(shouldAnswer(buildFeatures({ sentence: 0.2, top: 1.1 }), CALIBRATED_CONFIDENCE)).toBe(true);
    expect(shouldAnswer(buildFeatures({ sentence: 0.2, top: 1.1, unseen: 3 }), CALIBRATED_CONFIDENCE)).toBe(
      true,
    );
    expect(
      answerConfidence(buildFeatures({ sentence: 0.5, top: 0.7125 }), CALIBRATED_CONFIDENCE),
    ).toBeCloseTo(0.5);
  });

  it('with the encoder, answers exactly when 4 × coverage + 4 × first score + 3 × similarity reaches 6.119', () => {
    expect(shouldAnswer(buildFeatures({ similarity: 0.6 }), NEURAL_CONFIDENCE)).toBe(true);
    expect(shouldAnswer(buildFeatures({ similarity: 0.4 }), NEURAL_CONFIDENCE)).toBe(false);
    expect(shouldAnswer(buildFeatures({ sentence: 0.3, top: 1, similarity: 0.4 }), NEURAL_CONFIDENCE)).toBe(
      true,
    );
    expect(answerConfidence(buildFeatures({ similarity: 0.4397 }), NEURAL_CONFIDENCE)).toBeCloseTo(0.5);
  });

  it('ignores the agreement in the calibrated model, and weighs it when a model does', () => {
    const low = buildFeatures({ agreement: 0 });
    const high = buildFeatures({ agreement: 1 });
    expect(answerConfidence(low, CALIBRATED_CONFIDENCE)).toBe(answerConfidence(high, CALIBRATED_CONFIDENCE));
    const model = { ...CALIBRATED_CONFIDENCE, agreement: 1 };
    expect(answerConfidence(high, model)).toBeGreaterThan(answerConfidence(low, model));
  });

  it('grows with every feature', () => {
    const base = answerConfidence(buildFeatures(), CALIBRATED_CONFIDENCE);
    expect(answerConfidence(buildFeatures({ similarity: 0.2 }), NEURAL_CONFIDENCE)).toBeGreaterThan(
      answerConfidence(buildFeatures(), NEURAL_CONFIDENCE),
    );
    expect(answerConfidence(buildFeatures({ sentence: 0.6 }), CALIBRATED_CONFIDENCE)).toBeGreaterThan(base);
    expect(answerConfidence(buildFeatures({ top: 0.8 }), CALIBRATED_CONFIDENCE)).toBeGreaterThan(base);
  });

  it('abstains on a question naming something no passage mentions, however confident', () => {
    expect(shouldAnswer(buildFeatures({ sentence: 1, top: 2, names: 1 }), CALIBRATED_CONFIDENCE)).toBe(false);
  });

  it('reads the first passage score and the unmentioned names from the passages', () => {
    const passages = [buildPassage({ score: 0.9 }), buildPassage({ score: 0.4 })];
    expect(evidenceFeatures('What share do creators keep?', passages, 0.6)).toEqual({
      sentence: 0.6,
      top: 0.9,
      names: 0,
      agreement: 1,
      unseen: 0,
    });
    expect(evidenceFeatures('What share does Zorbon keep?', passages, 0.6).names).toBe(1);
    expect(evidenceFeatures('Anything?', [], 0)).toEqual({
      sentence: 0,
      top: 0,
      names: 0,
      agreement: 1,
      unseen: 0,
    });
    expect(evidenceFeatures('Anything?', [], 0, 0.3).agreement).toBe(0.3);
    expect(evidenceFeatures('Anything?', [], 0, 1, undefined, 2).unseen).toBe(2);
  });

  it('lowers the confidence by its weight for each question term the corpus never uses', () => {
    const model = { bias: 0, sentence: 0, top: 0, unseen: -1, threshold: 0.5 };
    expect(answerConfidence(buildFeatures({ unseen: 0 }), model)).toBeCloseTo(0.5);
    expect(answerConfidence(buildFeatures({ unseen: 2 }), model)).toBeCloseTo(1 / (1 + Math.exp(2)));
    expect(shouldAnswer(buildFeatures({ unseen: 1 }), model)).toBe(false);
  });
});
