import { redactArguments } from '../../../../services/admin/audit/auditText';

describe('redactArguments (what the audit log keeps of tool arguments)', () => {
  it('replaces values under secret-looking keys at any depth and keeps the rest', () => {
    expect(
      redactArguments({
        query: 'lanterns',
        password: 'hunter2',
        nested: {
          apiKey: 'sk-123',
          api_key: 'sk-456',
          Authorization: 'Bearer x',
          signature: '0xabc',
          limit: 3,
        },
        documents: [{ source: 'a.md', private_key: '0x01' }],
      }),
    ).toEqual({
      query: 'lanterns',
      password: '[redacted]',
      nested: {
        apiKey: '[redacted]',
        api_key: '[redacted]',
        Authorization: '[redacted]',
        signature: '[redacted]',
        limit: 3,
      },
      documents: [{ source: 'a.md', private_key: '[redacted]' }],
    });
  });

  it('cuts long strings, long arrays and deep structures', () => {
    const redacted = redactArguments({
      text: 'x'.repeat(1000),
      items: Array.from({ length: 25 }, (_, index) => index),
      a: { b: { c: { d: { e: 1 } } } },
    }) as Record<string, unknown>;
    expect(redacted.text).toBe(`${'x'.repeat(256)}… (1000 chars)`);
    expect(redacted.items).toEqual([...Array.from({ length: 20 }, (_, index) => index), '… 5 more']);
    expect(redacted.a).toEqual({ b: { c: { d: '{…}' } } });
  });
});
