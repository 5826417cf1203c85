import fs from 'node:fs';
import { ChunkingPool, inlineChunking } from '../../../ai/chunking/chunkingPool';
import { validateSourceDocument } from '../../../ai/chunking/validation';
import { chunkFieldTerms } from '../../../ai/fulltext/chunkFields';
import { buildSourceDocument } from '../factories';

const page = (n: number, bytes: number) =>
  validateSourceDocument(
    buildSourceDocument({
      source: `docs/page${n}.md`,
      text: `# Page ${n}\n\n${`Paragraph ${n} about ingest batches and chunk boundaries. `.repeat(Math.ceil(bytes / 58))}\n\n## Settings\n\n| key | value |\n|---|---|\n| n | ${n} |\n`,
    }),
  );

const threadNames = () =>
  fs
    .readdirSync('/proc/self/task')
    .map((tid) => fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());

describe('ChunkingPool.chunkAll', () => {
  let pool: ChunkingPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('chunks a batch of small and large documents in a thread exactly as inline, in order', async () => {
    // 40 small pages (about 4 KiB each: gathered into tasks) with two large ones between them (a task each).
    const documents = Array.from({ length: 42 }, (_, n) => page(n, n === 7 || n === 30 ? 20_000 : 4_000));
    const inline = inlineChunking();
    const expected = [];
    for (const document of documents) expected.push(await inline.chunk(document));

    pool = new ChunkingPool({ threads: 1 });
    const chunked = await pool.chunkAll(documents);

    expect(chunked.map((c) => c.document.source)).toEqual(documents.map((d) => d.source));
    expect(chunked.map(({ document, chunks }) => ({ document, chunks }))).toEqual(expected);
    // The thread analysed each chunk's fulltext fields too, as the index would on the event loop.
    expect(chunked.map((c) => c.terms)).toEqual(expected.map((c) => c.chunks.map(chunkFieldTerms)));
    // The small pages went to the thread too in three tasks of about 64 KiB (before, only the two large ones went: two tasks).
    expect((pool as unknown as { pool?: { completed: number } }).pool?.completed).toBe(5);
    // Its OS thread is named (top -H, ps -L, the ingest bench's CPU per thread: platform/threadName.ts).
    if (process.platform === 'linux') expect(threadNames()).toContain('chunker');
  }, 60_000);

  it('chunks inline, without starting a thread, when the small documents are few', async () => {
    pool = new ChunkingPool({ threads: 1 });
    const documents = [page(1, 500), page(2, 500)];

    const chunked = await pool.chunkAll(documents);

    expect(chunked.map((c) => c.document.source)).toEqual(['docs/page1.md', 'docs/page2.md']);
    expect((pool as unknown as { pool?: unknown }).pool).toBeUndefined();
  });
});
