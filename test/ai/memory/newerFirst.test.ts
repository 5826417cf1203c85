import { newerFirst, type TimedHit } from '../../../ai/memory/newerFirst';

function buildHit(overrides: { content: string; day: number; score: number }): TimedHit {
  return {
    score: overrides.score,
    memory: { content: overrides.content, occurred_at: new Date(2026, 5, overrides.day) },
  };
}

/** Shared words over all words: enough to tell "about the same thing" in these examples. */
function overlap(a: string, b: string): number {
  const x = new Set(a.toLowerCase().split(/\W+/).filter(Boolean));
  const y = new Set(b.toLowerCase().split(/\W+/).filter(Boolean));
  return [...x].filter((w) => y.has(w)).length / new Set([...x, ...y]).size;
}

describe('newerFirst', () => {
  it('moves a newer memory about the same thing above the older one', () => {
    const hits = [
      buildHit({ content: 'I live in a flat in Leeds', day: 1, score: 0.9 }),
      buildHit({ content: 'The weather is awful', day: 3, score: 0.7 }),
      buildHit({ content: 'I live in a cottage in York now', day: 9, score: 0.6 }),
    ];
    newerFirst(hits, overlap);
    expect(hits.map((h) => h.memory.content)).toEqual([
      'I live in a cottage in York now',
      'I live in a flat in Leeds',
      'The weather is awful',
    ]);
  });

  it('leaves the order when the newer one is about something else, older, or scores too little', () => {
    const hits = [
      buildHit({ content: 'I live in a flat in Leeds', day: 5, score: 0.9 }),
      buildHit({ content: 'I live in a cottage in York now', day: 1, score: 0.8 }),
      buildHit({ content: 'I live in a tent in Hull now', day: 9, score: 0.3 }),
      buildHit({ content: 'The weather is awful', day: 9, score: 0.7 }),
    ];
    const before = hits.map((h) => h.memory.content);
    newerFirst(hits, overlap);
    expect(hits.map((h) => h.memory.content)).toEqual(before);
  });
});
