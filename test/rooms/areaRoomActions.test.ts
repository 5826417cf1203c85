import { type GameServer, joinArea, startGameServer, waitForState } from '../helpers/gameServer';

async function requestError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return (error as { reason?: unknown }).reason ?? error;
  }
  throw new Error('expected the request to be rejected');
}

describe('AreaRoom actions over the SDK', () => {
  let game: GameServer;

  beforeEach(async () => {
    game = await startGameServer();
  });

  afterEach(async () => {
    await game.shutdown();
  });

  it("fights a rat over combat ticks and watches the creatures' emotions change", async () => {
    const { room, log } = await joinArea(game, 'ann');
    await room.request('move', { direction: 'south' });
    const before = log.events.length;
    await room.request('move', { direction: 'down' });
    const curious = await log.waitFor((e) => e.type === 'creature.emotion', 5000, before);
    // Three rats share the cellar: each line names which one (issue 39).
    expect(curious.text).toBe('The first cellar rat watches you curiously.');
    await room.request('attack', { target: 'rat' });
    await log.waitFor((e) => e.text === 'The first cellar rat bristles defensively.');
    // Combat rounds come every 5 ticks; the seeded fight is over well within 30 rounds.
    game.tick(150);
    const died = await log.waitFor((e) => e.type === 'creature.died');
    expect(died.text).toBe('The first cellar rat dies at your hand.');
    await log.waitFor((e) => e.type === 'xp.gained' && e.text === 'You gain 4 experience.');
    await log.waitFor((e) => e.text === 'The first cellar rat shrinks back, frightened.');
  });

  it('flees a fight and then rests', async () => {
    const { room, log } = await joinArea(game, 'ann');
    const me = () => room.state.players.get('ann')!;
    await room.request('attack', { target: 'hen' });
    await log.waitFor((e) => e.text === 'The first speckled hen bristles defensively.');
    expect(await requestError(room.request('rest'))).toEqual({
      status: 409,
      code: 'IN_COMBAT',
      message: 'You cannot rest while fighting.',
    });
    let outcome = '';
    for (let tries = 0; outcome !== 'flee.succeeded' && tries < 20; tries++) {
      const before = log.events.length;
      await room.request('flee');
      outcome = (
        await log.waitFor((e) => e.type === 'flee.succeeded' || e.type === 'flee.failed', 5000, before)
      ).type;
    }
    await waitForState(room, () => me().status === 'idle' && me().roomRef !== 'village:square');
    expect(await room.request('rest')).toEqual({ ok: true });
    expect((await log.waitFor((e) => e.type === 'rest.started')).text).toBe('You sit down to rest.');
    await waitForState(room, () => me().status === 'resting');
  });

  it('talks to an NPC, takes items and crafts a bandage', async () => {
    const { room, log } = await joinArea(game, 'ann');
    await room.request('talk', { npc: 'elder' });
    const said = await log.waitFor((e) => e.type === 'npc.said');
    expect(said.text).toBe('Elder Maren says: "Welcome to Thornwick, traveller. Mind the chickens."');
    expect((await log.waitFor((e) => e.type === 'npc.offers')).text).toBe(
      'Elder Maren has work for you: First Steps. Type "accept" to take it.\nYou could ask about: founder, chickens.',
    );

    await room.request('move', { direction: 'east' });
    await room.request('take', { item: 'cloth' });
    expect((await log.waitFor((e) => e.type === 'item.taken')).text).toBe('You take bolt of cloth x3.');
    await room.request('craft', { recipe: 'bandage' });
    expect((await log.waitFor((e) => e.type === 'craft.done')).text).toBe('You craft linen bandage.');
    expect(await requestError(room.request('craft', { recipe: 'bandage' }))).toEqual({
      status: 409,
      code: 'MISSING_INGREDIENTS',
      message: 'You need 1 more bolt of cloth.',
    });
    await room.request('inventory');
    expect((await log.waitFor((e) => e.type === 'inventory')).text).toBe(
      'You carry: bolt of cloth, linen bandage.\nEquipped: nothing.\nHealth 30/30. Coins: 10. Gems: 0.',
    );
  });

  it('completes a quest end to end: accept, talk, visit, return, rewards', async () => {
    const { room, log } = await joinArea(game, 'ann');
    await room.request('quest', { op: 'accept', quest: 'first steps' });
    expect((await log.waitFor((e) => e.type === 'quest.accepted')).text).toBe(
      'Quest accepted: First Steps. [ ] Talk to Brandal the smith (0/1); [ ] Visit East Gate (0/1)',
    );
    for (const step of [
      { action: 'move', direction: 'west' },
      { action: 'talk', npc: 'smith' },
      { action: 'move', direction: 'east' },
      { action: 'move', direction: 'east' },
      { action: 'move', direction: 'east' },
      { action: 'move', direction: 'west' },
      { action: 'move', direction: 'west' },
    ]) {
      await room.request('action', step);
    }
    await room.request('quest', { op: 'complete', quest: 'first steps' });
    expect((await log.waitFor((e) => e.type === 'quest.completed')).text).toBe(
      'Quest complete: First Steps! Rewards: 10 xp, 5 coins, wooden sword x1.',
    );
    await room.request('equip', { item: 'wooden sword' });
    expect((await log.waitFor((e) => e.type === 'item.equipped')).text).toBe('You equip wooden sword.');
    await waitForState(
      room,
      (state) => state.players.get('ann')?.equipment.get('weapon') === 'village:wooden_sword',
    );
  });

  it('rejects malformed and unknown messages with exact errors, changing nothing', async () => {
    const { room, log } = await joinArea(game, 'ann');
    expect(await requestError(room.request('move', { direction: 'sideways' }))).toEqual({
      status: 400,
      code: 'INVALID_ACTION',
      message:
        'Invalid action: direction: Invalid option: expected one of "north"|"south"|"east"|"west"|"up"|"down"|"in"|"out"',
      errors: [
        {
          path: 'direction',
          message: 'Invalid option: expected one of "north"|"south"|"east"|"west"|"up"|"down"|"in"|"out"',
        },
      ],
    });
    expect(await requestError(room.request('move', { direction: 'up' }))).toEqual({
      status: 409,
      code: 'NO_EXIT',
      message: 'You cannot go up from here.',
    });
    room.send('teleport', { to: 'caves:deep_pool' });
    expect(await log.next('error')).toEqual({
      type: 'error',
      channel: 'system',
      text: 'Unknown action "teleport".',
      data: { code: 'UNKNOWN_ACTION' },
    });
    room.send('say', { text: '' });
    expect((await log.next('error')).data).toMatchObject({ status: 400, code: 'INVALID_ACTION' });
    expect(room.state.players.get('ann')!.roomRef).toBe('village:square');
  });

  it('refuses to join without a valid session token and closes the socket', async () => {
    // The SDK warns when the server closes a socket that never joined; capture it so the close is observed
    // inside the test instead of arriving after it.
    let closed!: () => void;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    const warn = jest.spyOn(console, 'warn').mockImplementation((message: unknown) => {
      if (String(message).startsWith('Room connection was closed')) closed();
    });
    try {
      const anonymous = game.client('x');
      anonymous.auth.token = 'forged';
      await expect(anonymous.joinOrCreate('area_village')).rejects.toMatchObject({
        code: 4401,
        message: 'UNAUTHENTICATED: a valid session token is required',
      });
      await socketClosed;
    } finally {
      warn.mockRestore();
    }
  });
});
