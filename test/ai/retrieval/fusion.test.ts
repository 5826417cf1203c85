import { reciprocalRankFusion } from '../../../ai/retrieval/fusion';
import { buildHit } from '../factories';

describe('reciprocalRankFusion', () => {
  it('scores each chunk by the sum of 1 / (60 + rank) and unions foundBy', () => {
    const fulltext = [buildHit({ chunkId: 'a' }), buildHit({ chunkId: 'b' })];
    const semantic = [
      buildHit({ chunkId: 'b', strategy: 'semantic', foundBy: ['semantic'] }),
      buildHit({ chunkId: 'c', strategy: 'semantic', foundBy: ['semantic'] }),
    ];

    const fused = reciprocalRankFusion([fulltext, semantic]);

    expect(fused.map((h) => [h.chunkId, h.score, h.strategy, h.foundBy])).toEqual([
      ['b', 1 / 62 + 1 / 61, 'hybrid', ['fulltext', 'semantic']],
      ['a', 1 / 61, 'hybrid', ['fulltext']],
      ['c', 1 / 62, 'hybrid', ['semantic']],
    ]);
  });

  it('applies k and limit and leaves the input hits untouched', () => {
    const list = [buildHit({ chunkId: 'a' }), buildHit({ chunkId: 'b' })];

    const fused = reciprocalRankFusion([list], 1, 1);

    expect(fused.map((h) => [h.chunkId, h.score])).toEqual([['a', 0.5]]);
    expect(list[0].score).toBe(1);
  });

  it('weights each list (weighted RRF): a half-weight list cannot outvote a full one at equal ranks', () => {
    const fulltext = [buildHit({ chunkId: 'a', foundBy: ['fulltext'] })];
    const graph = [buildHit({ chunkId: 'g', foundBy: ['graph'] })];

    const fused = reciprocalRankFusion([graph, fulltext], 10, 10, 'hybrid', [0.5, 1]);

    expect(fused.map((h) => [h.chunkId, h.score])).toEqual([
      ['a', 1 / 11],
      ['g', 0.5 / 11],
    ]);
  });
});
