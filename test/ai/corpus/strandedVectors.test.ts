import { InMemoryEnrichmentJournal } from '../../../ai/corpus/enrichmentJournal';
import { InMemoryChunkStore } from '../../../ai/corpus/memoryChunkStore';
import { recordStrandedVectors } from '../../../ai/corpus/strandedVectors';
import type { DocumentRecord } from '../../../models/corpusRecords';

const document = (id: string, embeddingModel: string | null, chunkIds: string[]) =>
  ({ id, embeddingModel, chunkIds, ingestedAt: new Date(0) }) as unknown as DocumentRecord;

describe('recordStrandedVectors', () => {
  it('records every chunk of the documents in a space no provider serves, and leaves the others', async () => {
    const journal = new InMemoryEnrichmentJournal();
    const documents = [
      document('docs/old.md', 'local-sem-v1-384', ['old#0', 'old#1']),
      document('docs/cloud.md', 'text-embedding-3-small', ['cloud#0']),
      document('docs/new.md', 'local-sem-v1-384*2+use-lite-v1-512*1', ['new#0']),
      document('docs/owed.md', null, ['owed#0']),
    ];
    const store = new InMemoryChunkStore();
    await store.saveDocuments(documents.map((document) => ({ document, upserts: [], removedChunkIds: [] })));

    const recorded = await recordStrandedVectors(
      { store, journal },
      ['text-embedding-3-small', 'local-sem-v1-384*2+use-lite-v1-512*1'],
      new Date(1_000),
    );

    expect(recorded).toEqual({ documents: 1, chunks: 2, models: ['local-sem-v1-384'] });
    expect(await journal.find('docs/old.md')).toMatchObject({ chunkIds: ['old#0', 'old#1'] });
    expect(await journal.backlog()).toMatchObject({ documents: 1, chunks: 2 });
  });

  it('records nothing when every document is in a served space', async () => {
    const journal = new InMemoryEnrichmentJournal();
    const store = new InMemoryChunkStore();
    await store.saveDocument({
      document: document('a', 'local-sem-v1-384', ['a#0']),
      upserts: [],
      removedChunkIds: [],
    });

    expect(await recordStrandedVectors({ store, journal }, ['local-sem-v1-384'], new Date(0))).toEqual({
      documents: 0,
      chunks: 0,
      models: [],
    });
    expect((await journal.backlog()).documents).toBe(0);
  });
});
