import net from 'node:net';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { matchMaker } from '@colyseus/core';
import { refuseUpgrade } from '../../platform/http/upgradeRefusal';
import { UnauthorizedError } from '../../platform/errors';
import { freePort } from '../helpers/nginx';
import type { TestPlatform } from '../helpers/platform';
import { joinWithSdk, signIn, startWorldPlatform } from '../services/mud/worldPlatform';

/** Sends a WebSocket upgrade request for `path` and resets the connection (RST) as soon as it is written. */
function upgradeThenReset(port: number, path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    socket.on('connect', () => {
      const request = [
        `GET ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        'Authorization: Bearer fps_forged',
        '',
        '',
      ].join('\r\n');
      socket.write(request, () => socket.resetAndDestroy());
    });
  });
}

describe('a client that resets its connection during a refused upgrade', () => {
  it('does not leave the socket without an error listener while the refusal is written', () => {
    const socket = new PassThrough();
    const req = { url: '/anything' } as IncomingMessage;
    refuseUpgrade(socket, req, new UnauthorizedError('no'));
    // Without a listener, emitting 'error' throws: that is what crashed a server on a client's ECONNRESET.
    expect(() =>
      socket.emit('error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
    ).not.toThrow();
    expect(socket.destroyed).toBe(true);
  });

  describe('against a running platform', () => {
    let server: TestPlatform;
    let telnetPort: number;
    let crashes: unknown[];
    const onCrash = (error: unknown) => crashes.push(error);

    beforeAll(async () => {
      telnetPort = await freePort();
      server = await startWorldPlatform({ TELNET_PORT: String(telnetPort) });
    });
    afterAll(() => server.stop());
    beforeEach(() => {
      crashes = [];
      process.on('uncaughtException', onCrash);
    });
    afterEach(() => {
      process.off('uncaughtException', onCrash);
    });

    it('keeps serving after resets on every kind of refused upgrade', async () => {
      const ann = await signIn(server.url);
      const { room } = await joinWithSdk(server.url, ann);
      const port = Number(new URL(server.url).port);
      const paths = [
        '/anything',
        `/${matchMaker.processId}/${room.roomId}?sessionId=forged`,
        `/mud/ws/${ann.userId}`,
        '/notifications/ws',
      ];
      for (let round = 0; round < 25; round += 1) {
        await Promise.all(paths.map((path) => upgradeThenReset(port, path)));
      }
      // Telnet terminals that reset mid-negotiation and mid-sign-in.
      for (let round = 0; round < 25; round += 1) {
        await new Promise<void>((resolve) => {
          const socket = net.connect(telnetPort, '127.0.0.1');
          socket.on('error', () => undefined);
          socket.on('close', () => resolve());
          socket.once('data', () => socket.write('guest Resetter\r\n', () => socket.resetAndDestroy()));
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(crashes).toEqual([]);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(room.connection.isOpen).toBe(true);
      await room.leave();
    });
  });
});
