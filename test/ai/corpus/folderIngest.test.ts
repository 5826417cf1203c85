import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestFolder } from '../../../ai/corpus/folderIngest';
import { Ingestor } from '../../../ai/corpus/ingestor';
import { InMemoryChunkStore } from '../../../ai/corpus/memoryChunkStore';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';

describe('ingestFolder', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'brain-folder-'));
    await mkdir(join(root, 'docs'));
    await writeFile(join(root, 'docs/a.md'), '# A\n\nAlpha.\n');
    await writeFile(join(root, 'docs/empty.md'), '   \n');
    await writeFile(join(root, 'docs/b.md'), '# B\n\nBeta.\n');
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  it('ingests each file and reports rejected ones without stopping', async () => {
    const fullText = new FullTextIndex();
    const ingestor = new Ingestor({
      store: new InMemoryChunkStore(),
      vectors: new InMemoryVectorIndex(),
      fullText,
      embeddings: new EmbeddingChain({ providers: [new LocalHashEmbedder()] }),
    });

    const report = await ingestFolder(ingestor, root, 'docs');

    expect(report.results.map((r) => [r.source, r.status])).toEqual([
      ['docs/a.md', 'created'],
      ['docs/b.md', 'created'],
    ]);
    expect(report.skipped).toEqual([
      {
        source: 'docs/empty.md',
        code: 'BRAIN_DOCUMENT_EMPTY',
        detail: 'must contain non-whitespace text',
      },
    ]);
    expect(fullText.size).toBe(2);
  });
});
