import { tiktokenCounter, type TokenCounter } from '../chunking/tokenCounter';
import type { Hit } from '../retrieval/hit';
import type { Passage } from '../llm/textGenerator';

/** A numbered passage of the answer's context and the hit it came from. */
export interface ContextPassage extends Passage {
  hit: Hit;
}

/** Default context budget in tokens (cl100k_base), and the least a truncated passage is worth keeping. */
export const DEFAULT_MAX_CONTEXT_TOKENS = 2000;
const MIN_PASSAGE_TOKENS = 48;

/**
 * Builds an answer's context from ranked hits, separately from searching (GraphRAG style): passages in
 * rank order, numbered from 1, each the chunk's text, until `maxTokens` (counted with cl100k_base) is
 * spent. The passage that crosses the budget is cut to what is left (if at least 48 tokens are), and the
 * rest are dropped. The same chunk never appears twice.
 */
export function buildContext(
  hits: readonly Hit[],
  maxTokens: number = DEFAULT_MAX_CONTEXT_TOKENS,
  counter: TokenCounter = tiktokenCounter,
): ContextPassage[] {
  const passages: ContextPassage[] = [];
  const seen = new Set<string>();
  let left = maxTokens;
  for (const hit of hits) {
    if (seen.has(hit.chunkId) || left < MIN_PASSAGE_TOKENS) continue;
    seen.add(hit.chunkId);
    const tokens = counter.count(hit.text);
    const text = tokens <= left ? hit.text : counter.split(hit.text, left, 0)[0];
    left -= Math.min(tokens, left);
    passages.push({ n: passages.length + 1, title: hit.title, text, hit });
  }
  return passages;
}

/** The chat prompt an LLM answers from: the rules, then the numbered passages and the question. */
export function answerMessages(question: string, passages: readonly Passage[]) {
  const context = passages.map((p) => `[${p.n}] ${p.title}\n${p.text}`).join('\n\n');
  return [
    {
      role: 'system' as const,
      content:
        'Answer the question only from the numbered passages. After every sentence, cite the passages it ' +
        'rests on as [n]. Be brief. If the passages do not contain the answer, reply exactly: ' +
        'The indexed documents do not say.',
    },
    { role: 'user' as const, content: `Passages:\n${context}\n\nQuestion: ${question}` },
  ];
}
