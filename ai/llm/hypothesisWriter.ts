import type { HypothesisWriter } from '../hyde/hydeStrategy';
import type { GenerationChain } from './generationChain';

/**
 * HYDE's hypothesis writer over the generation chain: with an LLM configured, it writes a short passage
 * that would answer the question; without one, or when every LLM failed (the extractive generator
 * answered), it returns undefined and HYDE builds its document offline (RM3 + WordNet).
 */
export function llmHypothesisWriter(chain: GenerationChain): HypothesisWriter | undefined {
  if (!chain.hasLlm) return undefined;
  return async (question) => {
    const generation = await chain.generate({
      task: 'hypothesis',
      question,
      maxTokens: 200,
      messages: [
        {
          role: 'system',
          content:
            'Write one short passage, in the style of technical documentation, that answers the question. ' +
            'It is used only as a search query, so plausible wording matters more than facts.',
        },
        { role: 'user', content: question },
      ],
    });
    return generation.offline || generation.text.trim() === '' ? undefined : generation.text;
  };
}
