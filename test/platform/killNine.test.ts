import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import request from 'supertest';
import { type RunningServer, spawnServer, waitForLog } from '../helpers/childProcess';
import { eventually } from '../helpers/eventually';
import { type Player, signIn } from '../services/mud/worldPlatform';

const SERVICE_TOKEN = 'kill-nine-service-token-0123456789';
const PRICE = 40;
const SELLER_GETS = 38; // 95%, the fee rounded down

/** One write of the load, sent again with the same key after the restart. */
interface Write {
  name: string;
  send(url: string): request.Test;
}

/** What a client saw: status and body, without what differs per request (its id, the instance). */
interface Seen {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
}

function seen(res: request.Response): Seen {
  const { requestId: _id, instance: _instance, ...body } = res.body as Record<string, unknown>;
  return { status: res.status, body, replayed: res.headers['idempotent-replayed'] === 'true' };
}

/** A small seeded generator (mulberry32): the same order of writes on every run. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A real crash: the server runs as its own process on a data folder, takes a concurrent load of economy transfers,
 * marketplace purchases (two buyers per listing), memories and social interactions, and is killed with SIGKILL
 * part-way through. Restarted on the same data, the audit is ok at once; every write is sent again with its key:
 * what was answered before the kill is answered exactly the same (refusals as refusals, `Idempotent-Replayed`), and
 * nothing is lost or applied twice: balances equal what the answers say, each listing is sold at most once, every
 * memory is stored once with its vector, every trust edge equals 50 plus its history.
 */
