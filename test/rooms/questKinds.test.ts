import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { combatRound } from '../../rooms/rules/combat';
import { engage } from '../../rooms/rules/creatures/creatureAi';
import { talk } from '../../rooms/commands/talk';
import { ESCORT_HEALTH } from '../../rooms/rules/quests/escorts';
import { move } from '../../rooms/rules/movement';
import { narrate } from '../../rooms/text/narration';
import { acceptQuest, completeQuest } from '../../rooms/rules/quests/quests';
import { say } from '../../rooms/commands/social';
import { spawnCreature } from '../../rooms/rules/creatures/spawns';
import { type TestSim, buildSim } from './fixtures/simContext';

/** Marks quests completed in a player's journal (their prerequisites, for a test). */
function completed(sim: TestSim, userId: string, ...refs: string[]): void {
  for (const ref of refs) sim.ctx.journal(userId).quests.set(ref, { status: 'completed', counts: [] });
}

const texts = (sim: TestSim, userId: string) => sim.drain().map((e) => narrate(e, userId).text);

describe('quest kinds: escort, riddle, branches', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('an escorted NPC follows the player, can be hurt into giving up, and counts when it arrives alive', () => {
    const sim = buildSim(world, 'marsh');
    const ann = sim.addPlayer('ann', { roomRef: 'marsh:stilt_village' });
    ann.maxHealth = ann.health = 5000;
    completed(sim, 'ann', 'marsh:hound_pack');
    acceptQuest(sim.ctx, 'ann', 'last walk');
    expect(texts(sim, 'ann')).toContain(
      'Gran Wenna falls in behind you. Bring them safely to Drowned Chapel.',
    );
    move(sim.ctx, 'ann', 'south');
    expect(texts(sim, 'ann')).toContain('Gran Wenna follows close behind you.');
    const hound = spawnCreature(sim.ctx, world.creatures.get('marsh:hound')!, 'marsh:mudflats', 'p');
    engage(sim.ctx, hound, 'ann');
    const hurt: string[] = [];
    for (let round = 0; round < 200 && sim.ctx.journal('ann').escort; round++) {
      hound.health = hound.maxHealth;
      combatRound(sim.ctx);
      hurt.push(...texts(sim, 'ann').filter((t) => t.includes('Gran Wenna')));
    }
    expect(hurt[0]).toMatch(
      /^The mire hound goes for Gran Wenna and wounds them \(\d+ damage, \d+ left\)\.$/,
    );
    expect(hurt.at(-1)).toBe(
      'Gran Wenna is too badly hurt to go on and limps home. Talk to them there to try again.',
    );
    expect(sim.ctx.journal('ann').quests.get('marsh:last_walk')!.counts).toEqual([0]);

    sim.ctx.state.creatures.delete(hound.id);
    Object.assign(ann, { status: 'idle', target: '' });
    move(sim.ctx, 'ann', 'north');
    talk(sim.ctx, 'ann', 'nettie');
    expect(sim.ctx.journal('ann').escort).toBeUndefined();
    talk(sim.ctx, 'ann', 'wenna');
    expect(sim.ctx.journal('ann').escort).toMatchObject({ npc: 'marsh:wenna', health: ESCORT_HEALTH });
    for (const direction of ['south', 'south', 'south'] as const) move(sim.ctx, 'ann', direction);
    expect(texts(sim, 'ann')).toContain('Gran Wenna has reached Drowned Chapel safely.');
    expect(sim.ctx.journal('ann').quests.get('marsh:last_walk')!.counts).toEqual([1]);
    for (const direction of ['north', 'north', 'north'] as const) move(sim.ctx, 'ann', direction);
    completeQuest(sim.ctx, 'ann', 'last walk');
    expect(texts(sim, 'ann')).toContain(
      'Quest complete: The Last Walk to Sallowby! Rewards: 70 xp, 30 coins, lily tonic x2.',
    );
  });

  it('an escort ends when the player leaves the area', () => {
    const sim = buildSim(world, 'marsh');
    sim.addPlayer('ann', { roomRef: 'marsh:stilt_village' });
    completed(sim, 'ann', 'marsh:hound_pack');
    acceptQuest(sim.ctx, 'ann', 'last walk');
    move(sim.ctx, 'ann', 'north');
    move(sim.ctx, 'ann', 'north');
    sim.drain();
    expect(move(sim.ctx, 'ann', 'north')).toEqual({ areaId: 'forest', roomRef: 'forest:ranger_camp' });
    expect(texts(sim, 'ann')).toContain(
      'Gran Wenna will go no further than The Sallow Fen and turns back home.',
    );
    expect(sim.ctx.journal('ann').escort).toBeUndefined();
  });

  it('a riddle is answered by saying the answer where its NPC stands', () => {
    const sim = buildSim(world, 'forest');
    sim.addPlayer('ann', { roomRef: 'forest:ranger_camp' });
    completed(sim, 'ann', 'forest:lost_trail');
    acceptQuest(sim.ctx, 'ann', 'riddle');
    expect(texts(sim, 'ann')).toContain(
      'Quest accepted: The Hermit\'s Riddle. [ ] Answer Old Wick the hermit\'s riddle: "What has roots that nobody sees, stands taller than the trees, climbs up and up, and yet never grows?" (0/1)',
    );
    say(sim.ctx, 'ann', 'mountain');
    expect(texts(sim, 'ann')).toEqual(['You say: "mountain"']);
    sim.ctx.state.players.get('ann')!.roomRef = 'forest:hermit_hut';
    say(sim.ctx, 'ann', 'A tree?');
    expect(texts(sim, 'ann')).toEqual([
      'You say: "A tree?"',
      'Old Wick the hermit shakes their head. "No. Think again."',
    ]);
    say(sim.ctx, 'ann', 'A Mountain!');
    expect(texts(sim, 'ann').slice(1, 3)).toEqual([
      'Old Wick the hermit smiles slowly. "That is the answer."',
      'The Hermit\'s Riddle: [x] Answer Old Wick the hermit\'s riddle: "What has roots that nobody sees, stands taller than the trees, climbs up and up, and yet never grows?" (1/1)',
    ]);
  });

  it('taking one side of a branch closes the other', () => {
    const sim = buildSim(world, 'ruins');
    const ann = sim.addPlayer('ann', { roomRef: 'ruins:camp' });
    completed(sim, 'ann', 'ruins:vault_ledger');
    talk(sim.ctx, 'ann', 'sable');
    sim.drain();
    ann.roomRef = 'ruins:scriptorium';
    talk(sim.ctx, 'ann', 'cadoc');
    expect(texts(sim, 'ann').join('\n')).toContain('Ink for the Archive');
    ann.roomRef = 'ruins:camp';
    acceptQuest(sim.ctx, 'ann', "sable's cut");
    ann.roomRef = 'ruins:scriptorium';
    sim.drain();
    talk(sim.ctx, 'ann', 'cadoc');
    expect(texts(sim, 'ann').join('\n')).not.toContain('Ink for the Archive');
    expect(() => acceptQuest(sim.ctx, 'ann', 'ink')).toThrow(
      expect.objectContaining({
        code: 'QUEST_CLOSED',
        message: 'You chose "Sable\'s Cut"; "Ink for the Archive" is closed to you.',
      }),
    );
  });

  it('NPCs speak of the quests they take part in by the quest state, and not at all when wary', () => {
    const sim = buildSim(world, 'marsh');
    sim.addPlayer('ann', { roomRef: 'marsh:stilt_village' });
    const lines = world.npcs.get('marsh:wenna')!.questLines['marsh:last_walk'];
    const said = () =>
      sim
        .drain()
        .filter((e) => e.type === 'npc.said')
        .map((e) => (e as { text: string }).text);
    talk(sim.ctx, 'ann', 'wenna');
    expect(said()).toEqual([world.npcs.get('marsh:wenna')!.greetings.neutral]);
    completed(sim, 'ann', 'marsh:hound_pack');
    talk(sim.ctx, 'ann', 'wenna');
    expect(said()[1]).toBe(lines.before);
    acceptQuest(sim.ctx, 'ann', 'last walk');
    talk(sim.ctx, 'ann', 'wenna');
    expect(said()[1]).toBe(lines.active);
    completed(sim, 'ann', 'marsh:last_walk');
    talk(sim.ctx, 'ann', 'wenna');
    expect(said()[1]).toBe(lines.after);
    sim.ctx.journal('ann').relations.set('marsh:wenna', -5);
    talk(sim.ctx, 'ann', 'wenna');
    expect(said()).toEqual(["Nettie says you're trouble. Nettie's usually right."]);
  });

  it('at least ten NPCs have lines that depend on quest state', () => {
    const speakers = [...world.npcs.values()].filter((npc) => Object.keys(npc.questLines).length > 0);
    expect(speakers.length).toBeGreaterThanOrEqual(10);
  });
});
