/**
 * The /brain/ask part of bench/brainEval.ts: answers the questions of answers.json offline (extractive
 * generator) and prints the share answered correctly with a correct citation, and the share of
 * unanswerable questions the service abstained on. "Correct" is printed two ways: strict (the answer holds
 * the expected fact and cites the labelled chunk of `source`) and supported (the answer holds the fact and
 * a cited chunk states it — other files often state the same fact as the spec, e.g. a README).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QuestionAnswerer } from '../../ai/answer/questionAnswerer';
import { ExtractiveGenerator } from '../../ai/llm/extractiveGenerator';
import { GenerationChain } from '../../ai/llm/generationChain';
import type { buildInMemoryBrain } from '../brainCorpus';

interface AnswerSet {
  answerable: Array<{ question: string; source: string; anchor: string; expect: string }>;
  unanswerable: string[];
}

/** Runs the answer evaluation over an ingested in-memory brain and prints its figures. */
export async function evaluateAnswers(
  brain: ReturnType<typeof buildInMemoryBrain>,
  verbose: boolean,
): Promise<void> {
  const set = JSON.parse(readFileSync(join(__dirname, 'answers.json'), 'utf8')) as AnswerSet;
  const idf = (term: string) => brain.fullText.idf(term);
  const generation = new GenerationChain({ providers: [], offline: new ExtractiveGenerator({ idf }) });
  const answerer = new QuestionAnswerer({ router: brain.router, generation, idf });
  let correct = 0;
  let supported = 0;
  let answered = 0;
  for (const q of set.answerable) {
    const result = await answerer.ask({ question: q.question });
    if (result.grounded) answered++;
    const cites = result.citations.some(
      (c) => c.source === q.source && (brain.fullText.get(c.chunkId)?.text ?? '').includes(q.anchor),
    );
    const holdsFact = result.grounded && result.answer.includes(q.expect);
    const citesFact = result.citations.some((c) =>
      (brain.fullText.get(c.chunkId)?.text ?? '').includes(q.expect),
    );
    const ok = holdsFact && cites;
    if (ok) correct++;
    if (holdsFact && citesFact) supported++;
    else if (verbose) console.log(`  ask miss: ${q.question}\n    → ${result.answer.slice(0, 200)}`);
  }
  let abstained = 0;
  for (const question of set.unanswerable) {
    const result = await answerer.ask({ question });
    if (!result.grounded) abstained++;
    else if (verbose)
      console.log(`  ask answered an unanswerable: ${question}\n    → ${result.answer.slice(0, 200)}`);
  }
  const n = set.answerable.length;
  console.log(
    `\n/brain/ask (offline, extractive): ${correct}/${n} answered correctly citing the labelled chunk ` +
      `(${(correct / n).toFixed(2)}), ${supported}/${n} with a citation stating the fact ` +
      `(${(supported / n).toFixed(2)}); ${answered}/${n} answered at all; ` +
      `abstained on ${abstained}/${set.unanswerable.length} unanswerable (${(abstained / set.unanswerable.length).toFixed(2)})`,
  );
}
