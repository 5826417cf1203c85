import { parseCommandLine } from '../../rooms/commands/commandLine';
import { type GameServer, joinArea, startGameServer, waitForState } from '../helpers/gameServer';

describe('parseCommandLine', () => {
  it.each([
    ['n', { action: 'move', direction: 'north' }],
    ['go down', { action: 'move', direction: 'down' }],
    ['LOOK', { action: 'look' }],
    ['attack cellar rat', { action: 'attack', target: 'cellar rat' }],
    ['talk to elder', { action: 'talk', npc: 'elder' }],
    ['take 2 moonleaf', { action: 'take', item: 'moonleaf', qty: 2 }],
    ['give 3 bread to Ann', { action: 'give', item: 'bread', qty: 3, to: 'Ann' }],
    ['buy sword from smith', { action: 'buy', item: 'sword', from: 'smith' }],
    ["'hello there", { action: 'say', text: 'hello there' }],
    ['say  hello   all', { action: 'say', text: 'hello all' }],
    ['answer a mountain', { action: 'say', text: 'a mountain' }],
    ['quest accept herbs for the healer', { action: 'quest', op: 'accept', quest: 'herbs for the healer' }],
    ['quest', { action: 'quest', op: 'progress' }],
    ['quest first steps', { action: 'quest', op: 'accept', quest: 'first steps' }],
    ['accept', { action: 'quest', op: 'accept' }],
    ['yes', { action: 'quest', op: 'accept' }],
    ['accept the herb round', { action: 'quest', op: 'accept', quest: 'the herb round' }],
    ['complete', { action: 'quest', op: 'complete' }],
    ['i', { action: 'inventory' }],
  ])('%s', (line, action) => {
    expect(parseCommandLine(line)).toEqual(action);
  });

  it('names the unknown verb and the missing argument', () => {
    expect(() => parseCommandLine('teleport home')).toThrow(
      'Unknown command "teleport". Type "help" for the commands you can use.',
    );
    expect(() => parseCommandLine('attack')).toThrow('"attack" needs target: try "attack <target>".');
    expect(() => parseCommandLine('give bread')).toThrow(
      'Say who to give it to: "give <item> to <someone>".',
    );
    expect(() => parseCommandLine('go sideways')).toThrow('"sideways" is not a direction');
    expect(() => parseCommandLine('constructor')).toThrow('Unknown command "constructor".');
  });
});

describe('the command action over the SDK', () => {
  let game: GameServer;
  beforeEach(async () => {
    game = await startGameServer();
  });
  afterEach(async () => {
    await game.shutdown();
  });

  it('runs a typed line as the action it names, and rejects a bad one with 400 INVALID_ACTION', async () => {
    const { room } = await joinArea(game, 'ann');
    await room.request('command', { line: 's' });
    await waitForState(room, (state) => state.players.get('ann')?.roomRef === 'village:inn');
    await expect(room.request('command', { line: 'dance wildly' })).rejects.toMatchObject({
      reason: {
        status: 400,
        code: 'INVALID_ACTION',
        message: expect.stringContaining('Unknown command "dance"'),
      },
    });
  });
});
