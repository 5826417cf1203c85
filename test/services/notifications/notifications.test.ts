import { Wallet } from 'ethers';
import request from 'supertest';
import { NotificationSocket, refusalOf } from '../../helpers/notificationSocket';
import type { TestPlatform } from '../../helpers/platform';
import {
  SERVICE_TOKEN,
  type User,
  fund,
  listNotifications,
  listWhen,
  signIn,
  startNotificationsPlatform,
  transfer,
} from './notificationsPlatform';

describe('notifications: GET /notifications, POST /notifications/read, WS /notifications/ws', () => {
  let server: TestPlatform;
  let ann: User;
  let bob: User;
  const open: NotificationSocket[] = [];

  beforeAll(async () => {
    server = await startNotificationsPlatform({ NOTIFICATIONS_NOISY_PER_HOUR: '4' });
  });
  afterAll(() => server.stop());
  beforeEach(async () => {
    [ann, bob] = await Promise.all([signIn(server.url), signIn(server.url)]);
    await fund(server.url, ann.userId, 100);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((socket) => socket.close()));
  });

  const connect = async (user: User, path?: string) => {
    const socket = await NotificationSocket.open(server.url, user.token, { path });
    open.push(socket);
    return socket;
  };

  it('delivers a transfer live, lists it after a reconnect, and replays nothing twice', async () => {
    const live = await connect(bob);
    expect(live.frames[0]).toEqual({ type: 'ready', user_id: bob.userId, unread: 0 });
    await transfer(server.url, ann, bob, 7);
    await live.waitForNotifications(1);
    const [first] = live.notifications();
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      kind: 'economy.transfer_received',
      payload: expect.objectContaining({ from: ann.userId, amount: '7', currency: 'soft' }),
      created_at: expect.any(String),
      read_at: null,
    });
    await live.close();

    await transfer(server.url, ann, bob, 3); // while disconnected: kept for later
    const again = await connect(bob, `/notifications/ws?after=${first.id}`);
    await again.waitForNotifications(1);
    expect(again.frames[0]).toEqual({ type: 'ready', user_id: bob.userId, unread: 2 });
    expect(again.notifications().map((n) => n.payload.amount)).toEqual(['3']);

    const { body } = await listNotifications(server.url, bob).expect(200);
    expect(body.notifications.map((n: { payload: { amount: string } }) => n.payload.amount)).toEqual([
      '3',
      '7',
    ]);
    expect(new Set(body.notifications.map((n: { id: string }) => n.id)).size).toBe(2);
    expect(body).toMatchObject({ next_cursor: null, unread_count: 2 });
  });

  it('tells the seller of a sale and its buyer', async () => {
    const listing = await request(server.url)
      .post('/marketplace/listings')
      .set('Authorization', `Bearer ${bob.token}`)
      .send({ item: 'content:map-of-thornwick', price: { currency: 'soft', amount: '20' } })
      .expect(201);
    await request(server.url)
      .post(`/marketplace/listings/${listing.body.id}/buy`)
      .set('Authorization', `Bearer ${ann.token}`)
      .send({ idempotency_key: `buy-key-${listing.body.id}` })
      .expect(201);
    const sold = (await listWhen(server.url, bob, (b) => b.notifications.length > 0)).notifications;
    expect(sold).toContainEqual(
      expect.objectContaining({
        kind: 'marketplace.sale',
        payload: expect.objectContaining({
          listing: listing.body.id,
          buyer: ann.userId,
          amount: '20',
          fee: 1,
        }),
      }),
    );
    const bought = (await listWhen(server.url, ann, (b) => b.notifications.length > 0)).notifications;
    expect(bought).toContainEqual(
      expect.objectContaining({
        kind: 'marketplace.purchase',
        payload: expect.objectContaining({ listing: listing.body.id, seller: bob.userId, amount: '20' }),
      }),
    );
  });

  it('pages with a cursor and marks read only the caller’s own notifications', async () => {
    await transfer(server.url, ann, bob, 1);
    await transfer(server.url, ann, bob, 2);
    await transfer(server.url, ann, bob, 3);
    await listWhen(server.url, bob, (b) => b.notifications.length === 3);
    const first = (await listNotifications(server.url, bob, '?limit=2').expect(200)).body;
    expect(first.notifications.map((n: { payload: { amount: string } }) => n.payload.amount)).toEqual([
      '3',
      '2',
    ]);
    const second = (
      await listNotifications(server.url, bob, `?limit=2&cursor=${first.next_cursor}`).expect(200)
    ).body;
    expect(second.notifications.map((n: { payload: { amount: string } }) => n.payload.amount)).toEqual(['1']);
    expect(second.next_cursor).toBeNull();

    const ids = first.notifications.map((n: { id: string }) => n.id);
    await request(server.url)
      .post('/notifications/read')
      .set('Authorization', `Bearer ${ann.token}`)
      .send({ ids })
      .expect(200, { updated: 0, unread_count: 0 });
    await request(server.url)
      .post('/notifications/read')
      .set('Authorization', `Bearer ${bob.token}`)
      .send({ ids })
      .expect(200, { updated: 2, unread_count: 1 });
    const unread = (await listNotifications(server.url, bob, '?unread=true').expect(200)).body;
    expect(unread.notifications.map((n: { payload: { amount: string } }) => n.payload.amount)).toEqual(['1']);
  });

  it('rejects malformed read marks and cursors with 400, changing nothing', async () => {
    const bad = await request(server.url)
      .post('/notifications/read')
      .set('Authorization', `Bearer ${bob.token}`)
      .send({ ids: ['nope'] })
      .expect(400);
    expect(bad.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [expect.objectContaining({ path: 'body.ids.0' })],
    });
    await listNotifications(server.url, bob, '?cursor=zzz').expect(400);
    await request(server.url).get('/notifications').expect(401);
  });

  it('caps a noisy kind per user and hour (NOTIFICATIONS_NOISY_PER_HOUR)', async () => {
    for (let i = 1; i <= 6; i += 1) await transfer(server.url, ann, bob, i);
    const body = await listWhen(server.url, bob, (b) => b.notifications.length >= 4);
    expect(body.notifications.map((n: { payload: { amount: string } }) => n.payload.amount)).toEqual([
      '4',
      '3',
      '2',
      '1',
    ]);
  });

  it('alerts a user when a new wallet is linked to their account', async () => {
    const live = await connect(ann);
    const second = Wallet.createRandom();
    await signIn(server.url, second, ann.token);
    await live.waitForNotifications(1);
    expect(live.notifications()[0]).toMatchObject({
      kind: 'security.new_wallet',
      payload: { address: second.address },
    });
  });

  it('opens only your own stream: 401 without or with a bad token, 403 for another user or the service token', async () => {
    expect(await refusalOf(NotificationSocket.open(server.url))).toEqual({
      status: 401,
      body: expect.objectContaining({ code: 'UNAUTHENTICATED', instance: '/notifications/ws' }),
    });
    expect(await refusalOf(NotificationSocket.open(server.url, 'fps_forged'))).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIAL' },
    });
    expect(
      await refusalOf(
        NotificationSocket.open(server.url, ann.token, { path: `/notifications/ws/${bob.userId}` }),
      ),
    ).toMatchObject({
      status: 403,
      body: { code: 'CHANNEL_FORBIDDEN', detail: 'You can only open your own notifications' },
    });
    expect(await refusalOf(NotificationSocket.open(server.url, SERVICE_TOKEN))).toMatchObject({
      status: 403,
      body: { code: 'CHANNEL_FORBIDDEN' },
    });
    const own = await connect(ann, `/notifications/ws/${ann.userId}`);
    expect(own.frames[0]).toMatchObject({ type: 'ready', user_id: ann.userId });
    const browser = await NotificationSocket.open(server.url, bob.token, { via: 'subprotocol' });
    open.push(browser);
    expect(browser.socket.protocol).toBe('notifications.v1');
  });

  it('answers a plain GET of the socket path with 426', async () => {
    const res = await request(server.url)
      .get('/notifications/ws')
      .set('Authorization', `Bearer ${ann.token}`);
    expect(res.status).toBe(426);
    expect(res.body).toMatchObject({ code: 'UPGRADE_REQUIRED' });
  });
});