describe('kill -9 under load, restart, retry everything', () => {
  let dataDir: string;
  let child: RunningServer | undefined;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-kill9-'));
  });
  afterAll(() => {
    if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const adminWallet = Wallet.createRandom();
  const start = async () => {
    child = spawnServer({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      SIWE_ENABLED: '1',
      BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
      ADMIN_ADDRESSES: adminWallet.address,
      GATEWAY_RATE_LIMIT_PER_SECOND: '100000',
    });
    const listening = await waitForLog(child, (line) => line.msg === 'listening', 90_000);
    return `http://127.0.0.1:${listening.port as number}`;
  };
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('loses nothing acknowledged and applies nothing twice', async () => {
    let url = await start();
    const admin = await signIn(url, adminWallet);
    const buyers = [await signIn(url), await signIn(url), await signIn(url)];
    const seller = await signIn(url);
    for (const player of [...buyers, seller])
      await request(url)
        .post('/economy/grants')
        .set(bearer(SERVICE_TOKEN))
        .send({
          user_id: player.userId,
          currency: 'soft',
          amount: '100',
          reason: 'kill -9 test',
          idempotency_key: `fund-${player.userId}`,
        })
        .expect(201);
    const listings: string[] = [];
    for (let i = 0; i < 4; i++) {
      const listed = await request(url)
        .post('/marketplace/listings')
        .set(bearer(seller.token))
        .send({ item: `content:crash-map-${i}`, price: { currency: 'soft', amount: String(PRICE) } })
        .expect(201);
      listings.push(listed.body.id as string);
    }

    const writes: Write[] = [];
    const transfers: { from: Player; to: Player; name: string }[] = [];
    for (let i = 0; i < 18; i++) {
      const [from, to] = [buyers[i % 3], buyers[(i + 1) % 3]];
      const name = `transfer-${i}`;
      transfers.push({ from, to, name });
      writes.push({
        name,
        send: (at) =>
          request(at)
            .post('/economy/transfer')
            .set(bearer(from.token))
            .send({ to_user_id: to.userId, currency: 'soft', amount: '1', idempotency_key: name }),
      });
    }
    const buys: { listing: string; buyer: Player; name: string }[] = [];
    for (const [i, listing] of listings.entries())
      for (const buyer of [buyers[i % 3], buyers[(i + 1) % 3]]) {
        const name = `buy-${i}-${buyer.userId}`;
        buys.push({ listing, buyer, name });
        writes.push({
          name,
          send: (at) =>
            request(at)
              .post(`/marketplace/listings/${listing}/buy`)
              .set(bearer(buyer.token))
              .send({ idempotency_key: name }),
        });
      }
    const memories = Array.from(
      { length: 16 },
      (_, i) => `kill nine memory ${i}: the lantern was left at gate ${i}`,
    );
    for (const [i, content] of memories.entries())
      writes.push({
        name: `memory-${i}`,
        send: (at) =>
          request(at)
            .post('/brain/memory/remember')
            .set(bearer(SERVICE_TOKEN))
            .send({ subject: 'npc:crash:keeper', content }),
      });
    const pairs = Array.from({ length: 4 }, (_, i) => [`crash-a${i}`, `crash-b${i}`]);
    for (let i = 0; i < 16; i++) {
      const [actor, target] = pairs[i % pairs.length];
      writes.push({
        name: `interaction-${i}`,
        send: (at) =>
          request(at)
            .post('/social/brain/interaction')
            .set(bearer(SERVICE_TOKEN))
            .send({
              platform: 'discord',
              user_id: actor,
              target_platform: 'discord',
              target_user_id: target,
              kind: i % 4 === 3 ? 'insult' : 'help',
              occurred_at: '2026-11-26T08:00:00Z',
              idempotency_key: `interaction-${i}`,
            }),
      });
    }
    const random = seeded(44);
    writes.sort(() => random() - 0.5);

    // The load, six in flight; the process is killed once 40% of the writes are answered.
    const first = new Map<string, Seen>();
    const killAt = Math.floor(writes.length * 0.4);
    let next = 0;
    let killed = false;
    const server = child as RunningServer;
    const worker = async () => {
      while (next < writes.length && !killed) {
        const write = writes[next++];
        const res = await write.send(url).then(
          (answer) => answer,
          () => null,
        );
        if (res && !killed) first.set(write.name, seen(res));
        if (first.size >= killAt && !killed) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    expect((await server.exit).signal).toBe('SIGKILL');
    expect(first.size).toBeGreaterThanOrEqual(killAt);

    url = await start();
    // The books balance right after the restart, before any retry.
    const audit = await request(url).get('/admin/economy/audit').set(bearer(admin.token)).expect(200);
    expect([audit.body.ok, audit.body.mismatched_accounts]).toEqual([true, []]);

    // Every write again with its key, twice: the second answer always equals the first after the restart, and a
    // write answered before the kill gets that answer again. (A memory has no key: sent again, it merges into the
    // one stored, checked below.)
    const final = new Map<string, Seen>();
    for (const write of writes) {
      const retried = seen(await write.send(url));
      final.set(write.name, retried);
      if (write.name.startsWith('memory')) continue;
      const again = seen(await write.send(url));
      expect({ write: write.name, ...again }).toEqual({ write: write.name, ...retried, replayed: true });
      const before = first.get(write.name);
      if (before)
        expect({ write: write.name, ...retried }).toEqual({ write: write.name, ...before, replayed: true });
    }

    // Money: every balance is what the answers say happened, each listing sold at most once.
    const ok = (name: string) => (final.get(name)?.status ?? 0) < 300;
    const balance = new Map([...buyers, seller].map((p) => [p.userId, 100]));
    for (const t of transfers)
      if (ok(t.name)) {
        balance.set(t.from.userId, (balance.get(t.from.userId) as number) - 1);
        balance.set(t.to.userId, (balance.get(t.to.userId) as number) + 1);
      }
    for (const listing of listings) {
      const sold = buys.filter((b) => b.listing === listing && ok(b.name));
      expect(sold.length).toBeLessThanOrEqual(1);
      for (const b of sold) {
        balance.set(b.buyer.userId, (balance.get(b.buyer.userId) as number) - PRICE);
        balance.set(seller.userId, (balance.get(seller.userId) as number) + SELLER_GETS);
      }
    }
    for (const buy of buys)
      if (!ok(buy.name))
        expect(final.get(buy.name)?.body.code).toMatch(/^(LISTING_SOLD|INSUFFICIENT_FUNDS)$/);
    for (const player of [...buyers, seller]) {
      const wallet = await request(url).get('/economy/wallet').set(bearer(player.token)).expect(200);
      expect([player.userId, wallet.body.soft]).toEqual([player.userId, String(balance.get(player.userId))]);
    }
    const after = await request(url).get('/admin/economy/audit').set(bearer(admin.token)).expect(200);
    expect(after.body.ok).toBe(true);

    // Memories: each content stored once, and every one gets its vector.
    const stored = await request(url)
      .get('/brain/memory?subject=npc:crash:keeper&limit=100')
      .set(bearer(SERVICE_TOKEN))
      .expect(200);
    const contents = (stored.body.memories as { content: string }[]).map((m) => m.content).sort();
    expect(contents).toEqual([...memories].sort());
    const pending = async () =>
      (await request(url).get('/brain/stats').set(bearer(SERVICE_TOKEN)).expect(200)).body.memory_vectors
        .pending as number;
    await eventually(pending, 0, 60_000, 500);

    // Trust: every edge equals 50 plus its history, and moved by each interaction once.
    for (const [actor, target] of pairs) {
      const history = await request(url)
        .get(`/social/brain/trust/discord/${actor}/history?viewer_platform=discord&viewer_user_id=${target}`)
        .set(bearer(SERVICE_TOKEN))
        .expect(200);
      // Scores are whole numbers and each change records the score before and after it: the changes chain from
      // 50 to the edge's trust exactly when each was recorded once.
      const changes = history.body.changes as { before: number; after: number }[];
      expect(history.body.trust).toBe(50 + changes.reduce((sum, c) => sum + c.after - c.before, 0));
      expect(changes).toHaveLength(4);
    }
  }, 300_000);
});
