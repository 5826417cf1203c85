import { startMemoryPlatform, type MemoryTestPlatform, type MemoryUser } from './memoryPlatform';

describe('/brain/security routes', () => {
  let server: MemoryTestPlatform;
  let operator: MemoryUser;
  let ann: MemoryUser;
  let leaky: string;

  beforeAll(async () => {
    server = await startMemoryPlatform();
    operator = await server.operator();
    ann = await server.signUp();
    const res = await server
      .as(ann.token)
      .post('/brain/memory/remember', {
        content: 'Write to ann@example.org, token sk-live-abcdefghijklmnopqrstuvwx1234',
        session_id: 's',
      })
      .expect(201);
    leaky = res.body.id;
    await server
      .as(ann.token)
      .post('/brain/memory/remember', {
        content: 'Ann likes the lighthouse',
        tier: 'working',
        session_id: 's',
      })
      .expect(201);
    await server
      .ingest([
        {
          source: 'docs/keys.md',
          index: 'docs',
          // A provider token (ghp_…) is refused at ingest now; a generic key assignment is stored and reported.
          text: '# Keys\n\nNever commit api_key = "abcdefghijklmnop1234" again.',
        },
      ])
      .expect(200);
  });
  afterAll(() => server.stop());

  it('scans memories and the corpus, naming where each finding is and never its value', async () => {
    const res = await server.as(operator.token).post('/brain/security/scan', {}).expect(200);
    const kinds = res.body.findings
      .map((f: { kind: string; where: string }) => `${f.where}:${f.kind}`)
      .sort();
    expect(kinds).toEqual(['corpus:api_token', 'memory:api_token', 'memory:email']);
    expect(res.body.findings.find((f: { where: string }) => f.where === 'memory')).toMatchObject({
      memory_id: leaky,
      subject: ann.subject,
      line: 1,
    });
    expect(res.body.findings.find((f: { where: string }) => f.where === 'corpus')).toMatchObject({
      source: 'docs/keys.md',
      line: 3,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/ann@example|sk-live|abcdefghijklmnop1234/);
  });

  it('redacts findings in place', async () => {
    const res = await server
      .as(operator.token)
      .post('/brain/security/redact', { memory_ids: [leaky] })
      .expect(200);
    expect(res.body.redacted).toEqual([
      { memory_id: leaky, subject: ann.subject, kinds: ['email', 'api_token'] },
    ]);
    const read = await server.as(ann.token).get(`/brain/memory/${leaky}`).expect(200);
    expect(read.body.content).toBe('Write to [redacted:email], token [redacted:api_token]');
  });

  it('lets a user export their own data, and audits who did what without content', async () => {
    const exported = await server.as(ann.token).get('/brain/security/export').expect(200);
    expect(exported.body).toMatchObject({ subject: ann.subject });
    expect(exported.body.memories.map((m: { id: string }) => m.id)).toEqual([leaky]);
    expect(exported.body.working.map((m: { content: string }) => m.content)).toEqual([
      'Ann likes the lighthouse',
    ]);
    const audit = await server
      .as(operator.token)
      .get(`/brain/security/audit?subject=${ann.subject}`)
      .expect(200);
    const actions = audit.body.records.map(
      (r: { action: string; actor: string }) => `${r.actor === ann.subject ? 'ann' : 'operator'}:${r.action}`,
    );
    expect(actions).toEqual(['ann:export', 'ann:read', 'operator:redact', 'ann:remember', 'ann:remember']);
    expect(JSON.stringify(audit.body)).not.toContain('lighthouse');
  });

  it('erases everything about a subject with a receipt', async () => {
    const res = await server.as(operator.token).delete(`/brain/security/subjects/${ann.subject}`).expect(200);
    expect(res.body).toMatchObject({ subject: ann.subject, erased: { memories: 1, working: 1, vectors: 1 } });
    expect(res.body.receipt_id).toMatch(/^[0-9a-f-]{36}$/);
    const after = await server.as(ann.token).get('/brain/security/export').expect(200);
    expect([after.body.memories, after.body.working, after.body.entities, after.body.facts]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    const audit = await server
      .as(operator.token)
      .get(`/brain/security/audit?subject=${ann.subject}&action=erase`)
      .expect(200);
    expect(audit.body.records[0]).toMatchObject({
      actor: `user:${operator.userId}`,
      count: 2,
      details: { receipt_id: res.body.receipt_id },
    });
  });
});
