import type { ContextPassage } from './contextBuilder';
import { unmentionedNames } from './questionNames';

/**
 * What the evidence for an answer looks like:
 * - `sentence`: the best sentence's idf-weighted coverage of the question (ExtractiveGenerator relevance, 0-1);
 * - `top`: the router's score of the first passage (the offline reranker's, about 0-1.5);
 * - `names`: how many names the question uses (acronyms, capitalised words) no passage mentions.
 */
export interface EvidenceFeatures {
  sentence: number;
  top: number;
  names: number;
  /** How far the router's strategies agreed on the documents (`RoutedHits.agreement`, 0-1; 1 when unmeasured). */
  agreement: number;
}

/**
 * The logistic model over the features: confidence = σ(bias + sentence × w + top × w). A question naming something
 * no passage mentions (`names` > 0) is abstained on whatever the confidence.
 */
export interface ConfidenceModel {
  bias: number;
  sentence: number;
  top: number;
  /** Weight of the strategies' agreement (0: not used). */
  agreement?: number;
  /** Answer at or above this confidence; abstain below. */
  threshold: number;
}

/**
 * Fitted on the tuning half of bench/brainEvalCorpora (fastify, flame, nushell; 87 answerable, 16 unanswerable
 * questions) with the anchored router (hybrid fused into every auto route but SIMPLE): the most answerable questions
 * answered with a correct citation while abstaining on at least 90% of the unanswerable ones
 * (bench/brainEval/fitConfidence.ts over a routerLab.ts --trace-ask trace; ai/README.md, "/brain/ask"). Every tie
 * weighs the two features equally; the cut-off is midway between the two traced scores around it. Answering means
 * best-sentence coverage + first passage score ≥ 1.2125. The strategies' agreement measured no gain (weight 0).
 */
export const CALIBRATED_CONFIDENCE: ConfidenceModel = {
  bias: -2.425,
  sentence: 2,
  top: 2,
  agreement: 0,
  threshold: 0.5,
};

/** Measures the evidence `passages` (in rank order) hold for `question`. */
export function evidenceFeatures(
  question: string,
  passages: readonly ContextPassage[],
  bestSentence: number,
  agreement = 1,
): EvidenceFeatures {
  return {
    sentence: bestSentence,
    top: passages[0]?.hit.score ?? 0,
    names: unmentionedNames(question, passages).length,
    agreement,
  };
}

/** The model's confidence that the passages answer the question, in (0, 1). */
export function answerConfidence(features: EvidenceFeatures, model: ConfidenceModel): number {
  const z =
    model.bias +
    model.sentence * features.sentence +
    model.top * features.top +
    (model.agreement ?? 0) * features.agreement;
  return 1 / (1 + Math.exp(-z));
}

/** Whether to answer: no unmentioned name and a confidence at or above the model's threshold. */
export function shouldAnswer(features: EvidenceFeatures, model: ConfidenceModel): boolean {
  return features.names === 0 && answerConfidence(features, model) >= model.threshold;
}
