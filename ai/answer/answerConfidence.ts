import type { ContextPassage } from './contextBuilder';
import { unmentionedNames } from './questionNames';

/**
 * What the evidence for an answer looks like:
 * - `sentence`: the best sentence's idf-weighted coverage of the question (ExtractiveGenerator relevance, 0-1);
 * - `top`: the router's score of the first passage (the offline reranker's, about 0-1.5);
 * - `names`: how many names the question uses (acronyms, capitalised words) no passage mentions;
 * - `similarity`: the sentence encoder's cosine between the question and the closest of the answer's sentences
 *   (absent without an encoder);
 * - `unseen`: how many of the question's index terms no chunk of the corpus holds ("telemetry" asked of documents
 *   that never say it; 0 when the answerer cannot count them).
 */
export interface EvidenceFeatures {
  sentence: number;
  top: number;
  names: number;
  /** How far the router's strategies agreed on the documents (`RoutedHits.agreement`, 0-1; 1 when unmeasured). */
  agreement: number;
  /** Cosine (sentence encoder) of the question and the closest sentence the answer would state; absent without one. */
  similarity?: number;
  /** The question's index terms the corpus never uses (`documentFrequency` 0). */
  unseen: number;
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
  /** Weight of the encoder's question-to-answer similarity (0 or absent: not used). */
  similarity?: number;
  /** Weight of the count of the question's terms the corpus never uses (negative; 0 or absent: not used). */
  unseen?: number;
  /** Answer at or above this confidence; abstain below. */
  threshold: number;
}

/**
 * Fitted on the tuning half of bench/brainEvalCorpora (fastify, flame, nushell; 87 answerable, 16 unanswerable
 * questions) with the anchored router (hybrid fused into every auto route but SIMPLE): the most answerable questions
 * answered with a correct citation while abstaining on at least 90% of the unanswerable ones
 * (bench/brainEval/fitConfidence.ts over a routerLab.ts --trace-ask trace; ai/README.md, "/brain/ask"). Every tie
 * weighs the two features equally; the cut-off is midway between the two traced scores around it. Answering means
 * best-sentence coverage + first passage score ≥ 1.2125. The strategies' agreement measured no gain (weight 0), and
 * neither did the unseen terms on the held-out half: a refit with them at stop 46 answered more and abstained less
 * (ai/README.md, "/brain/ask at stop 46"), so their weight is 0. The default (`BRAIN_ASK_SIMILARITY=lexical`).
 */
export const CALIBRATED_CONFIDENCE: ConfidenceModel = {
  bias: -2.425,
  sentence: 2,
  top: 2,
  agreement: 0,
  unseen: 0,
  threshold: 0.5,
};

/**
 * With the sentence encoder's similarity (`BRAIN_ASK_SIMILARITY=neural`): fitted the same way on the tuning half of
 * all four corpora (174 answerable, 23 unanswerable; 104 answered correctly and 21 abstained on, against 87 and 22
 * for `CALIBRATED_CONFIDENCE` on the same trace). On the held-out half it answers more (0.655 correct with citation
 * against 0.576) and abstains less (0.750 against 0.875), so it is the operator's choice, not the default
 * (ai/README.md, "/brain/ask at stop 45").
 */
export const NEURAL_CONFIDENCE: ConfidenceModel = {
  bias: -6.119,
  sentence: 4,
  top: 4,
  agreement: 0,
  similarity: 3,
  threshold: 0.5,
};

/** Measures the evidence `passages` (in rank order) hold for `question`. */
export function evidenceFeatures(
  question: string,
  passages: readonly ContextPassage[],
  bestSentence: number,
  agreement = 1,
  similarity?: number,
  unseen = 0,
): EvidenceFeatures {
  return {
    sentence: bestSentence,
    top: passages[0]?.hit.score ?? 0,
    names: unmentionedNames(question, passages).length,
    agreement,
    ...(similarity === undefined ? {} : { similarity }),
    unseen,
  };
}

/** The model's confidence that the passages answer the question, in (0, 1). */
export function answerConfidence(features: EvidenceFeatures, model: ConfidenceModel): number {
  const z =
    model.bias +
    model.sentence * features.sentence +
    model.top * features.top +
    (model.agreement ?? 0) * features.agreement +
    (model.similarity ?? 0) * (features.similarity ?? 0) +
    (model.unseen ?? 0) * features.unseen;
  return 1 / (1 + Math.exp(-z));
}

/** Whether to answer: no unmentioned name and a confidence at or above the model's threshold. */
export function shouldAnswer(features: EvidenceFeatures, model: ConfidenceModel): boolean {
  return features.names === 0 && answerConfidence(features, model) >= model.threshold;
}
