import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { feel, runCreatureAi } from '../../rooms/rules/creatures/creatureAi';
import { BASE_TRANSITIONS, behaviourOf, nextEmotion } from '../../rooms/rules/creatures/emotions';
import { narrate } from '../../rooms/text/narration';
import { spawnCreature } from '../../rooms/rules/creatures/spawns';
import { buildSim } from './fixtures/simContext';

describe('creature emotions', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('follows the explicit table, with temperament overrides', () => {
    expect(nextEmotion('neutral', 'CALM', 'PLAYER_ENTERS')).toBe('CURIOUS');
    expect(nextEmotion('aggressive', 'CALM', 'PLAYER_ENTERS')).toBe('ALERT');
    expect(nextEmotion('timid', 'CALM', 'PLAYER_ENTERS')).toBe('SCARED');
    expect(nextEmotion('docile', 'CALM', 'PLAYER_ENTERS')).toBe('FRIENDLY');
    expect(nextEmotion('neutral', 'CURIOUS', 'ATTACKED')).toBe('DEFENSIVE');
    expect(nextEmotion('neutral', 'DEFENSIVE', 'HEALTH_LOW')).toBe('PANICKED');
    expect(nextEmotion('aggressive', 'DEFENSIVE', 'HEALTH_LOW')).toBe('DEFENSIVE');
    expect(nextEmotion('neutral', 'CALM', 'ALLY_DIED')).toBe('ALERT');
    expect(nextEmotion('neutral', 'PANICKED', 'TIME_PASSES')).toBe('SCARED');
    expect(nextEmotion('neutral', 'SCARED', 'TIME_PASSES')).toBe('CALM');
    expect(Object.keys(BASE_TRANSITIONS)).toEqual([
      'CALM',
      'CURIOUS',
      'SCARED',
      'ALERT',
      'FRIENDLY',
      'DEFENSIVE',
      'PANICKED',
    ]);
    expect(
      ['CALM', 'CURIOUS', 'SCARED', 'ALERT', 'FRIENDLY', 'DEFENSIVE', 'PANICKED'].map((s) =>
        behaviourOf(s as never),
      ),
    ).toEqual(['ignore', 'approach', 'flee', 'attack', 'approach', 'attack', 'flee']);
  });

  it('an attacked rat turns defensive and fights back; time calms it down again', () => {
    const sim = buildSim(world, 'village');
    const player = sim.addPlayer('ann', { roomRef: 'village:cellar' });
    const rat = spawnCreature(
      sim.ctx,
      world.creatures.get('village:rat')!,
      'village:cellar',
      'village:cellar#0',
    );
    feel(sim.ctx, rat, 'PLAYER_ENTERS', 'ann');
    expect(rat.emotion).toBe('CURIOUS');
    feel(sim.ctx, rat, 'ATTACKED', 'ann');
    expect(rat.emotion).toBe('DEFENSIVE');
    expect(rat.target).toBe('ann');
    expect(player.status).toBe('fighting');
    expect(sim.drain().map((e) => e.type)).toEqual([
      'creature.spawned',
      'creature.emotion',
      'creature.emotion',
      'combat.started',
    ]);

    rat.target = '';
    player.roomRef = 'village:inn';
    for (let i = 0; i < 20; i++) runCreatureAi(sim.ctx);
    expect(rat.emotion).toBe('ALERT');
    for (let i = 0; i < 20; i++) runCreatureAi(sim.ctx);
    expect(rat.emotion).toBe('CALM');
  });

  it('a timid deer flees a player who walks in', () => {
    const sim = buildSim(world, 'forest');
    sim.addPlayer('ann', { roomRef: 'forest:path' });
    const deer = spawnCreature(sim.ctx, world.creatures.get('forest:deer')!, 'forest:path', 'forest:path#0');
    feel(sim.ctx, deer, 'PLAYER_ENTERS', 'ann');
    expect(deer.emotion).toBe('SCARED');
    runCreatureAi(sim.ctx);
    expect(deer.roomRef).not.toBe('forest:path');
    expect(sim.events.map((e) => e.type)).toContain('creature.left');
  });
});

describe('the approach behaviour', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('a curious rat goes up to a player in its room once, not every step', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:cellar' });
    const rat = spawnCreature(
      sim.ctx,
      world.creatures.get('village:rat')!,
      'village:cellar',
      'village:cellar#0',
    );
    feel(sim.ctx, rat, 'PLAYER_ENTERS', 'ann');
    sim.drain();
    runCreatureAi(sim.ctx);
    runCreatureAi(sim.ctx);
    expect(sim.drain().map((e) => narrate(e, 'ann').text)).toEqual([
      'The cellar rat edges closer to you, sniffing the air.',
    ]);
    expect(rat.roomRef).toBe('village:cellar');
  });

  it('a friendly hen with nobody in its room walks over to a neighbouring player', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:market' });
    const hen = spawnCreature(sim.ctx, world.creatures.get('village:chicken')!, 'village:square', 'p');
    hen.emotion = 'FRIENDLY';
    sim.drain();
    runCreatureAi(sim.ctx);
    expect(hen.roomRef).toBe('village:market');
    runCreatureAi(sim.ctx);
    expect(sim.drain().map((e) => narrate(e, 'ann').text)).toEqual([
      'The speckled hen heads east.',
      'A speckled hen arrives from the west.',
      'The speckled hen trots up to you happily.',
    ]);
  });
});
