import { Wallet } from 'ethers';
import request from 'supertest';
import { signInWithWallet } from '../../helpers/siwe';
import { SERVICE_TOKEN, startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

const GOOD = {
  source: 'docs/good.md',
  index: 'docs',
  text: '# Good\n\nA perfectly fine document about zebras.\n',
};

describe('brain ingest: authentication and rejected input', () => {
  let brain: BrainTestPlatform;

  beforeAll(async () => {
    brain = await startBrainPlatform({
      SIWE_ENABLED: '1',
      BRAIN_MAX_DOCUMENT_BYTES: '2048',
      BRAIN_INGEST_MAX_DOCUMENTS: '3',
      BODY_LIMIT_BYTES: '16384',
    });
  });
  afterAll(() => brain?.stop());

  /** Nothing was written: no documents, chunks or vectors, no fulltext hit, and the cache was not invalidated. */
  async function expectNothingWritten(): Promise<void> {
    const stats = await brain.stats();
    expect([stats.total_documents, stats.total_chunks, stats.last_ingest_at]).toEqual([0, 0, null]);
    expect(stats.vectors).toEqual([{ model: 'local-sem-v1-384', dimensions: 384, count: 0 }]);
    expect((await brain.search({ query: 'zebras', strategy: 'fulltext' }).expect(200)).body.hits).toEqual([]);
    expect((await request(brain.url).get('/brain/cache/stats').expect(200)).body.generation).toBe(0);
  }

  it('answers 401 without a credential', async () => {
    const res = await request(brain.url)
      .post('/brain/ingest')
      .send({ documents: [GOOD] })
      .expect(401);

    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
      detail: 'Authentication required',
    });
    await expectNothingWritten();
  });

  it('answers 401 for an unknown token', async () => {
    const res = await request(brain.url)
      .post('/brain/ingest')
      .set('Authorization', 'Bearer fps_not-a-session')
      .send({ documents: [GOOD] })
      .expect(401);

    expect(res.body.code).toBe('INVALID_CREDENTIAL');
    await expectNothingWritten();
  });

  it.each([
    [
      'an empty text',
      { text: ' \n\t ' },
      'BRAIN_DOCUMENT_EMPTY',
      'body.documents.0.text',
      'must contain non-whitespace text',
    ],
    [
      'a text over BRAIN_MAX_DOCUMENT_BYTES',
      { text: `# Big\n\n${'é'.repeat(1100)}` },
      'BRAIN_DOCUMENT_TOO_LARGE',
      'body.documents.0.text',
      'is 2207 bytes; the limit is 2048',
    ],
    [
      'binary content',
      { text: 'PK\u0003\u0004\u0000\u0000binary' },
      'BRAIN_DOCUMENT_BINARY',
      'body.documents.0.text',
      'binary content',
    ],
    [
      'a blank source',
      { source: '   ' },
      'BRAIN_SOURCE_MISSING',
      'body.documents.0.source',
      'must be a non-empty path or URL',
    ],
  ])(
    'rejects %s with 400 and writes nothing, even beside a good document',
    async (_name, change, code, path, message) => {
      const res = await brain
        .ingest([
          { ...GOOD, ...change },
          { ...GOOD, source: 'docs/other.md' },
        ])
        .expect(400);

      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code, errors: [{ path, message }] });
      await expectNothingWritten();
    },
  );

  it('rejects an unknown index through the request schema', async () => {
    const res = await brain.ingest([{ ...GOOD, index: 'wiki' }]).expect(400);

    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.documents.0.index']);
    await expectNothingWritten();
  });

  it('rejects the same source twice in one request', async () => {
    const res = await brain.ingest([GOOD, { ...GOOD, text: '# Good\n\nAnother version.\n' }]).expect(400);

    expect(res.body).toMatchObject({
      code: 'BRAIN_DUPLICATE_SOURCE',
      errors: [{ path: 'body.documents.1.source', message: 'repeats the source of body.documents.0' }],
    });
    await expectNothingWritten();
  });

  it('rejects more documents than BRAIN_INGEST_MAX_DOCUMENTS and an empty list', async () => {
    const four = ['a', 'b', 'c', 'd'].map((name) => ({ ...GOOD, source: `docs/${name}.md` }));

    const tooMany = await brain.ingest(four).expect(400);
    const none = await brain.ingest([]).expect(400);

    expect(tooMany.body).toMatchObject({
      code: 'BRAIN_TOO_MANY_DOCUMENTS',
      detail: 'At most 3 documents per request',
    });
    expect(none.body.code).toBe('VALIDATION_FAILED');
    await expectNothingWritten();
  });

  it('answers 413 for a body over BODY_LIMIT_BYTES', async () => {
    const res = await brain.ingest([{ ...GOOD, text: 'x'.repeat(20_000) }]).expect(413);

    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    await expectNothingWritten();
  });

  it('rejects malformed searches with 400', async () => {
    for (const body of [
      { query: '   ' },
      { query: 'zebras', limit: 0 },
      { query: 'zebras', limit: 51 },
      { query: 'zebras', strategy: 'graph' },
      { query: 'zebras', indexes: ['wiki'] },
      { query: 'z'.repeat(1001) },
    ]) {
      const res = await brain.search(body).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('accepts the service token and a signed-in wallet session', async () => {
    const session = await signInWithWallet(brain.url, Wallet.createRandom());
    expect(session.status).toBe(202);

    await request(brain.url)
      .post('/brain/ingest')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({ documents: [GOOD] })
      .expect(200);
    const byUser = await request(brain.url)
      .post('/brain/ingest')
      .set('Authorization', `Bearer ${session.body.token}`)
      .send({ documents: [{ ...GOOD, source: 'docs/user.md' }] })
      .expect(200);

    expect(byUser.body.documents[0].status).toBe('created');
    expect((await brain.stats()).total_documents).toBe(2);
  });
});
