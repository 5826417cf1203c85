import type { Connection } from 'mongoose';
import pino from 'pino';
import { LocalHashEmbedder } from '../../../../ai/embeddings/localHashEmbedder';
import { ManualClock } from '../../../../platform/clock';
import type { SubjectGraph } from '../../../../services/brain/graph/subjectGraph';
import { contentHash, MemoryKeeper } from '../../../../services/brain/memory/memoryKeeper';
import type { MemoryVectors } from '../../../../services/brain/memory/memoryVectors';
import { InProcessWorkingMemory } from '../../../../services/brain/memory/workingMemory';
import { useMongooseTarget } from '../../../embedded/mongo/mongoTarget';

/** A keeper on a real (embedded) MongoDB; vectors and the graph are not part of what this file tests. */
function keeperOn(connection: Connection, embedded: string[] = []): MemoryKeeper {
  const embedder = new LocalHashEmbedder();
  return new MemoryKeeper({
    mongo: connection,
    vectors: { upsert: async () => undefined } as unknown as MemoryVectors,
    embeddings: {
      embed: async (texts: string[]) => {
        embedded.push(...texts);
        return { model: embedder.model, vectors: texts.map((t) => embedder.embedOne(t)) };
      },
      embedQuery: async (text: string) => ({ model: embedder.model, vector: embedder.embedOne(text) }),
    } as never,
    working: new InProcessWorkingMemory(),
    graph: { recordMemory: async () => undefined } as unknown as SubjectGraph,
    tokens: { count: (text: string) => text.length } as never,
    clock: new ManualClock(),
    logger: pino({ level: 'silent' }),
    workingBudget: 128_000,
    duplicateSimilarity: 0.9,
    redactSecrets: false,
  });
}

describe('remembers made at once', () => {
  const connection = useMongooseTarget();

  it('reads the subjects remembered for in one turn with one query, each with its own stored memories', async () => {
    const keeper = keeperOn(connection());
    await keeper.init();
    // Another process stored a memory of player 3 and one of player 7: this keeper has not loaded them.
    const stored = (subject: string, id: string, content: string) => ({
      _id: id,
      subject,
      tier: 'episodic',
      content,
      content_hash: contentHash(content),
      tags: [],
      importance: 0.5,
      session_id: null,
      kind: null,
      occurred_at: new Date(0),
      created_at: new Date(0),
      last_seen: new Date(0),
      seen_count: 1,
      vector_model: 'none',
      consolidated_at: null,
      summarizes: [],
    });
    await keeper.memories.collection.insertMany([
      stored('player:3', 'm-3', 'Traded a diamond sword for wheat'),
      stored('player:7', 'm-7', 'Was attacked near the nether portal'),
    ] as never);
    const find = jest.spyOn(keeper.memories, 'find');

    const results = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        keeper.remember({
          subject: `player:${n}`,
          content: n === 3 ? 'traded a DIAMOND sword for wheat' : `Met player ${n} at the harbour`,
        }),
      ),
    );

    expect(find).toHaveBeenCalledTimes(1);
    expect(results[3]).toMatchObject({ merged: true, memory: { id: 'm-3', seen_count: 2 } });
    expect(results.filter((result) => result.merged)).toHaveLength(1);
    expect(keeper.text.size('player:7')).toBe(2);
    expect(keeper.text.size('player:8')).toBe(1);
    // Loaded subjects are not read again.
    await keeper.remember({ subject: 'player:8', content: 'Fished by the bridge' });
    expect(find).toHaveBeenCalledTimes(1);
  });

  it('embed a text remembered for several subjects at once one time, and again when remembered later', async () => {
    const embedded: string[] = [];
    const keeper = keeperOn(connection(), embedded);
    const text = 'minecraft:p1 → minecraft:p2: trade_completed — 3 wheat';
    const [first, second] = await Promise.all([
      keeper.remember({ subject: 'person:a', content: text }),
      keeper.remember({ subject: 'person:b', content: text }),
    ]);

    expect(embedded).toEqual([text]);
    expect(first.memory.id).not.toBe(second.memory.id);
    await keeper.remember({ subject: 'person:c', content: text });
    expect(embedded).toEqual([text, text]);
  });

  it('checks near duplicates against the offline embedding of each recent text computed once', async () => {
    const keeper = keeperOn(connection());
    const embedOne = jest.spyOn(keeper.local, 'embedOne');
    const texts = Array.from(
      { length: 6 },
      (_, n) => `minecraft:p1 → minecraft:p${n + 2}: help — stone ${n}`,
    );
    const results = [];
    for (const content of texts) results.push(await keeper.remember({ subject: 'person:p1', content }));
    // The same texts for the other people of each interaction: each was embedded already.
    for (const [n, content] of texts.entries())
      results.push(await keeper.remember({ subject: `person:p${n + 2}`, content }));

    expect(results.filter((result) => result.merged)).toHaveLength(0);
    const embeddedTexts = embedOne.mock.calls.map(([text]) => text);
    expect(new Set(embeddedTexts).size).toBe(embeddedTexts.length);
    expect(embeddedTexts.length).toBeLessThanOrEqual(texts.length);
  });

  it('merges a near-duplicate by default, and only the same text with duplicates: exact', async () => {
    const keeper = keeperOn(connection());
    const said = 'we should build the castle wall higher before the raid tonight, with stone from the quarry';
    const first = `discord:1 → discord:2: message — ${said}`;
    const other = `discord:1 → discord:3: message — ${said}`;
    // Near: the second person's name is the only difference, and the default merges it.
    await keeper.remember({ subject: 'person:near', content: first });
    const merged = await keeper.remember({ subject: 'person:near', content: other });
    expect(merged).toMatchObject({ merged: true, memory: { content: first, seen_count: 2 } });

    const search = jest.spyOn(keeper.text, 'search');
    await keeper.remember({ subject: 'person:exact', content: first, duplicates: 'exact' });
    const kept = await keeper.remember({ subject: 'person:exact', content: other, duplicates: 'exact' });
    const repeat = await keeper.remember({ subject: 'person:exact', content: other, duplicates: 'exact' });
    expect(kept).toMatchObject({ merged: false, memory: { content: other } });
    expect(repeat).toMatchObject({ merged: true, memory: { id: kept.memory.id, seen_count: 2 } });
    // No near-duplicate search is made for an exact-only remember.
    expect(search).not.toHaveBeenCalled();
  });
});
