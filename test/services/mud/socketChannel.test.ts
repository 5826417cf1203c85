import type { AreaState } from '../../../rooms/state/AreaState';
import { waitForState } from '../../helpers/gameServer';
import type { TestPlatform } from '../../helpers/platform';
import { ChannelClient, type Player, act, joinWithSdk, signIn, startWorldPlatform } from './worldPlatform';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the handshake to be refused');
    },
    (error: { status?: number; body?: unknown }) => ({ status: error.status, body: error.body }),
  );

describe('WS /mud/ws/{user_id}: the plain WebSocket channel', () => {
  let server: TestPlatform;
  let ann: Player;
  const open: ChannelClient[] = [];

  beforeAll(async () => {
    server = await startWorldPlatform();
  });
  afterAll(() => server.stop());
  beforeEach(async () => {
    ann = await signIn(server.url);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((channel) => channel.close()));
  });

  const connect = async (player: Player) => {
    const channel = await ChannelClient.open(server.url, player.userId, player.token);
    open.push(channel);
    await channel.waitFor((f) => f.type === 'result');
    return channel;
  };

  it('refuses handshakes without a valid token, for another user, or off the channel path', async () => {
    expect(await refusal(ChannelClient.open(server.url, ann.userId))).toEqual({
      status: 401,
      body: expect.objectContaining({ code: 'UNAUTHENTICATED', type: '/problems/unauthenticated' }),
    });
    expect(await refusal(ChannelClient.open(server.url, ann.userId, 'fps_forged'))).toEqual({
      status: 401,
      body: expect.objectContaining({ code: 'INVALID_CREDENTIAL' }),
    });
    const bob = await signIn(server.url);
    expect(await refusal(ChannelClient.open(server.url, bob.userId, ann.token))).toEqual({
      status: 403,
      body: expect.objectContaining({
        code: 'CHANNEL_FORBIDDEN',
        detail: 'You can only open your own channel',
      }),
    });
    expect(await refusal(ChannelClient.open(server.url, `${ann.userId}/extra`, ann.token))).toMatchObject({
      status: 404,
    });
  });

  it('describes the room on open, runs action frames and answers each with events and a result', async () => {
    const channel = await connect(ann);
    expect(channel.frames.slice(0, 2).map((f) => f.type)).toEqual(['event', 'result']);
    expect(channel.texts()[0]).toMatch(/^Village Square\n/);

    channel.send({ action: 'move', direction: 'east', id: 'm1' });
    const result = await channel.next((f) => f.type === 'result' && f.id === 'm1');
    expect(result).toEqual({
      type: 'result',
      id: 'm1',
      result: expect.objectContaining({ user_id: ann.userId, area_id: 'village', room: 'village:market' }),
    });
    expect(channel.texts()).toContainEqual(expect.stringMatching(/^Market Row\n/));

    channel.send({ action: 'take', item: 'rope', id: 't1' });
    await channel.next((f) => f.type === 'result' && f.id === 't1');
    expect(channel.texts()).toContain('You take coil of rope.');
  });

  it('answers malformed and refused frames with error frames, changing nothing', async () => {
    const channel = await connect(ann);
    const notAnObject = 'A frame must be a JSON object in a text message, e.g. {"action":"look"}.';
    const cases: Array<[unknown, object]> = [
      ['not json', { status: 400, code: 'MALFORMED_FRAME', message: notAnObject }],
      [[1, 2], { status: 400, code: 'MALFORMED_FRAME', message: notAnObject }],
      [
        { action: 'move', direction: 'east', id: 42 },
        { status: 400, code: 'MALFORMED_FRAME', message: '"id" must be a string of 1-64 characters.' },
      ],
      [
        { action: 'move', direction: 'sideways', id: 'bad' },
        {
          id: 'bad',
          status: 400,
          code: 'INVALID_ACTION',
          message: expect.stringMatching(/^Invalid action: direction: /),
          errors: [{ path: 'direction', message: expect.stringContaining('expected one of') }],
        },
      ],
      [
        { action: 'teleport', to: 'caves:deep_pool' },
        { status: 400, code: 'INVALID_ACTION', message: expect.any(String), errors: expect.any(Array) },
      ],
      [
        { action: 'move', direction: 'up', id: 'up' },
        { id: 'up', status: 409, code: 'NO_EXIT', message: 'You cannot go up from here.' },
      ],
    ];
    for (const [frame, expected] of cases) {
      channel.send(frame);
      expect(await channel.next((f) => f.type === 'error')).toEqual({ type: 'error', ...expected });
    }
    channel.socket.send(Buffer.from('{"action":"look"}'), { binary: true });
    expect(await channel.next((f) => f.type === 'error')).toMatchObject({ code: 'MALFORMED_FRAME' });

    channel.send({ action: 'look', id: 'after' });
    const after = await channel.next((f) => f.type === 'result' && f.id === 'after');
    expect(after).toMatchObject({ result: { room: 'village:square' } });
  });

  it('accepts the token as a subprotocol (browsers) and streams what others do', async () => {
    const channel = await ChannelClient.open(server.url, ann.userId, ann.token, 'subprotocol');
    open.push(channel);
    expect(channel.socket.protocol).toBe('mud.v1');
    await channel.waitFor((f) => f.type === 'result');

    const bob = await signIn(server.url);
    await act(server.url, bob, { action: 'say', text: 'anyone here?' }).expect(200);
    const bobName = `Traveller-${bob.userId.slice(-6)}`;
    expect(
      await channel.waitFor((f) => f.type === 'event' && f.event.text === `${bobName} says: "anyone here?"`),
    ).toMatchObject({ event: { type: 'chat.said', channel: 'chat' } });
  });

  it('lets the player leave the world (saved) when the channel closes', async () => {
    const bob = await signIn(server.url);
    const watcher = await joinWithSdk(server.url, bob);
    const channel = await connect(ann);
    const annName = `Traveller-${ann.userId.slice(-6)}`;
    await watcher.log.waitFor((e) => e.text === `${annName} arrives.`);
    channel.send({ action: 'take', item: 'stick', qty: 1, id: 'take' });
    await channel.next((f) => f.type === 'result' && f.id === 'take');
    await channel.close();
    await watcher.log.waitFor((e) => e.text === `${annName} leaves.`);
    await waitForState(watcher.room, (state: AreaState) => !state.players.has(ann.userId));
    const inventory = await act(server.url, ann, { action: 'inventory' }).expect(200);
    expect(inventory.body.events.at(-1).text).toMatch(/^You carry: sturdy stick\./);
    await watcher.room.leave();
  });
});
