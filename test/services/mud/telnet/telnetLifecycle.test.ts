import net from 'node:net';
import { productParts } from '../../../../productParts';
import { freePort } from '../../../helpers/nginx';
import { startTestPlatform } from '../../../helpers/platform';
import { startWorldPlatform } from '../worldPlatform';
import { TelnetTestClient } from './telnetClient';

/** Resolves with the connection error code, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('telnet port: where it runs and how it stops', () => {
  it('listens in the game role and, on graceful shutdown, says goodbye, saves and closes', async () => {
    const port = await freePort();
    const server = await startWorldPlatform({ TELNET_PORT: String(port) });
    const client = await TelnetTestClient.connect(port);
    client.line('guest Leaving Lou');
    await client.waitForText(/Village Square[\s\S]*> $/);
    const stopping = server.stop();
    await client.waitForText(/The server is restarting; your character is saved\./);
    await client.waitForClose();
    await stopping;
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
  });

  it('does not listen in a process without the game role', async () => {
    const port = await freePort();
    const server = await startTestPlatform({ ROLES: 'api,worker', TELNET_PORT: String(port) }, productParts);
    try {
      expect(await tryConnect(port)).toBe('ECONNREFUSED');
    } finally {
      await server.stop();
    }
  });
});
