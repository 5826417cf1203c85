import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { runAction } from '../../rooms/commands/actions';
import { ActionRejectedError } from '../../rooms/rules/errors';
import { narrate } from '../../rooms/text/narration';
import { spawnCreature } from '../../rooms/rules/creatures/spawns';
import { combatRound } from '../../rooms/rules/combat';
import { type GameServer, joinArea, startGameServer } from '../helpers/gameServer';
import { buildSim } from './fixtures/simContext';

describe('look-closer and character commands', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  /** Runs typed lines for `userId` and returns what they read. */
  const typed = (sim: ReturnType<typeof buildSim>, userId: string, line: string) => {
    sim.drain();
    runAction(sim.ctx, userId, { action: 'command', line });
    return sim
      .drain()
      .filter((e) => 'userId' in e.to && e.to.userId === userId)
      .map((e) => narrate(e, userId).text);
  };

  it('help lists commands and topics, and explains one command or topic', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann');
    const [index] = typed(sim, 'ann', 'help');
    expect(index).toMatch(/^Help\nCommands: look, go, examine, attack, consider, /);
    expect(index).toContain(
      'Topics: start, combat, death, crafting, paths, companions, groups, trade, quests, dangers.',
    );
    expect(typed(sim, 'ann', 'help kill')).toEqual([
      'attack <creature>\nStart a fight. Blows are exchanged every combat round.\nAlso: kill, k, fight.',
    ]);
    expect(typed(sim, 'ann', 'help death')[0]).toMatch(/^Death and its cost\nWhen you fall you lose a tenth/);
    expect(() => typed(sim, 'ann', 'help dancing')).toThrow(
      new ActionRejectedError('NO_SUCH_TOPIC', 'There is no help on "dancing". Type "help" for the list.'),
    );
  });

  it('examines room details, creatures, NPCs and items, and considers a creature', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:square' });
    ann.inventory.set('village:stick', 1);
    spawnCreature(sim.ctx, world.creatures.get('village:chicken')!, 'village:square', 'p');
    expect(typed(sim, 'ann', 'look at statue')).toEqual([
      'The founder, Aldric Thorn, leans on a spade rather than a sword. Someone has tucked a sprig of heather behind his stone ear.',
    ]);
    expect(typed(sim, 'ann', 'x hen')[0]).toMatch(/ It looks calm \(4\/4 health\)\.$/);
    expect(typed(sim, 'ann', 'examine maren')).toEqual([world.npcs.get('village:elder')!.description]);
    expect(typed(sim, 'ann', 'examine stick')[0]).toBe(world.items.get('village:stick')!.description);
    expect(typed(sim, 'ann', 'consider hen')).toEqual([
      'The speckled hen (level 1) would be an even match for you. Your attack 2, defense 0.',
    ]);
    expect(() => typed(sim, 'ann', 'examine dragon')).toThrow(
      new ActionRejectedError('NO_SUCH_THING', 'You see no "dragon" here.'),
    );
  });

  it('shows the quest log, the recipe book and the character sheet', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:square' });
    expect(typed(sim, 'ann', 'quests')).toEqual([
      'Your quest log is empty. Talk to people: someone always needs a hand.',
    ]);
    typed(sim, 'ann', 'quest accept first steps');
    expect(typed(sim, 'ann', 'journal')).toEqual([
      [
        'First Steps (for Elder Maren)',
        `  ${world.quests.get('village:first_steps')!.description}`,
        '  [ ] Talk to Brandal the smith (0/1)',
        '  [ ] Visit East Gate (0/1)',
      ].join('\n'),
    ]);
    ann.inventory.set('village:cloth', 2);
    const [book] = typed(sim, 'ann', 'recipes');
    expect(book.split('\n')[0]).toBe('* Roll a bandage: bolt of cloth 2/2');
    const [sheet] = typed(sim, 'ann', 'score');
    expect(sheet.split('\n').slice(0, 3)).toEqual([
      'Ann, level 1 (0 xp; level 2 at 10).',
      'Health 30/30. Coins 10. Attack 2, defense 0.',
      'Paths: Chaos 0, Craft 0, Labor 0, Trade 0, Wisdom 0.',
    ]);
  });

  // Issue 39: the map shows the neighbourhood, with the exits of visited rooms leading to unexplored ones ([?]).
  it('draws the visited rooms of the area as a map, and where their exits lead', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    for (const line of ['e', 'w', 'n', 's', 's']) typed(sim, 'ann', line);
    expect(typed(sim, 'ann', 'map')).toEqual([
      [
        'Thornwick Village — you are in The Sleeping Boar Inn [@]',
        '    [ ] [?]',
        '     |   |',
        '[?]-[ ]-[ ]-[?]',
        '     |',
        '    [@]-[?]',
        'The Sleeping Boar Inn: down',
        '[?] not explored yet.',
      ].join('\n'),
    ]);
  });

  it('group mates in the room share kill credit', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:cellar', level: 5 });
    const bob = sim.addPlayer('bob', { roomRef: 'village:cellar' });
    const cat = sim.addPlayer('cat', { roomRef: 'village:cellar' });
    runAction(sim.ctx, 'ann', { action: 'group', op: 'invite', player: 'bob' });
    runAction(sim.ctx, 'bob', { action: 'group', op: 'accept' });
    spawnCreature(sim.ctx, world.creatures.get('village:rat')!, 'village:cellar', 'p');
    runAction(sim.ctx, 'ann', { action: 'attack', target: 'rat' });
    for (let round = 0; round < 20 && sim.ctx.state.creatures.size > 0; round++) combatRound(sim.ctx);
    expect(sim.ctx.state.creatures.size).toBe(0);
    expect([ann.xp, bob.xp, cat.xp]).toEqual([4, 4, 0]);
    expect(sim.published.filter((e) => e.type === 'creature.killed')).toEqual([
      {
        type: 'creature.killed',
        areaId: 'village',
        roomRef: 'village:cellar',
        creature: 'village:rat',
        userIds: ['ann', 'bob'],
      },
    ]);
  });

  it('dialogue choices move an NPC once, warmly or coldly, and some open only after a quest', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    expect(typed(sim, 'ann', 'ask elder about founder')[0]).toMatch(
      /^You: "Tell me about the man on the statue."\nElder Maren says: "Aldric Thorn\./,
    );
    expect(sim.journals.get('ann')!.relations.get('village:elder')).toBe(1);
    typed(sim, 'ann', 'ask elder about founder');
    expect(sim.journals.get('ann')!.relations.get('village:elder')).toBe(1);
    typed(sim, 'ann', 'ask maren about chickens');
    expect(sim.journals.get('ann')!.relations.get('village:elder')).toBe(0);
    expect(() => typed(sim, 'ann', 'ask elder about dragons')).toThrow(
      new ActionRejectedError('NO_SUCH_TOPIC', 'Elder Maren has nothing to say about "dragons".'),
    );
    const marsh = buildSim(world, 'marsh');
    marsh.addPlayer('bob', { roomRef: 'marsh:stilt_village' });
    expect(() => typed(marsh, 'bob', 'ask nettie about sallowby')).toThrow(
      new ActionRejectedError('NO_SUCH_TOPIC', 'Old Nettie has nothing to say about "sallowby".'),
    );
    marsh.journals.get('bob')!.quests.set('marsh:leech_cure', { status: 'completed', counts: [3] });
    expect(typed(marsh, 'bob', 'talk nettie').at(-1)!.split('\n').at(-1)).toBe(
      'You could ask about: sallowby, smell.',
    );
  });

  it('a daily quest can be taken again a day after it was completed', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:chapel' });
    sim.journals.get('ann')!.quests.set('village:herbs_for_healer', { status: 'completed', counts: [3] });
    ann.inventory.set('forest:herb', 4);
    typed(sim, 'ann', 'quest accept herb round');
    expect(typed(sim, 'ann', 'quest complete herb round')[0]).toBe(
      'Quest complete: The Herb Round! Rewards: 10 xp, 8 coins.',
    );
    expect(() => typed(sim, 'ann', 'quest accept herb round')).toThrow(
      new ActionRejectedError('QUEST_DONE', 'You have done "The Herb Round" today; come back tomorrow.'),
    );
    sim.clock.advance(24 * 60 * 60 * 1000);
    expect(typed(sim, 'ann', 'quest accept herb round')[0]).toBe(
      'Quest accepted: The Herb Round. [x] Collect 2 sprigs of moonleaf (2/2)',
    );
  });

  it('skills rise with use and move the player along the forge paths', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:square' });
    for (let i = 0; i < 4; i++) typed(sim, 'ann', 'talk elder');
    expect(ann.skills.get('lore')).toBe(4);
    expect(typed(sim, 'ann', 'talk elder')).toContain('You advance on the path of Wisdom to level 1.');
    expect(typed(sim, 'ann', 'stats')[0].split('\n')[2]).toBe(
      'Paths: Chaos 0, Craft 0, Labor 0, Trade 0, Wisdom 1.',
    );
  });
});

