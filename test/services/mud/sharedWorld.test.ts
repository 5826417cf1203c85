import type { Room } from '@colyseus/sdk';
import type { AreaState } from '../../../rooms/state/AreaState';
import { waitForState } from '../../helpers/gameServer';
import type { TestPlatform } from '../../helpers/platform';
import {
  ChannelClient,
  type Player,
  act,
  joinWithSdk,
  signIn,
  startWorldPlatform,
  textsOf,
} from './worldPlatform';

const nameOf = (player: Player) => `Traveller-${player.userId.slice(-6)}`;

describe('one authoritative world for SDK, REST and plain-WebSocket players', () => {
  let server: TestPlatform;
  const rooms: Room[] = [];
  const channels: ChannelClient[] = [];

  beforeAll(async () => {
    server = await startWorldPlatform();
  });
  afterEach(async () => {
    await Promise.all(channels.splice(0).map((channel) => channel.close()));
    await Promise.all(rooms.splice(0).map((room) => room.leave().catch(() => undefined)));
  });
  afterAll(() => server.stop());

  const sdk = async (player: Player) => {
    const joined = await joinWithSdk(server.url, player);
    rooms.push(joined.room);
    return joined;
  };

  it('several SDK clients in one area see each other arrive, move and speak', async () => {
    const [ann, bob, cid] = await Promise.all([signIn(server.url), signIn(server.url), signIn(server.url)]);
    const annSide = await sdk(ann);
    const bobSide = await sdk(bob);
    const cidSide = await sdk(cid);
    await annSide.log.waitFor((e) => e.text === `${nameOf(cid)} arrives.`);
    await waitForState(annSide.room, (state: AreaState) => state.players.size >= 3);

    expect(await bobSide.room.request('move', { direction: 'east' })).toEqual({ ok: true });
    for (const side of [annSide, cidSide]) {
      await side.log.waitFor((e) => e.type === 'player.left' && e.text === `${nameOf(bob)} leaves east.`);
      // Players are synchronised per room: Bob, now in the market, leaves the square's clients' state.
      await waitForState(side.room, (state: AreaState) => !state.players.has(bob.userId));
    }
    cidSide.room.send('move', { direction: 'east' });
    await bobSide.log.waitFor((e) => e.text === `${nameOf(cid)} arrives.`);
    await waitForState(
      bobSide.room,
      (state: AreaState) => state.players.has(cid.userId) && !state.players.has(ann.userId),
    );
    cidSide.room.send('say', { text: 'wait for me' });
    expect((await bobSide.log.waitFor((e) => e.type === 'chat.said')).text).toBe(
      `${nameOf(cid)} says: "wait for me"`,
    );
    expect(annSide.log.events.some((e) => e.text.includes('wait for me'))).toBe(false);
  });

  it('REST, SDK and plain-WebSocket players share the same room actor', async () => {
    const [ann, bob, cid] = await Promise.all([signIn(server.url), signIn(server.url), signIn(server.url)]);
    const annSide = await sdk(ann);
    const bobChannel = await ChannelClient.open(server.url, bob.userId, bob.token);
    channels.push(bobChannel);
    await annSide.log.waitFor((e) => e.text === `${nameOf(bob)} arrives.`);

    const spoke = await act(server.url, cid, { action: 'say', text: 'hello from REST' }).expect(200);
    expect(textsOf(spoke.body.events)).toEqual(['You say: "hello from REST"']);
    await annSide.log.waitFor((e) => e.text === `${nameOf(cid)} says: "hello from REST"`);
    await bobChannel.waitFor(
      (f) => f.type === 'event' && f.event.text === `${nameOf(cid)} says: "hello from REST"`,
    );

    bobChannel.send({ action: 'say', text: 'hello from a socket', id: 's' });
    await bobChannel.waitFor((f) => f.type === 'result' && f.id === 's');
    await annSide.log.waitFor((e) => e.text === `${nameOf(bob)} says: "hello from a socket"`);

    // The REST player picks up a stick and hands it to the socket player; everyone sees it once.
    await act(server.url, cid, { action: 'take', item: 'stick', qty: 1 }).expect(200);
    const given = await act(server.url, cid, { action: 'give', item: 'stick', to: nameOf(bob) }).expect(200);
    expect(textsOf(given.body.events).at(-1)).toBe(`You give sturdy stick to ${nameOf(bob)}.`);
    await bobChannel.waitFor(
      (f) => f.type === 'event' && f.event.text === `${nameOf(cid)} gives sturdy stick to you.`,
    );
    // Another player's inventory is private (StateView): the SDK player's state shows Bob, not his pockets.
    await waitForState(annSide.room, (state: AreaState) => state.players.has(bob.userId));
    expect(annSide.room.state.players.get(bob.userId)!.inventory?.size ?? 0).toBe(0);
    const bobsPockets = await act(server.url, bob, { action: 'inventory' }).expect(200);
    expect(textsOf(bobsPockets.body.events).at(-1)).toMatch(/^You carry: sturdy stick\./);

    // The SDK player walks away: the socket player sees it, and the REST player's next call reports it.
    await annSide.room.request('move', { direction: 'north' });
    await bobChannel.waitFor((f) => f.type === 'event' && f.event.text === `${nameOf(ann)} leaves north.`);
    const looked = await act(server.url, cid, { action: 'look' }).expect(200);
    expect(textsOf(looked.body.events)).toContain(`${nameOf(ann)} leaves north.`);
    expect(looked.body.events.at(-1).data.room.players).toEqual(
      expect.arrayContaining([nameOf(bob), nameOf(cid)]),
    );
  });
});
