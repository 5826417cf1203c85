/**
 * NPC `talk` with memory retrieval (issue 24): what the NPC brain adds to a `talk` (the NPC's newest notable memories
 * of the player, listed by the player's tag, then composing the recollection) at 0, 10k and 100k memories of one NPC
 * spread over 1,000 players, timed per call. Target: p95 under 30 ms at 100k. Runs on the brain's memory service on
 * embedded MongoDB and Qdrant (bench/memoryStores.ts); `--in-process` runs the test helper's in-process service as
 * the baseline. The first 1,000 memories go through `remember`; the rest are inserted as copies of them with their
 * own ids, texts and tags (what `list` reads; vectors and graph rows are not needed for it), so 100k take seconds.
 * Run: npx tsx bench/npcTalk.ts [calls=2000] [--in-process]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { timeOrderedId } from '../ai/memory/timeOrderedId';
import { systemClock } from '../platform/clock';
import { loadWorld } from '../rooms/content/loader';
import type { MemoryService } from '../services/brain/memory/memoryService';
import { NpcVoice } from '../services/npc/npcVoice';
import { npcSubject, playerTag } from '../services/npc/npcSubjects';
import { WorldLore } from '../services/npc/worldLore';
import { InProcessMemoryService } from '../test/helpers/inProcessMemory';
import { openBenchMemory, type BenchMemory } from './memoryStores';
import { percentile } from './support/stats';

const CALLS = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 2000);
const IN_PROCESS = process.argv.includes('--in-process');
/** Memories remembered through the service before the rest are inserted as copies. */
const REMEMBERED = 1000;
const PLAYERS = 1000;
const KINDS = [
  {
    kind: 'gift',
    says: (i: number) => `You gave me ${i % 3 ? 'herb tea' : 'a sturdy stick'}. (+1, now neutral)`,
  },
  { kind: 'quest.given', says: () => 'I asked you to help with "First Steps".' },
  { kind: 'talk', says: () => 'We talked; I was neutral toward you.' },
  { kind: 'kill.seen', says: (i: number) => `I saw you kill the chicken number ${i} here.` },
];

const shapeOf = (i: number) => KINDS[i % KINDS.length];

/** Fills the NPC's memories (see the header) and answers the memory service to talk with. */
async function seed(
  memories: number,
  subject: string,
): Promise<{ memory: MemoryService; bench?: BenchMemory }> {
  const bench = IN_PROCESS ? undefined : await openBenchMemory();
  const memory: MemoryService = bench?.memory ?? new InProcessMemoryService();
  const now = Date.now();
  const input = (i: number) => ({
    subject,
    content: `${shapeOf(i).says(i)} #${i}`,
    kind: shapeOf(i).kind,
    tags: [playerTag(`player${i % PLAYERS}`)],
    importance: 0.5,
    occurred_at: new Date(now - (i % 30) * 86_400_000),
  });
  const remembered = bench ? Math.min(memories, REMEMBERED) : memories;
  for (let i = 0; i < remembered; i += 1) await memory.remember(input(i));
  if (bench && memories > remembered) {
    const model = bench.memory.memories;
    const templates = await model.find({ subject }).lean();
    for (let at = remembered; at < memories; at += 1000) {
      const batch = [];
      for (let i = at; i < Math.min(memories, at + 1000); i += 1) {
        const { content, tags, kind, occurred_at } = input(i);
        const id = timeOrderedId(now + i);
        batch.push({ ...templates[i % templates.length], _id: id, content, tags, kind, occurred_at });
      }
      await model.insertMany(batch, { lean: true });
    }
  }
  return { memory, bench };
}

async function run(memories: number): Promise<void> {
  const world = await loadWorld();
  const npc = world.npcs.get('village:elder')!;
  const { memory, bench } = await seed(memories, npcSubject(npc));
  const voice = new NpcVoice(world, memory, new WorldLore(world), systemClock);
  const times: number[] = [];
  let spoke = 0;
  for (let i = 0; i < CALLS; i += 1) {
    const started = performance.now();
    const reply = await voice.recollect({
      kind: 'npc.talk',
      userId: `player${(i * 7) % PLAYERS}`,
      npc: npc.ref,
      disposition: 'neutral',
      activeQuests: [],
      completedQuests: [],
    });
    times.push(performance.now() - started);
    if (reply) spoke += 1;
  }
  await bench?.shutdown();
  times.sort((a, b) => a - b);
  console.log(
    `${String(memories).padStart(7)} memories: p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms, ` +
      `p99 ${percentile(times, 99).toFixed(2)} ms (${spoke}/${CALLS} talks recalled something)`,
  );
}

async function main(): Promise<void> {
  console.log(
    `load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(
        ' ',
      )}, ${os.cpus().length} cores, ${IN_PROCESS ? 'in-process test memory' : 'brain memory service, embedded stores'}`,
  );
  for (const size of [0, 10_000, 100_000]) await run(size);
  console.log(
    `load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
