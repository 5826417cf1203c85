import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { talk } from '../../rooms/commands/talk';
import type { RuleEvent } from '../../rooms/rules/ruleEvents';
import { acceptQuest } from '../../rooms/rules/quests/quests';
import { buildSim } from './fixtures/simContext';

describe('rule events: rules tell each other about progress', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('a talk is told as "talked", and the quest objective listening to it counts it', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    acceptQuest(sim.ctx, 'ann', 'first steps');
    const heard: RuleEvent[] = [];
    sim.ctx.ruleEvents.subscribe('*', (event) => heard.push(event));
    sim.ctx.state.players.get('ann')!.roomRef = 'village:smithy';
    talk(sim.ctx, 'ann', 'smith');
    expect(heard).toEqual([{ type: 'talked', userId: 'ann', npc: 'village:smith' }]);
    expect(sim.journals.get('ann')!.quests.get('village:first_steps')!.counts).toEqual([1, 0]);
  });

  it('a listener that fails fails the action that told it', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    sim.ctx.ruleEvents.subscribe('talked', () => {
      throw new Error('listener broke');
    });
    expect(() => talk(sim.ctx, 'ann', 'elder')).toThrow('listener broke');
  });
});
