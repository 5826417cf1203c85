import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestPlatform } from '../../helpers/platform';
import { memoryForTests, play, signIn, startBrainPlatform } from './brainPlatform';

/**
 * Runs against whatever MemoryService `memoryForTests()` gives. With the in-process one the memories live in the
 * test process across the platform restart, so this shows only that the world and the brain pick the history up
 * again from a restarted platform; with issue 18's persistent implementation it shows the memory survives too.
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
    const memory = memoryForTests();
    server = await startBrainPlatform(memory, { DATA_DIR: dataDir });
    const ann = await signIn(server.url);
    const before = await play(server.url, ann, 'quest accept first steps', 'talk elder');
    expect(before).toContainEqual(
      'Elder Maren adds: "I asked you to help with "First Steps" just now — I remember it. How goes "First Steps"?"',
    );
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
    await server.stop();

    server = await startBrainPlatform(memory, { DATA_DIR: dataDir });
    const after = await play(server.url, ann, 'talk elder');
    expect(after).toContainEqual('Elder Maren says: "Ah, my favourite wanderer! Sit, sit. What news?"');
    expect(after).toContainEqual(
      'Elder Maren adds: "You completed "First Steps" for me just now — I have not forgotten it."',
    );
  });
});
