/**
 * `npx tsx bench/memoryRecallSpeed.ts [count=100000] [templates=2000]`: recall latency on the neural path at `count`
 * memories of one subject (issue 36: p95 < 50 ms at 100k), on the embedded stores in one process, and what the
 * sentence encoder costs. Every memory gets a real use-lite-v1-512 vector, but of its sentence without its day
 * number: `templates` distinct sentences are encoded (embedding all 100k would take about 15 minutes of one core),
 * the memories themselves are distinct texts. Each of the 200 recalls is a new question, so its embedding is never
 * cached (the query cost is the real one); they are then asked again to show the cached cost. Remember answers
 * before the vectors are written: the recalls start once the background pass has written them all.
 * BENCH_PROFILE=file.cpuprofile profiles the main thread over the recalls.
 */
import fs from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { SentenceEncoder } from '../ai/embeddings/sentenceEncoder';
import { openBenchMemory } from './memoryStores';

const COUNT = Number(process.argv[2] ?? 100_000);
const TEMPLATES = Number(process.argv[3] ?? 2000);
/** `chain` measures the lexical path (the chain's vectors, the hash embedding's score) in the same conditions. */
const MODE = process.argv[4] === 'chain' ? 'chain' : 'neural';
const IN_FLIGHT = 16;
/** BENCH_PROFILE=file.cpuprofile: a CPU profile of the main thread over the timed recalls. */
const PROFILE = process.env.BENCH_PROFILE;
const NAMES = ['Ann', 'Tom', 'Mara', 'Pip', 'Rowan', 'Jun', 'Carla', 'Bram', 'Ilse', 'Odo'];
const VERBS = [
  'talked about',
  'bought',
  'lost',
  'found',
  'sold',
  'repaired',
  'painted',
  'hid',
  'borrowed',
  'dreamed of',
];
const THINGS =
  'lantern sword pony honey map ring boat cloak anvil drum kettle saddle banner compass flute helmet basket ledger mirror candle'.split(
    ' ',
  );
const PLACES =
  'mill harbour chapel forge market tower bridge tavern orchard quarry lighthouse bakery crypt garden stables'.split(
    ' ',
  );

const template = (i: number) =>
  `${NAMES[i % NAMES.length]} ${VERBS[Math.floor(i / 10) % VERBS.length]} the ${THINGS[Math.floor(i / 100) % THINGS.length]} near the ${PLACES[(i * 7) % PLACES.length]}.`;
const memoryText = (i: number) => `${template(i % TEMPLATES).slice(0, -1)} on day ${i}.`;

/** The real encoder, fed each memory's sentence without its day number (queries go through unchanged). */
class TemplateEncoder extends SentenceEncoder {
  override embed(texts: string[]): Promise<number[][]> {
    return super.embed(texts.map((text) => text.replace(/ on day \d+\.$/, '.')));
  }
  override embedBackground(texts: string[]): Promise<number[][]> {
    return super.embedBackground(texts.map((text) => text.replace(/ on day \d+\.$/, '.')));
  }
}

function percentiles(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`;
}

async function main(): Promise<void> {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const encoder = new TemplateEncoder({ cacheSize: TEMPLATES + 1000 });
  const bench = await openBenchMemory(undefined, { BRAIN_MEMORY_EMBEDDER: MODE });
  // The bench's own encoder replaces the one the memory opened (same model and space).
  if (MODE === 'neural') Object.assign(bench.memory.options, { encoder });
  try {
    const cpu = process.cpuUsage();
    const encodeStart = performance.now();
    if (MODE === 'neural') await encoder.embed(Array.from({ length: TEMPLATES }, (_, i) => template(i)));
    const encodeMs = performance.now() - encodeStart;
    console.log(
      `encoded ${TEMPLATES} sentences in ${(encodeMs / 1000).toFixed(1)} s on 1 thread: ${(encodeMs / TEMPLATES).toFixed(1)} ms a sentence (batches of 64); model load ${encoder.loadMs?.toFixed(0)} ms`,
    );
    const subject = 'bot:bench';
    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < COUNT) {
          const i = next++;
          await bench.memory.remember({
            subject,
            content: memoryText(i),
            session_id: `s${Math.floor(i / 50)}`,
          });
          if ((i + 1) % 20_000 === 0) console.log(`  ${i + 1} remembered`);
        }
      }),
    );
    console.log(`remember: ${COUNT} in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    // Remember answers before the vector is written: recall by meaning is timed once the background pass is done.
    const settle = performance.now();
    await bench.memory.vectorRepair.settled();
    console.log(`background vectors written ${((performance.now() - settle) / 1000).toFixed(1)} s after`);
    await bench.memory.recall({ subject, query: 'warm up' });
    const questions = Array.from(
      { length: 200 },
      (_, i) =>
        `what did ${NAMES[i % NAMES.length]} do with the ${THINGS[i % THINGS.length]} (question ${i})?`,
    );
    const time = async () => {
      const times: number[] = [];
      for (const query of questions) {
        const t = performance.now();
        await bench.memory.recall({ subject, query, limit: 10 });
        times.push(performance.now() - t);
      }
      return times;
    };
    const session = PROFILE ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const fresh = await time();
    const cached = await time();
    if (session && PROFILE) {
      const { profile } = await session.post('Profiler.stop');
      await fs.writeFile(PROFILE, JSON.stringify(profile));
      console.log(`CPU profile of the recalls (main thread) in ${PROFILE}`);
    }
    const queryTimes: number[] = [];
    for (const question of questions) {
      const t = performance.now();
      await encoder.embedQuery(`${question} again`);
      queryTimes.push(performance.now() - t);
    }
    const searchTimes: number[] = [];
    const { vectors } = bench.memory.options;
    const [model] = vectors.models().filter((m) => MODE === 'chain' || m === encoder.model);
    const queryVector = MODE === 'chain' ? bench.memory.local.embedOne('x') : await encoder.embedQuery('x');
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await vectors.search(model, queryVector, { subject, tiers: ['episodic'] }, 100);
      searchTimes.push(performance.now() - t);
    }
    console.log(`mode ${MODE}, space ${model}`);
    console.log(`vector search (100 nearest of the subject): ${percentiles(searchTimes)}`);
    console.log(`recall at ${COUNT}, new questions: ${percentiles(fresh)} (target p95 < 50 ms)`);
    console.log(
      `recall at ${COUNT}, the same questions again (query vectors cached): ${percentiles(cached)}`,
    );
    console.log(`query embedding alone (thread round trip): ${percentiles(queryTimes)}`);
    const used = process.cpuUsage(cpu);
    console.log(
      `process CPU ${((used.user + used.system) / 1e6).toFixed(0)} s; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await encoder.close();
    await bench.shutdown();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
