import { Wallet } from 'ethers';
import request from 'supertest';
import { signInWithWallet } from '../../helpers/siwe';
import { SERVICE_TOKEN, startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

const GOOD = {
  source: 'docs/good.md',
  index: 'docs',
  text: '# Good\n\nA perfectly fine document about zebras.\n',
};

const ADMIN = Wallet.createRandom();

describe('brain ingest: authentication and rejected input', () => {
  let brain: BrainTestPlatform;

  beforeAll(async () => {
    brain = await startBrainPlatform({
      SIWE_ENABLED: '1',
      ADMIN_ADDRESSES: ADMIN.address,
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

  it('answers 400 BRAIN_SECRET_DETECTED when every document holds a secret, writing nothing', async () => {
    const key = '-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----';
    const res = await brain.ingest([
      { source: 'docs/keys.md', index: 'docs', text: `# Keys\n\n${key}\n` },
      { source: 'docs/env.md', index: 'docs', text: `PRIVATE_KEY=0x${'5c'.repeat(32)}\n` },
    ]);
    expect([res.status, res.body.code, res.body.errors]).toEqual([
      400,
      'BRAIN_SECRET_DETECTED',
      [
        { path: 'body.documents.0.text', message: 'private_key at line 3' },
        { path: 'body.documents.1.text', message: 'private_key at line 1' },
      ],
    ]);
    expect(JSON.stringify(res.body)).not.toContain('5c5c5c5c');
    await expectNothingWritten();
  });

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

  it('answers 413 with the limit for a document over BRAIN_MAX_DOCUMENT_BYTES and writes nothing', async () => {
    const res = await brain
      .ingest([
        { ...GOOD, text: `# Big\n\n${'é'.repeat(1100)}` },
        { ...GOOD, source: 'docs/other.md' },
      ])
      .expect(413);

    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: 413,
      code: 'BRAIN_DOCUMENT_TOO_LARGE',
      limit_bytes: 2048,
      errors: [{ path: 'body.documents.0.text', message: 'is 2207 bytes; the limit is 2048' }],
    });
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

  it('refuses a signed-in player with 403 ROLE_REQUIRED and writes nothing', async () => {
    const player = await signInWithWallet(brain.url, Wallet.createRandom());
    expect(player.status).toBe(202);

    const res = await request(brain.url)
      .post('/brain/ingest')
      .set('Authorization', `Bearer ${player.body.token}`)
      .send({ documents: [{ ...GOOD, source: 'docs/DESIGN.md' }] })
      .expect(403);

    expect(res.body).toMatchObject({
      status: 403,
      code: 'ROLE_REQUIRED',
      detail: 'Requires the service token or the operator role',
    });
    await expectNothingWritten();
  });

  it('accepts the service token and an operator, and records who ingested what in hits and stats', async () => {
    const operator = await signInAsOperator();
    await request(brain.url)
      .post('/brain/ingest')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({ documents: [GOOD] })
      .expect(200);
    brain.clock.advance(60_000);
    const byOperator = await request(brain.url)
      .post('/brain/ingest')
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ documents: [{ ...GOOD, source: 'docs/user.md', text: '# Okapis\n\nAbout okapis.\n' }] })
      .expect(200);

    expect(byOperator.body.documents[0].status).toBe('created');
    const stats = await brain.stats();
    expect(stats).toMatchObject({
      total_documents: 2,
      last_ingest_at: new Date(brain.clock.now()).toISOString(),
      last_ingest_by: `user:${operator.id}`,
      documents_by_ingester: [
        { ingested_by: 'service', documents: 1 },
        { ingested_by: `user:${operator.id}`, documents: 1 },
      ].sort((a, b) => a.ingested_by.localeCompare(b.ingested_by)),
    });
    const zebras = (await brain.search({ query: 'zebras', strategy: 'fulltext' }).expect(200)).body.hits;
    expect(zebras[0].metadata).toEqual({
      ingested_by: 'service',
      ingested_at: new Date(brain.clock.now() - 60_000).toISOString(),
    });
    const okapis = (await brain.search({ query: 'okapis', strategy: 'hybrid' }).expect(200)).body.hits;
    expect(okapis[0]).toMatchObject({
      source: 'docs/user.md',
      metadata: {
        ingested_by: `user:${operator.id}`,
        ingested_at: new Date(brain.clock.now()).toISOString(),
      },
    });
  });

  /** A wallet user the admin (ADMIN_ADDRESSES) made an operator. */
  async function signInAsOperator(): Promise<{ id: string; token: string }> {
    const admin = (await signInWithWallet(brain.url, ADMIN)).body.token as string;
    const session = await signInWithWallet(brain.url, Wallet.createRandom());
    const token = session.body.token as string;
    const me = await request(brain.url).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
    const id = me.body.id as string;
    await request(brain.url)
      .put(`/auth/users/${id}/roles`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ roles: ['operator'] })
      .expect(200);
    return { id, token };
  }
});
