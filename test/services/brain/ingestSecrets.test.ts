import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

const hex64 = (byte: string) => byte.repeat(32);

/** Documentation full of hashes: none of them is a secret (issue 36: such pages were refused, with their batch). */
const DOCS_WITH_HASHES = {
  source: 'docs/release.md',
  index: 'docs',
  text: [
    '# Release 1.4',
    '',
    `![flow](https://cdn.example.org/img/${hex64('3f')}.png)`,
    `Image: ghcr.io/acme/forge@sha256:${hex64('9a')}`,
    `The payout went out in transaction 0x${hex64('c1')}.`,
    `Checksum: ${hex64('e4')}  forge-1.4.tar.gz`,
    'Request id 123e4567-e89b-12d3-a456-426614174000, commit 1767159aa0c2b1d3e4f5a6b7c8d9e0f1a2b3c4d5.',
    '',
  ].join('\n'),
};

const ENV_WITH_KEY = {
  source: 'docs/deploy.md',
  index: 'docs',
  text: `# Deploy\n\nRPC_URL=https://rpc.example.org\nPRIVATE_KEY=0x${hex64('7b')}\n`,
};

const TOKEN_PAGE = {
  source: 'docs/ci.md',
  index: 'docs',
  text: `# CI\n\nexport GITHUB_TOKEN=ghp_${'Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6'}\n`,
};

describe('brain ingest: secrets refused per document', () => {
  let brain: BrainTestPlatform;

  beforeAll(async () => {
    brain = await startBrainPlatform();
  });
  afterAll(() => brain?.stop());

  it('stores the documents without secrets and answers 207 naming the refused ones, kind, rule and line', async () => {
    const res = await brain.ingest([DOCS_WITH_HASHES, ENV_WITH_KEY, TOKEN_PAGE]);

    expect(res.status).toBe(207);
    expect(res.body.documents.map((d: { source: string; status: string }) => [d.source, d.status])).toEqual([
      ['docs/release.md', 'created'],
    ]);
    expect(res.body.refused).toEqual([
      {
        position: 1,
        source: 'docs/deploy.md',
        code: 'BRAIN_SECRET_DETECTED',
        findings: [{ kind: 'private_key', rule: 'assigned_hex_key', line: 4 }],
      },
      {
        position: 2,
        source: 'docs/ci.md',
        code: 'BRAIN_SECRET_DETECTED',
        findings: [{ kind: 'api_token', rule: 'github_token', line: 3 }],
      },
    ]);
    expect(res.body.totals.created).toBe(1);
    expect(JSON.stringify(res.body)).not.toMatch(/7b7b7b7b|ghp_Ab3d/);

    const stats = await brain.stats();
    expect(stats.total_documents).toBe(1);
    const hits = await brain
      .search({ query: 'payout transaction checksum', strategy: 'fulltext' })
      .expect(200);
    expect(hits.body.hits.map((h: { source: string }) => h.source)).toContain('docs/release.md');
  });

  it('answers 200 with an empty refused list when nothing holds a secret', async () => {
    const res = await brain.ingest([{ ...DOCS_WITH_HASHES, source: 'docs/release-2.md' }]);

    expect([res.status, res.body.refused]).toEqual([200, []]);
  });
});
