import type { Logger } from 'pino';
import type { SentenceSimilarity } from '../../ai/answer/questionAnswerer';

/**
 * The answerer's similarity port with its failures logged: the answerer then decides with the lexical model, so an
 * encoder thread that fails costs the answer's calibration, never the answer.
 */
export function loggedSimilarity(similarity: SentenceSimilarity, logger: Logger): SentenceSimilarity {
  return async (question, sentences) => {
    try {
      return await similarity(question, sentences);
    } catch (error) {
      logger.warn({ err: error }, 'ask: the sentence encoder failed; the lexical confidence model decides');
      throw error;
    }
  };
}
