import type { DecisionCategory } from '../../models/Decision';
import { sentencesOf } from './factPatterns';

/** A decision found in a text: a title, its category and the rationale given with it. */
export interface ExtractedDecision {
  title: string;
  category: DecisionCategory;
  rationale: string;
  /** The sentence it came from (its position makes the extracted decision's id stable). */
  sentence: string;
}

const DECISION_CUES = [
  /\bwe(?:'ve| have)? (?:decided|agreed|chose|chosen) (?:to |that |on )?(?<what>.+)/i,
  /\blet'?s go with (?<what>.+)/i,
  /\bwe(?:'ll| will) (?:go with|use|switch to|adopt) (?<what>.+)/i,
  /\bdecision:\s*(?<what>.+)/i,
  /\bthe decision (?:is|was) (?:to |that )?(?<what>.+)/i,
];

const CATEGORY_WORDS: [DecisionCategory, RegExp][] = [
  ['bugfix', /\b(?:bug|fix|crash|regression|broken|error)\b/i],
  ['config', /\b(?:config|configuration|setting|env|variable|timeout|limit|flag)\b/i],
  ['policy', /\b(?:policy|rule|must|never|always|allowed|forbid|privacy|license)\b/i],
  ['architecture', /\b(?:architecture|database|service|queue|layer|mongo|redis|qdrant|protocol|schema)\b/i],
  ['feature', /\b(?:features?|users? can|add|support|launch|quests?|shops?)\b/i],
];

function categorise(text: string): DecisionCategory {
  return CATEGORY_WORDS.find(([, words]) => words.test(text))?.[0] ?? 'implementation';
}

/**
 * Offline decision extraction (consolidation's default; an LLM chain can replace it): sentences with a decision cue
 * ("we decided…", "let's go with…", "we will use…", "decision: …"). The clause after the cue is the title; a
 * "because/since/so that" clause, or else the next sentence, is the rationale; keywords choose the category.
 */
export function extractDecisions(text: string): ExtractedDecision[] {
  const sentences = sentencesOf(text);
  const found: ExtractedDecision[] = [];
  sentences.forEach((sentence, index) => {
    for (const cue of DECISION_CUES) {
      const what = cue.exec(sentence)?.groups?.what;
      if (!what) continue;
      const [head, reason] = what.split(/\s+(?:because|since|as|so that)\s+/i, 2);
      const title = head.replace(/[.!?]+$/, '').trim();
      if (title.length < 3) break;
      const rationale = (reason ?? sentences[index + 1] ?? sentence).replace(/[.!?]+$/, '').trim();
      found.push({ title: title.slice(0, 200), category: categorise(sentence), rationale, sentence });
      break;
    }
  });
  return found;
}
