import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { attack, combatRound, rollStrike } from '../../rooms/rules/combat';
import { bondCompanion, commandCompanion } from '../../rooms/rules/companions';
import { roomFeels, runCreatureAi } from '../../rooms/rules/creatures/creatureAi';
import { nextEmotion } from '../../rooms/rules/creatures/emotions';
import { ActionRejectedError } from '../../rooms/rules/errors';
import { give, take, use } from '../../rooms/rules/items';
import { move } from '../../rooms/rules/movement';
import { narrate } from '../../rooms/text/narration';
import { completeQuest, objectiveText } from '../../rooms/rules/quests/quests';
import type { Rng } from '../../rooms/rules/random';
import { ResourceSystem, floorCount } from '../../rooms/rules/resources';
import { spawnCreature } from '../../rooms/rules/creatures/spawns';
import { buildSim } from './fixtures/simContext';

/** Regression tests for the bugs of the issue-16 play-through, one `describe` per bug group. */
describe('play-through bugs', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  describe('2. a player attacked by several creatures keeps fighting after the first dies', () => {
    it('turns on the next attacker and strikes it', () => {
      const sim = buildSim(world, 'caves');
      const ann = sim.addPlayer('ann', { roomRef: 'caves:goblin_camp', level: 6 });
      ann.maxHealth = ann.health = 500;
      const goblin = world.creatures.get('caves:goblin')!;
      const first = spawnCreature(sim.ctx, goblin, 'caves:goblin_camp', 'caves:goblin_camp#0');
      const second = spawnCreature(sim.ctx, goblin, 'caves:goblin_camp', 'caves:goblin_camp#0');
      roomFeels(sim.ctx, 'caves:goblin_camp', 'PLAYER_ENTERS', 'ann');
      expect([first.target, second.target, ann.target]).toEqual(['ann', 'ann', first.id]);
      for (let round = 0; round < 50 && sim.ctx.state.creatures.has(first.id); round++) combatRound(sim.ctx);
      expect(sim.ctx.state.creatures.has(first.id)).toBe(false);
      expect([ann.status, ann.target]).toEqual(['fighting', second.id]);
      const before = second.health;
      for (let round = 0; round < 5; round++) combatRound(sim.ctx);
      expect(second.health).toBeLessThan(before);
    });

    it('a creature striking an idle player pulls them into the fight', () => {
      const sim = buildSim(world, 'caves');
      const ann = sim.addPlayer('ann', { roomRef: 'caves:goblin_camp' });
      const goblin = spawnCreature(
        sim.ctx,
        world.creatures.get('caves:goblin')!,
        'caves:goblin_camp',
        'caves:goblin_camp#0',
      );
      goblin.target = 'ann';
      combatRound(sim.ctx);
      expect([ann.status, ann.target]).toEqual(['fighting', goblin.id]);
    });
  });

  describe('3. floor resources grow back to their cap', () => {
    it('regrows moonleaf one sprig per `every` AI steps, never beyond the data cap', () => {
      const sim = buildSim(world, 'forest');
      const resources = new ResourceSystem(world.areas.get('forest')!, world);
      resources.populate(sim.ctx);
      sim.addPlayer('ann', { roomRef: 'forest:stream' });
      expect(floorCount(sim.ctx, 'forest:stream', 'forest:herb')).toBe(3);
      take(sim.ctx, 'ann', 'moonleaf');
      expect(floorCount(sim.ctx, 'forest:stream', 'forest:herb')).toBe(0);
      for (let step = 0; step < 14; step++) resources.run(sim.ctx);
      expect(floorCount(sim.ctx, 'forest:stream', 'forest:herb')).toBe(0);
      resources.run(sim.ctx);
      expect(floorCount(sim.ctx, 'forest:stream', 'forest:herb')).toBe(1);
      for (let step = 0; step < 200; step++) resources.run(sim.ctx);
      expect(floorCount(sim.ctx, 'forest:stream', 'forest:herb')).toBe(3);
    });

    it('the glowing crystal a quest needs is back within a few steps for the next player', () => {
      const sim = buildSim(world, 'caves');
      const resources = new ResourceSystem(world.areas.get('caves')!, world);
      resources.populate(sim.ctx);
      sim.addPlayer('ann', { roomRef: 'caves:crystal_grotto' });
      take(sim.ctx, 'ann', 'crystal');
      for (let step = 0; step < 5; step++) resources.run(sim.ctx);
      expect(floorCount(sim.ctx, 'caves:crystal_grotto', 'caves:glowing_crystal')).toBe(1);
    });
  });

  describe('4. a second companion reward is offered, not lost', () => {
    it('says what happens and lets the player swap or decline', () => {
      const sim = buildSim(world, 'caves');
      const ann = sim.addPlayer('ann', { roomRef: world.npcs.get('caves:foreman')!.room });
      bondCompanion(sim.ctx, ann, world.companions.get('forest:pip')!);
      const journal = sim.journals.get('ann')!;
      journal.quests.set('caves:goblin_menace', { status: 'completed', counts: [3, 0] });
      journal.quests.set('caves:crystal_light', { status: 'active', counts: [0, 1] });
      ann.inventory.set('caves:glowing_crystal', 1);
      sim.drain();
      completeQuest(sim.ctx, 'ann', 'crystal light');
      const offer = sim.drain().find((e) => e.type === 'companion.offered')!;
      expect(narrate(offer, 'ann').text).toBe(
        'Ember the salamander would join you, but Pip is already at your side and will not share you. Type "companion swap" to part with Pip and take Ember, or "companion decline".',
      );
      expect(ann.companion.name).toBe('Pip');
      commandCompanion(sim.ctx, 'ann', 'swap');
      expect(sim.drain().map((e) => narrate(e, 'ann').text)).toEqual([
        'Pip nuzzles you one last time and goes its own way.',
        'Ember the salamander has bonded with you.',
      ]);
      expect(ann.companion.ref).toBe('caves:ember');
      expect(() => commandCompanion(sim.ctx, 'ann', 'decline')).toThrow(
        new ActionRejectedError('NO_COMPANION_OFFER', 'No companion is waiting for your answer.'),
      );
    });
  });

  describe('5. creatures fight on or go home as the README says', () => {
    it('an aggressive creature that attacked first fights on at low health', () => {
      expect(nextEmotion('aggressive', 'ALERT', 'HEALTH_LOW')).toBe('ALERT');
      expect(nextEmotion('neutral', 'ALERT', 'HEALTH_LOW')).toBe('SCARED');
    });

    it('a calm creature that does not wander walks back to its spawn room', () => {
      const sim = buildSim(world, 'village');
      const rat = spawnCreature(sim.ctx, world.creatures.get('village:rat')!, 'village:cellar', 'p');
      rat.roomRef = 'village:square';
      for (let step = 0; step < 5; step++) runCreatureAi(sim.ctx);
      expect(rat.roomRef).toBe('village:cellar');
      const texts = sim.drain().map((e) => narrate(e, 'ann').text);
      expect(texts).toContain('A cellar rat arrives from above.');
    });

    it('a friendly hen follows a player one room from home, not across the village', () => {
      const sim = buildSim(world, 'village');
      const hen = spawnCreature(sim.ctx, world.creatures.get('village:chicken')!, 'village:square', 'p');
      hen.emotion = 'FRIENDLY';
      sim.addPlayer('ann', { roomRef: 'village:market' });
      runCreatureAi(sim.ctx);
      expect(hen.roomRef).toBe('village:market');
      expect(sim.drain().map((e) => narrate(e, 'ann').text)).toContain(
        'A speckled hen arrives from the west.',
      );
      move(sim.ctx, 'ann', 'east');
      for (let step = 0; step < 3; step++) runCreatureAi(sim.ctx);
      expect(hen.roomRef).not.toBe('village:gate');
    });
  });

  describe('6. smaller things', () => {
    it('does not use up a healing item at full health', () => {
      const sim = buildSim(world, 'village');
      const ann = sim.addPlayer('ann');
      ann.inventory.set('forest:berries', 2);
      expect(() => use(sim.ctx, 'ann', 'berries')).toThrow(
        new ActionRejectedError(
          'FULL_HEALTH',
          'You are already at full health; you keep the handful of berries.',
        ),
      );
      expect(ann.inventory.get('forest:berries')).toBe(2);
    });

    it('gives one item when no quantity is said', () => {
      const sim = buildSim(world, 'village');
      const ann = sim.addPlayer('ann');
      const bob = sim.addPlayer('bob');
      ann.inventory.set('village:bread', 3);
      give(sim.ctx, 'ann', 'bread', 'bob');
      expect([ann.inventory.get('village:bread'), bob.inventory.get('village:bread')]).toEqual([2, 1]);
    });

    it('a point of defense takes a point of damage off', () => {
      const sure: Rng = { next: () => 0, int: (min) => min, chance: () => true, pick: (items) => items[0] };
      expect([rollStrike(sure, 3, 0), rollStrike(sure, 3, 1), rollStrike(sure, 3, 2)]).toEqual([3, 2, 2]);
    });

    it('tells the hit before the fear it causes', () => {
      const sim = buildSim(world, 'village', { seed: 11 });
      const ann = sim.addPlayer('ann', { roomRef: 'village:cellar', level: 3 });
      spawnCreature(sim.ctx, world.creatures.get('village:rat')!, 'village:cellar', 'p');
      attack(sim.ctx, 'ann', 'rat');
      for (let round = 0; round < 30 && ann.status === 'fighting'; round++) combatRound(sim.ctx);
      const types = sim.events.map((e) => e.type);
      const scared = sim.events.findIndex(
        (e) => e.type === 'creature.emotion' && (e.emotion === 'SCARED' || e.emotion === 'PANICKED'),
      );
      expect(scared).toBeGreaterThan(0);
      expect(types[scared - 1]).toBe('combat.hit');
    });

    it('writes plurals, presences and area names as a person would', () => {
      expect(objectiveText(world, { kind: 'kill', creature: 'village:rat', count: 3 })).toBe(
        'Defeat 3 cellar rats',
      );
      expect(objectiveText(world, { kind: 'collect', item: 'forest:herb', count: 3 })).toBe(
        'Collect 3 sprigs of moonleaf',
      );
      expect(objectiveText(world, { kind: 'kill', creature: 'forest:wolf', count: 2 })).toBe(
        'Defeat 2 grey wolves',
      );
      const presence = (p: string) =>
        narrate({ type: 'companion.presence', companion: 'Pip', presence: p, to: { userId: 'a' } }, 'a').text;
      expect(presence('Always')).toBe('Pip will now speak up and fight beside you at every turn.');
      expect(presence('On Demand')).toBe('Pip will now stay quiet and still until you ask.');
      const handoff = narrate(
        {
          type: 'area.handoff',
          areaId: 'forest',
          areaName: 'The Whisperwood',
          roomRef: 'forest:edge',
          to: { userId: 'a' },
        },
        'a',
      );
      expect(handoff.text).toBe('You travel to The Whisperwood...');
    });

    it('describes the Junction with as many passages as it has exits', () => {
      const junction = world.rooms.get('caves:junction')!;
      expect(Object.keys(junction.exits)).toHaveLength(4);
      expect(junction.description).toMatch(/^Four passages/);
    });
  });
});
