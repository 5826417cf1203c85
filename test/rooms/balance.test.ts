import { QUEST_LEVEL_SLACK, balanceReport, formatBalanceReport } from '../../rooms/content/balance';
import { loadWorld } from '../../rooms/content/loader';

describe('the world balance report (npm run world:report)', () => {
  it('holds its invariants on the shipped world', async () => {
    const report = balanceReport(await loadWorld());
    expect(report.problems).toEqual([]);
    // Every recipe input has at least one source.
    expect(report.ingredients.filter((i) => i.sources.length === 0)).toEqual([]);
    // Every quest is completable at the level it is offered (its hardest fight within the slack).
    for (const quest of report.quests) {
      expect(quest.hardestCreature).toBeLessThanOrEqual(quest.offeredAt + QUEST_LEVEL_SLACK);
    }
    expect(formatBalanceReport(report).split('\n').at(-1)).toBe('Invariants hold.');
  });

  it('reports a quest offered below the level of its fight', async () => {
    const world = await loadWorld();
    const quest = world.quests.get('village:rat_problem')!;
    const broken = {
      ...world,
      quests: new Map([
        ...world.quests,
        [
          quest.ref,
          { ...quest, objectives: [{ kind: 'kill' as const, creature: 'caves:cave_bear', count: 1 }] },
        ],
      ]),
    };
    expect(balanceReport(broken).problems).toEqual([
      'quest village:rat_problem: offered at level 1 but needs a level-6 fight',
    ]);
  });
});
