import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestPlatform } from '../../helpers/platform';
import { eventually, play, signIn, startBrainPlatform } from './brainPlatform';

/**
 * Runs on the brain's own memory service (MongoDB, Qdrant, the same DATA_DIR across the restart), so it shows the
 * NPC's memory of the player survives a restart of the whole platform.
 */
describe('an NPC recalls a player’s earlier help after a restart', () => {
  let dataDir: string;
  let server: TestPlatform | undefined;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-npc-restart-'));
  });
  afterAll(async () => {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('remembers the quest the player completed before the platform restarted', async () => {
    server = await startBrainPlatform(undefined, { DATA_DIR: dataDir });
    const ann = await signIn(server.url);
    await play(server.url, ann, 'quest accept first steps', 'talk elder');
    const done = await play(
      server.url,
      ann,
      'w',
      'talk smith',
      'e',
      'e',
      'e',
      'w',
      'w',
      'quest complete first steps',
    );
    expect(done).toContainEqual(expect.stringMatching(/^Quest complete: First Steps!/));
    // NPCs remember asynchronously: the completion is stored before the platform stops.
    await eventually<{ memories: Array<{ kind: string }> }>(
      server.url,
      '/npc/brain/village:elder/memories',
      ann.token,
      (body) => body.memories.some((memory) => memory.kind === 'quest.completed'),
    );
    await server.stop();

    server = await startBrainPlatform(undefined, { DATA_DIR: dataDir });
    const after = await play(server.url, ann, 'talk elder');
    expect(after).toContainEqual('Elder Maren says: "Ah, my favourite wanderer! Sit, sit. What news?"');
    expect(after).toContainEqual(
      'Elder Maren adds: "You completed "First Steps" for me just now — I have not forgotten it."',
    );
  });
});
