import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { talk } from '../../rooms/commands/talk';
import { dispositionFor, dispositionOf } from '../../rooms/rules/disposition';
import { ActionRejectedError } from '../../rooms/rules/errors';
import { give } from '../../rooms/rules/items';
import { move } from '../../rooms/rules/movement';
import { narrate } from '../../rooms/text/narration';
import { acceptQuest, completeQuest } from '../../rooms/rules/quests/quests';
import { buildSim } from './fixtures/simContext';

describe('NPC disposition and quests', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('maps scores to friendly / neutral / wary', () => {
    expect([-5, -3, -2, 0, 2, 3, 9].map(dispositionFor)).toEqual([
      'wary',
      'wary',
      'neutral',
      'neutral',
      'neutral',
      'friendly',
      'friendly',
    ]);
  });

  it('a wary hermit warms to liked gifts and then talks differently', () => {
    const sim = buildSim(world, 'forest');
    const player = sim.addPlayer('ann', { roomRef: 'forest:hermit_hut' });
    const hermit = world.npcs.get('forest:hermit')!;
    talk(sim.ctx, 'ann', 'wick');
    expect(sim.drain().map((e) => narrate(e, 'ann').text)).toEqual([
      'Old Wick the hermit says: "Go away. The crow doesn\'t like you."',
    ]);
    player.inventory.set('forest:berries', 1);
    give(sim.ctx, 'ann', 'berries', 'hermit');
    expect(dispositionOf(sim.ctx, 'ann', hermit)).toBe('neutral');
    talk(sim.ctx, 'ann', 'hermit');
    expect(sim.drain().map((e) => narrate(e, 'ann').text)).toEqual([
      'You give handful of berries to Old Wick the hermit.',
      'Old Wick the hermit now seems neutral towards you.',
      'Old Wick the hermit says: "Hm. Visitors. Don\'t touch the bones."',
      'Old Wick the hermit sells: healing salve (12 coins).',
    ]);
  });

  it('runs First Steps from accept to rewards', () => {
    const sim = buildSim(world, 'village');
    const player = sim.addPlayer('ann', { roomRef: 'village:square' });
    expect(() => completeQuest(sim.ctx, 'ann', 'first steps')).toThrow(
      new ActionRejectedError('NO_SUCH_QUEST', 'No quest called "first steps" is available here.'),
    );
    acceptQuest(sim.ctx, 'ann', 'first steps');
    expect(() => acceptQuest(sim.ctx, 'ann', 'first steps')).toThrow(
      new ActionRejectedError('QUEST_ACTIVE', 'You are already on "First Steps".'),
    );
    expect(() => completeQuest(sim.ctx, 'ann', 'first steps')).toThrow(
      new ActionRejectedError('QUEST_INCOMPLETE', '"First Steps" is not finished yet.'),
    );
    move(sim.ctx, 'ann', 'west');
    talk(sim.ctx, 'ann', 'smith');
    move(sim.ctx, 'ann', 'east');
    move(sim.ctx, 'ann', 'east');
    move(sim.ctx, 'ann', 'east');
    move(sim.ctx, 'ann', 'west');
    move(sim.ctx, 'ann', 'west');
    sim.drain();
    completeQuest(sim.ctx, 'ann', 'village:first_steps');
    expect(sim.drain().map((e) => narrate(e, 'ann').text)).toEqual([
      'Quest complete: First Steps! Rewards: 10 xp, 5 coins, wooden sword x1.',
      'You gain 10 experience. You are now level 2!',
      'Elder Maren now seems friendly towards you.',
    ]);
    expect([player.level, player.soft, player.inventory.get('village:wooden_sword')]).toEqual([2, 15, 1]);
    expect(sim.journals.get('ann')!.quests.get('village:first_steps')).toEqual({
      status: 'completed',
      counts: [1, 1],
      completedAt: sim.clock.now(),
    });
  });
});
