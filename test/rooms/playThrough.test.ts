import { balanceReport } from '../../rooms/content/balance';
import type { QuestDef, World } from '../../rooms/content/world';
import { type GameServer, startGameServer } from '../helpers/gameServer';
import { QuestSolver } from './fixtures/questSolver';

/**
 * Quests in the order a careful player would take them: open ones first, easiest fight first. At a branch
 * (`excludes`) the first side reached is taken and the other left out.
 */
function questOrder(world: World, among: QuestDef[] = [...world.quests.values()]): QuestDef[] {
  const fight = new Map(balanceReport(world).quests.map((q) => [q.ref, q.hardestCreature]));
  const done = new Set<string>();
  const closed = new Set<string>();
  const order: QuestDef[] = [];
  for (;;) {
    const open = among
      .filter((q) => !done.has(q.ref) && !closed.has(q.ref) && q.requires.every((r) => done.has(r)))
      .sort((a, b) => fight.get(a.ref)! - fight.get(b.ref)!);
    if (open.length === 0) break;
    done.add(open[0].ref);
    open[0].excludes.forEach((ref) => closed.add(ref));
    order.push(open[0]);
  }
  return order;
}

/** `refs` and every quest they need first. */
function withPrerequisites(world: World, refs: string[]): QuestDef[] {
  const needed = new Set<string>();
  const stack = [...refs];
  while (stack.length > 0) {
    const ref = stack.pop()!;
    if (needed.has(ref)) continue;
    needed.add(ref);
    stack.push(...world.quests.get(ref)!.requires);
  }
  return [...needed].map((ref) => world.quests.get(ref)!);
}

/** Accepts, meets and hands in one quest, checking that each reward arrives. */
async function playQuest(game: GameServer, hero: QuestSolver, quest: QuestDef): Promise<void> {
  const giver = game.world.npcs.get(quest.giver)!;
  await hero.refreshInventory();
  await hero.recover();
  await hero.walkTo(giver.room);
  expect(await hero.act({ action: 'quest', op: 'accept', quest: quest.ref })).toBeUndefined();
  for (const objective of quest.objectives) await hero.meet(objective);
  await hero.walkTo(giver.room);
  const before = hero.events.length;
  expect(await hero.act({ action: 'quest', op: 'complete', quest: quest.ref })).toBeUndefined();
  const done = hero.events.slice(before).find((e) => e.type === 'quest.completed')!;
  expect(done.data).toMatchObject({ quest: quest.name, xp: quest.rewards.xp, soft: quest.rewards.soft });
  await hero.refreshInventory();
  for (const reward of quest.rewards.items) expect(hero.have(reward.item)).toBeGreaterThanOrEqual(reward.qty);
  if (quest.rewards.companion) {
    const offered = hero.events
      .slice(before)
      .some((e) => e.type === 'companion.offered' || e.type === 'companion.bonded');
    expect(offered).toBe(true);
  }
}

describe('scripted play-through', () => {
  let game: GameServer;
  afterAll(async () => {
    await game?.shutdown();
  });

  it('completes every quest of the world through the action gateway (the other side of a branch with a second character)', async () => {
    game = await startGameServer();
    const hero = new QuestSolver(game, game.world, 'Hero');
    await hero.act({ action: 'look' });
    const completed: string[] = [];
    for (const quest of questOrder(game.world)) {
      await playQuest(game, hero, quest);
      completed.push(quest.ref);
    }
    const closed = [...game.world.quests.keys()].filter((ref) => !completed.includes(ref));
    expect(closed.length).toBeGreaterThan(0);
    for (const ref of closed) {
      const rival = game.world.quests.get(ref)!.excludes.find((other) => completed.includes(other));
      if (!rival) continue;
      await hero.walkTo(game.world.npcs.get(game.world.quests.get(ref)!.giver)!.room);
      expect(await hero.act({ action: 'quest', op: 'accept', quest: ref })).toBe('QUEST_CLOSED');
    }
    const second = new QuestSolver(game, game.world, 'Wren');
    await second.act({ action: 'look' });
    for (const quest of questOrder(game.world, withPrerequisites(game.world, closed))) {
      await playQuest(game, second, quest);
      completed.push(quest.ref);
    }
    expect([...new Set(completed)].sort()).toEqual([...game.world.quests.keys()].sort());
  }, 400_000);
});
