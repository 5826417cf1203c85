/**
 * NPC `talk` with memory retrieval (issue 24): what the NPC brain adds to a `talk` (recall over the NPC's memories of
 * the player, then composing the recollection) at 0 (baseline), 10k and 100k memories of one NPC spread over 1,000
 * players, timed per call. Target: p95 under 30 ms at 100k. Runs on the in-process MemoryService of test/helpers
 * (the issue 18 implementation is not in this tree); rerun after merge with the real one.
 * Run: npx tsx bench/npcTalk.ts [calls=2000]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../platform/clock';
import { loadWorld } from '../rooms/content/loader';
import { NpcVoice } from '../services/npc/npcVoice';
import { npcSubject, playerTag } from '../services/npc/npcSubjects';
import { WorldLore } from '../services/npc/worldLore';
import { InProcessMemoryService } from '../test/helpers/inProcessMemory';
import { percentile } from './support/stats';

const CALLS = Number(process.argv[2] ?? 2000);
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

async function run(memories: number): Promise<void> {
  const world = await loadWorld();
  const npc = world.npcs.get('village:elder')!;
  const memory = new InProcessMemoryService();
  const now = Date.now();
  for (let i = 0; i < memories; i += 1) {
    const shape = KINDS[i % KINDS.length];
    await memory.remember({
      subject: npcSubject(npc),
      content: `${shape.says(i)} #${i}`,
      kind: shape.kind,
      tags: [playerTag(`player${i % PLAYERS}`)],
      importance: 0.5,
      occurred_at: new Date(now - (i % 30) * 86_400_000),
    });
  }
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
      .join(' ')}, ${os.cpus().length} cores`,
  );
  for (const size of [0, 10_000, 100_000]) await run(size);
  console.log(
    `load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

void main();
