import { seededRandom } from '../../platform/seededRandom';

describe('seededRandom (mulberry32)', () => {
  it("replays mulberry32's reference sequence, so seeded fixtures and simulations stay the same", () => {
    const next = seededRandom(42);
    expect([next(), next(), next()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });

  it('treats a seed as its 32 bits: -1 and 0xffffffff give one sequence', () => {
    const negative = seededRandom(-1);
    const unsigned = seededRandom(0xffffffff);
    expect(negative()).toBe(0.8964226141106337);
    expect(unsigned()).toBe(0.8964226141106337);
  });

  it('stays in [0, 1) and differs between seeds', () => {
    const a = seededRandom(1);
    const b = seededRandom(2);
    const drawsA = Array.from({ length: 1000 }, () => a());
    expect(drawsA.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(drawsA.slice(0, 5)).not.toEqual(Array.from({ length: 5 }, () => b()));
  });
});
