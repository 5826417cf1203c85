import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { firstImpression } from '../../rooms/standings';
import { talk } from '../../rooms/commands/talk';
import { adjustDisposition, relationScore } from '../../rooms/rules/disposition';
import { buildSim } from './fixtures/simContext';

describe('NPCs’ first impression of a player’s social standing', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('is one step per 10 points of reputation away from 50, at most 3, and -3 from an elevated threat', () => {
    const at = (reputation: number, threat_level = 'none') => firstImpression({ reputation, threat_level });
    expect([at(50), at(54), at(55), at(79), at(100), at(0), at(36)]).toEqual([0, 0, 1, 3, 3, -3, -1]);
    expect([at(90, 'low'), at(90, 'elevated'), at(90, 'high'), at(90, 'critical')]).toEqual([3, -3, -3, -3]);
  });

  it('warms or cools NPCs the player has not dealt with, and nothing once they have', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('liked', { roomRef: 'village:square' });
    sim.addPlayer('feared', { roomRef: 'village:square' });
    sim.addPlayer('stranger', { roomRef: 'village:square' });
    sim.ctx.journal('liked').firstImpression = 3;
    sim.ctx.journal('feared').firstImpression = -3;
    const said = (userId: string) => {
      sim.drain();
      talk(sim.ctx, userId, 'elder');
      return sim.drain().filter((e) => e.type === 'npc.said') as { disposition: string; text: string }[];
    };
    // Elder Maren starts neutral (0): 3 makes her friendly, -3 wary (no quests, no wares); she says why.
    const [stranger, liked, feared] = [said('stranger'), said('liked'), said('feared')];
    expect(stranger[0].disposition).toBe('neutral');
    expect(stranger.map((e) => e.text)).not.toContain('I have heard good things about you.');
    expect(liked[0].disposition).toBe('friendly');
    expect(liked[1].text).toBe('I have heard good things about you.');
    expect(feared[0].disposition).toBe('wary');
    expect(feared[1].text).toBe('I have heard talk of you, and none of it good.');
    // What happens between them is kept from the impression on: a gift (+1) to the feared player's -3 is -2.
    const elder = world.npcs.get('village:elder')!;
    adjustDisposition(sim.ctx, 'feared', elder, 'gift');
    expect(relationScore(sim.ctx, 'feared', elder)).toBe(-2);
    expect(said('feared').map((e) => e.text)).not.toContain('I have heard talk of you, and none of it good.');
    sim.ctx.journal('feared').firstImpression = 3;
    expect(relationScore(sim.ctx, 'feared', elder)).toBe(-2);
  });
});