describe('talking between players and groups over the SDK', () => {
  let game: GameServer;
  beforeEach(async () => {
    game = await startGameServer();
  });
  afterEach(async () => {
    await game.shutdown();
  });

  it('emotes to the room, whispers to one player and shouts to the whole area', async () => {
    const ann = await joinArea(game, 'ann');
    const bob = await joinArea(game, 'bob');
    const cat = await joinArea(game, 'cat');
    await cat.room.request('command', { line: 'e' });
    await ann.room.request('command', { line: ':waves' });
    await ann.room.request('command', { line: 'whisper bob meet me at the gate' });
    await ann.room.request('command', { line: 'shout Rats in the cellar!' });
    game.tick();
    await bob.log.waitFor((e) => e.text === 'Ann waves.');
    await bob.log.waitFor((e) => e.text === 'Ann whispers to you: "meet me at the gate"');
    await cat.log.waitFor((e) => e.text === 'Ann shouts: "Rats in the cellar!"');
    expect(ann.log.texts()).toEqual(
      expect.arrayContaining([
        'You whisper to Bob: "meet me at the gate"',
        'You shout: "Rats in the cellar!"',
      ]),
    );
    expect(cat.log.texts().filter((t) => t.includes('whisper') || t.includes('waves'))).toEqual([]);
    await ann.room.request('command', { line: 'who' });
    expect((await ann.log.waitFor((e) => e.type === 'who')).text).toBe(
      'In Thornwick Village: Ann (level 1, Village Square), Bob (level 1, Village Square), Cat (level 1, Market Row).',
    );
  });

  it('forms and leaves a group', async () => {
    const ann = await joinArea(game, 'ann');
    const bob = await joinArea(game, 'bob');
    await ann.room.request('command', { line: 'group invite bob' });
    game.tick();
    expect((await bob.log.waitFor((e) => e.type === 'group.invited')).text).toBe(
      'Ann invites you to travel together. Type "group accept" to join.',
    );
    await bob.room.request('command', { line: 'group accept' });
    game.tick();
    await ann.log.waitFor((e) => e.text === 'Bob joins your group.');
    await bob.room.request('command', { line: 'group' });
    expect((await bob.log.waitFor((e) => e.type === 'group.members')).text).toBe('Your group: Ann, Bob.');
    await bob.room.request('command', { line: 'group leave' });
    game.tick();
    await ann.log.waitFor((e) => e.text === 'Bob leaves your group.');
  });
});
