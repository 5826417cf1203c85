import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { runAction } from '../../rooms/commands/actions';
import { ActionRejectedError } from '../../rooms/rules/errors';
import { narrate } from '../../rooms/text/narration';
import { buildSim } from './fixtures/simContext';

describe('taking and handing in work without naming it', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  /** Runs a typed line for `userId` and returns what they read. */
  const typed = (sim: ReturnType<typeof buildSim>, userId: string, line: string) => {
    sim.drain();
    runAction(sim.ctx, userId, { action: 'command', line });
    return sim
      .drain()
      .filter((e) => 'userId' in e.to && e.to.userId === userId)
      .map((e) => narrate(e, userId).text);
  };

  it('the offer says how to take it, and "accept" takes the most recent offer', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    expect(() => typed(sim, 'ann', 'accept')).toThrow(
      new ActionRejectedError(
        'NO_OFFER',
        'Nobody has offered you work yet. Talk to people ("talk <name>") to hear what they need.',
      ),
    );
    expect(typed(sim, 'ann', 'talk elder')).toContain(
      'Elder Maren has work for you: First Steps. Type "accept" to take it.\nYou could ask about: founder, chickens.',
    );
    expect(typed(sim, 'ann', 'accept')).toEqual([
      'Quest accepted: First Steps. [ ] Talk to Brandal the smith (0/1); [ ] Visit East Gate (0/1)',
    ]);
    expect(() => typed(sim, 'ann', 'yes')).toThrow(
      new ActionRejectedError('NO_OFFER', 'You have taken everything Elder Maren offered you.'),
    );
  });

  it('"yes" takes the offer too, but only at the giver; "quest <name>" takes a quest offered here', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    typed(sim, 'ann', 'talk elder');
    typed(sim, 'ann', 'e');
    expect(() => typed(sim, 'ann', 'yes')).toThrow(
      new ActionRejectedError('QUEST_GIVER_ABSENT', 'Go back to Elder Maren to take "First Steps".'),
    );
    typed(sim, 'ann', 'w');
    expect(typed(sim, 'ann', 'yes')[0]).toMatch(/^Quest accepted: First Steps\./);

    const other = buildSim(world, 'village');
    other.addPlayer('bob', { roomRef: 'village:square' });
    expect(typed(other, 'bob', 'quest first steps')[0]).toMatch(/^Quest accepted: First Steps\./);
    expect(() => typed(other, 'bob', 'quest first steps')).toThrow(
      new ActionRejectedError('QUEST_ACTIVE', 'You are already on "First Steps".'),
    );
  });

  it('says when a quest is done and where to hand it in; a bare "complete" hands it in at the giver', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    typed(sim, 'ann', 'talk elder');
    typed(sim, 'ann', 'accept');
    typed(sim, 'ann', 'w');
    typed(sim, 'ann', 'talk brandal');
    expect(() => typed(sim, 'ann', 'complete')).toThrow(
      new ActionRejectedError(
        'QUEST_INCOMPLETE',
        'None of your quests is finished yet. Type "quests" to see what is left.',
      ),
    );
    typed(sim, 'ann', 'e');
    typed(sim, 'ann', 'e');
    const atGate = typed(sim, 'ann', 'e');
    expect(atGate.slice(-2)).toEqual([
      'First Steps: [x] Talk to Brandal the smith (1/1); [x] Visit East Gate (1/1)',
      'All done for First Steps: return to Elder Maren and type "complete" to hand it in.',
    ]);
    expect(() => typed(sim, 'ann', 'complete')).toThrow(
      new ActionRejectedError('QUEST_GIVER_ABSENT', 'Return to Elder Maren to complete "First Steps".'),
    );
    typed(sim, 'ann', 'w');
    typed(sim, 'ann', 'w');
    expect(typed(sim, 'ann', 'complete')[0]).toBe(
      'Quest complete: First Steps! Rewards: 10 xp, 5 coins, wooden sword x1.',
    );
  });
});
