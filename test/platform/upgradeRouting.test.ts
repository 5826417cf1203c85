import { matchMaker } from '@colyseus/core';
import WebSocket from 'ws';
import { socketOpened } from '../helpers/handshake';
import { refusalOf } from '../helpers/notificationSocket';
import type { TestPlatform } from '../helpers/platform';
import { joinWithSdk, signIn, startWorldPlatform, type Player } from '../services/mud/worldPlatform';

/** Opens a raw WebSocket to `path`; resolves when open, rejects with the refusal's status and problem body. */
function openRaw(url: string, path: string, token?: string): Promise<WebSocket> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return socketOpened(socket).then(() => socket);
}

describe('WebSocket upgrades are routed by path before they are accepted', () => {
  let server: TestPlatform;
  let ann: Player;

  beforeAll(async () => {
    server = await startWorldPlatform();
    ann = await signIn(server.url);
  });
  afterAll(() => server.stop());

  it('refuses paths no channel serves with a 404 problem response, token or not', async () => {
    for (const path of ['/anything', '/mud/wsx', '/notifications/wsx', '/a/b/c']) {
      expect(await refusalOf(openRaw(server.url, path))).toEqual({
        status: 404,
        body: expect.objectContaining({ code: 'ROUTE_NOT_FOUND', instance: path }),
      });
    }
    expect(await refusalOf(openRaw(server.url, '/anything', ann.token))).toMatchObject({ status: 404 });
  });

  it('refuses a Colyseus room socket without a reserved seat with 401, and serves a matchmade one', async () => {
    const { room } = await joinWithSdk(server.url, ann);
    const path = `/${matchMaker.processId}/${room.roomId}`;
    expect(await refusalOf(openRaw(server.url, path))).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHENTICATED' },
    });
    expect(await refusalOf(openRaw(server.url, `${path}?sessionId=forged`))).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIAL' },
    });
    // The seat a real client consumed is not a credential any more.
    expect(await refusalOf(openRaw(server.url, `${path}?sessionId=${room.sessionId}`))).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIAL' },
    });
    expect(
      await refusalOf(openRaw(server.url, `/${matchMaker.processId}/no_such_room?sessionId=x`)),
    ).toMatchObject({
      status: 404,
    });
    expect(room.connection.isOpen).toBe(true);
    await room.leave();
  });

  it('still refuses a bad credential on the world channel before the upgrade', async () => {
    expect(await refusalOf(openRaw(server.url, `/mud/ws/${ann.userId}`, 'fps_forged'))).toMatchObject({
      status: 401,
      body: { code: 'INVALID_CREDENTIAL' },
    });
  });
});
