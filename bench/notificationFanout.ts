/**
 * Notification fan-out (issue 24): `sockets` users each hold one `WS /notifications/ws` socket on an in-process
 * platform (identity + notifications on the embedded MongoDB); each round publishes one notification to every user
 * at once and times until every socket has received its frame. Reports deliveries per second end to end (store in
 * MongoDB + deliver), and the live-delivery part alone (the hub's fan-out to the same sockets, nothing stored) as the
 * baseline measured in the same run. Run: npx tsx bench/notificationFanout.ts [sockets=1000] [rounds=5]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Types } from 'mongoose';
import WebSocket from 'ws';
import { combineParts } from '../productParts';
import { Accounts } from '../services/auth/accounts';
import { createAuthService } from '../services/auth';
import { Sessions } from '../services/auth/sessions';
import { createNotificationsArea, type NotificationsArea } from '../services/notifications';
import { startTestPlatform } from '../test/helpers/platform';
import { systemClock } from '../platform/clock';

const SOCKETS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 5);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  console.log(`load ${load()}, ${os.cpus().length} cores, ${SOCKETS} sockets, ${ROUNDS} rounds`);
  let area: NotificationsArea | undefined;
  const server = await startTestPlatform({ LOG_LEVEL: 'warn' }, async (context) => {
    const auth = createAuthService(context);
    area = await createNotificationsArea(context, auth);
    return combineParts([{ services: [auth.register], close: () => auth.close() }, area]);
  });
  const notifications = area!;
  const mongo = server.platform.stores.mongo;
  const accounts = new Accounts(mongo, systemClock);
  const sessions = new Sessions(mongo, systemClock);
  const users: string[] = [];
  const tokens: string[] = [];
  for (let i = 0; i < SOCKETS; i += 1) {
    const userId = await accounts.proveIdentity(
      'wallet',
      `0x${new Types.ObjectId().toHexString().padStart(40, '0')}`,
      {},
    );
    users.push(userId.toHexString());
    tokens.push((await sessions.issue(userId, 'wallet', 3600)).token);
  }
  let received = 0;
  let waiter: (() => void) | undefined;
  let expected = 0;
  const sockets = await Promise.all(
    tokens.map(
      (token) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${server.url.replace('http', 'ws')}/notifications/ws`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          ws.on('message', (data) => {
            if (String(data).startsWith('{"type":"ready"')) return resolve(ws);
            received += 1;
            if (received >= expected) waiter?.();
          });
          ws.once('error', reject);
        }),
    ),
  );
  const round = async (send: (userId: string, i: number) => unknown): Promise<number> => {
    expected = received + users.length;
    const done = new Promise<void>((resolve) => (waiter = resolve));
    const started = performance.now();
    await Promise.all(users.map((userId, i) => send(userId, i)));
    await done;
    return performance.now() - started;
  };
  const rate = (ms: number[]) =>
    ((users.length * ms.length) / (ms.reduce((a, b) => a + b, 0) / 1000)).toFixed(0);
  const stored: number[] = [];
  const live: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    stored.push(
      await round((userId, i) =>
        notifications.service.publish({ userId, kind: 'marketplace.sale', payload: { round: r, i } }),
      ),
    );
    live.push(
      await round((userId, i) =>
        notifications.hub.deliver(userId, {
          id: String(i),
          kind: 'bench',
          payload: {},
          created_at: new Date().toISOString(),
          read_at: null,
        }),
      ),
    );
  }
  console.log(
    `stored + delivered: ${rate(stored)} deliveries/s (rounds ${stored.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
  );
  console.log(
    `delivery only (baseline): ${rate(live)} deliveries/s (rounds ${live.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
  );
  console.log(`load ${load()}`);
  for (const ws of sockets) ws.terminate();
  await server.stop();
}

void main();
