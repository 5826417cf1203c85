import { balanceReport } from '../../rooms/content/balance';
import type { QuestDef, World } from '../../rooms/content/world';
import { type GameServer, startGameServer } from '../helpers/gameServer';
import { QuestSolver } from './fixtures/questSolver';

/** Quests in the order a careful player would take them: open ones first, easiest fight first. */
function questOrder(world: World): QuestDef[] {
  const fight = new Map(balanceReport(world).quests.map((q) => [q.ref, q.hardestCreature]));
  const quests = [...world.quests.values()];
  const done = new Set<string>();
  const order: QuestDef[] = [];
  while (order.length < quests.length) {
    const open = quests
      .filter((q) => !done.has(q.ref) && q.requires.every((r) => done.has(r)))
      .sort((a, b) => fight.get(a.ref)! - fight.get(b.ref)!);
    if (open.length === 0) throw new Error('quest prerequisites loop');
    done.add(open[0].ref);
    order.push(open[0]);
  }
  return order;
}

describe('scripted play-through', () => {
  let game: GameServer;
  afterAll(async () => {
    await game?.shutdown();
  });

  it('completes every quest of the world from a fresh character through the action gateway', async () => {
    game = await startGameServer();
    const hero = new QuestSolver(game, game.world);
    await hero.act({ action: 'look' });
    const completed: string[] = [];
    for (const quest of questOrder(game.world)) {
      const giver = game.world.npcs.get(quest.giver)!;
      await hero.refreshInventory();
      await hero.recover();
      await hero.walkTo(giver.room);
      expect(await hero.act({ action: 'quest', op: 'accept', quest: quest.ref })).toBeUndefined();
      for (const objective of quest.objectives) {
        if (objective.kind === 'kill')
          for (let i = 0; i < objective.count; i++) await hero.kill(objective.creature);
        if (objective.kind === 'collect') await hero.obtain(objective.item, objective.count);
        if (objective.kind === 'visit') await hero.walkTo(objective.room);
        if (objective.kind === 'talk') {
          const npc = game.world.npcs.get(objective.npc)!;
          await hero.walkTo(npc.room);
          expect(await hero.act({ action: 'talk', npc: npc.ref })).toBeUndefined();
        }
      }
      await hero.walkTo(giver.room);
      const before = hero.events.length;
      expect(await hero.act({ action: 'quest', op: 'complete', quest: quest.ref })).toBeUndefined();
      const done = hero.events.slice(before).find((e) => e.type === 'quest.completed')!;
      expect(done.data).toMatchObject({ quest: quest.name, xp: quest.rewards.xp, soft: quest.rewards.soft });
      await hero.refreshInventory();
      for (const reward of quest.rewards.items)
        expect(hero.have(reward.item)).toBeGreaterThanOrEqual(reward.qty);
      if (quest.rewards.companion) {
        const offered = hero.events
          .slice(before)
          .some((e) => e.type === 'companion.offered' || e.type === 'companion.bonded');
        expect(offered).toBe(true);
      }
      completed.push(quest.ref);
    }
    expect(completed.sort()).toEqual([...game.world.quests.keys()].sort());
  }, 240_000);
});
