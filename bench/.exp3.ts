import { buildInMemoryBrain, ingestRepository } from './brainCorpus';
import { questions, scoreByClass } from './brainEval/evalSet';
import { AdaptiveRouter } from '../ai/router/adaptiveRouter';
(async () => {
  const brain = buildInMemoryBrain();
  await ingestRepository(brain);
  const combos: any[] = [['hyde'], ['semantic','hyde'], ['graph','fulltext'], ['graph','hyde'], ['fulltext','hyde','graph'], ['fulltext','semantic','hyde','graph']];
  for (const c of combos) {
    const plans: any = { SIMPLE: { strategies: c, rerank: true }, FACTUAL: { strategies: c, rerank: true }, EXPLORATORY: { strategies: c, rerank: true }, COMPLEX: { strategies: c, rerank: true } };
    const router = new AdaptiveRouter(brain.strategies, brain.reranker, { plans, minDepth: 100 });
    const s = await scoreByClass(async (q) => (await router.search(q.question)).hits);
    console.log(c.join('+').padEnd(28), ['ALL','SIMPLE','FACTUAL','EXPLORATORY','COMPLEX'].map((k) => `${k} ${(s as any)[k].recallAt5.toFixed(2)}/${(s as any)[k].mrr.toFixed(2)}`).join('  '));
  }
})();
