import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { botConfigFromEnv, BotConfigError, SocialBotClient, type SyncResult } from '../../../clients/bot/src';
import type { Platform } from '../../../platform/platform';
import { freePort } from '../../helpers/nginx';
import { BOT_SERVICE_TOKEN, startBotPlatform } from './botPlatform';

describe('bot client against a running platform', () => {
  let dataDir: string;
  let queueDir: string;
  let port: number;
  let url: string;
  let platform: Platform | undefined;
  const waits: number[] = [];
  const results: SyncResult[] = [];

  const env = () => ({
    BRAIN_ENABLED: '1',
    BRAIN_API_URL: url,
    BOT_INSTANCE_ID: 'mc-test-1',
    BRAIN_SERVICE_TOKEN: BOT_SERVICE_TOKEN,
  });
  const openClient = () =>
    SocialBotClient.open({
      config: botConfigFromEnv(env()),
      platform: 'minecraft',
      queueDir,
      batchSize: 100,
      retries: 2,
      retryBaseMs: 500,
      sleep: async (ms) => {
        waits.push(ms);
      },
      onResult: (result) => results.push(result),
    });
  const pendingFiles = async () => (await fs.readdir(path.join(queueDir, 'pending'))).length;
  const stats = async () =>
    (
      await request(url)
        .get('/social/brain/stats')
        .set('Authorization', `Bearer ${BOT_SERVICE_TOKEN}`)
        .expect(200)
    ).body;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-bot-platform-'));
    queueDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-bot-queue-'));
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    platform = await startBotPlatform(dataDir, port);
  });
  afterAll(async () => {
    await platform?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rm(queueDir, { recursive: true, force: true });
  });

  it('batches events with sequence numbers and delivers them in order', async () => {
    const client = await openClient();
    for (let i = 0; i < 250; i++)
      client.record({ type: 'player_seen', user_id: `p${i}`, name: `Player ${i}` });
    const report = await client.close();
    expect(report.pending).toBe(0);
    expect(results.map((result) => [result.seq, result.accepted, result.gap])).toEqual([
      [1, 100, null],
      [2, 100, null],
      [3, 50, null],
    ]);
    expect(await pendingFiles()).toBe(0);
    expect((await stats()).identities.minecraft).toBe(250);
  });

  it('keeps batches on disk while the platform restarts, survives a bot restart, and loses nothing', async () => {
    const before = results.length;
    const client = await openClient();
    client.record({ type: 'trade', user_id: 'p1', target_user_id: 'p2', items: 'bread' });
    await client.flush();
    await (platform as Platform).stop();
    platform = undefined;
    for (let i = 0; i < 120; i++)
      client.record({ type: 'chat', user_id: `p${i}`, message: `message ${i} about redstone` });
    waits.length = 0;
    const down = await client.close();
    expect(down).toEqual({ delivered: 0, rejected: 0, pending: 2 });
    // The flush started at 100 events and the one on close each tried the oldest batch thrice, backing off.
    expect(waits).toEqual([500, 1000, 500, 1000]);
    expect(await pendingFiles()).toBe(2);
    // The bot restarts too: a new client on the same queue picks the batches up, and new ones follow them.
    const restarted = await openClient();
    restarted.record({ type: 'kill', user_id: 'p3', target_user_id: 'p4' });
    platform = await startBotPlatform(dataDir, port);
    const up = await restarted.close();
    expect(up).toEqual({ delivered: 3, rejected: 0, pending: 0 });
    expect(results.slice(before).map((result) => [result.seq, result.accepted, result.gap])).toEqual([
      [4, 1, null],
      [5, 100, null],
      [6, 20, null],
      [7, 1, null],
    ]);
    const profile = await request(url)
      .get('/social/brain/profile/minecraft/p4?viewer_platform=minecraft&viewer_user_id=p3')
      .set('Authorization', `Bearer ${BOT_SERVICE_TOKEN}`)
      .expect(200);
    expect(profile.body.trust.they_trust_viewer).toBe(35);
    expect((await stats()).interactions.total).toBe(2 + 120 + 1);
  });

  it('records nothing with BRAIN_ENABLED off, and names a missing variable', async () => {
    const idle = await SocialBotClient.open({
      config: botConfigFromEnv({ BRAIN_ENABLED: '0' }),
      platform: 'discord',
      queueDir: path.join(queueDir, 'never'),
      fetch: () => Promise.reject(new Error('no request expected')),
    });
    idle.record({ type: 'member_seen', user_id: 'x' });
    expect(await idle.close()).toEqual({ delivered: 0, rejected: 0, pending: 0 });
    await expect(fs.access(path.join(queueDir, 'never'))).rejects.toThrow();
    expect(() => botConfigFromEnv({ ...env(), BRAIN_SERVICE_TOKEN: '' })).toThrow(
      new BotConfigError('BRAIN_SERVICE_TOKEN must be set (16 characters or more)'),
    );
  });

  it('moves a batch the platform refuses aside and goes on with the next', async () => {
    const refused: number[] = [];
    const client = await SocialBotClient.open({
      config: botConfigFromEnv({ ...env(), BOT_INSTANCE_ID: 'mc-test-2' }),
      platform: 'minecraft',
      queueDir: path.join(queueDir, 'second'),
      batchSize: 10,
      onRejected: (seq, status) => refused.push(seq, status),
    });
    client.record({ type: 'chat', user_id: 'p1', message: '' });
    expect(await client.flush()).toEqual({ delivered: 0, rejected: 1, pending: 0 });
    client.record({ type: 'leave', user_id: 'p1' });
    expect(await client.close()).toEqual({ delivered: 1, rejected: 0, pending: 0 });
    expect(refused).toEqual([1, 400]);
    expect(await fs.readdir(path.join(queueDir, 'second', 'rejected'))).toEqual(['000000000001.json']);
  });
});
