import { AppError } from '../../../../platform/errors';
import { ingestAdmitted, screenIngestDocuments } from '../../../../services/brain/security/ingestSecretGuard';

const KEY = '-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----';
const doc = (source: string, text: string) => ({ source, text });

describe('ingest secret screen', () => {
  it('refuses only the document holding key material, naming its position, kind, rule and line', () => {
    const screened = screenIngestDocuments([doc('a.md', 'fine'), doc('keys.md', `notes\n${KEY}`)], false);

    expect(screened.admitted).toEqual([{ position: 0, document: doc('a.md', 'fine') }]);
    expect(screened.refused).toEqual([
      {
        position: 1,
        source: 'keys.md',
        findings: [{ kind: 'private_key', rule: 'pem_private_key', line: 2 }],
      },
    ]);
  });

  it('answers 400 BRAIN_SECRET_DETECTED when every document holds a secret', () => {
    expect(() => screenIngestDocuments([doc('keys.md', `notes\n${KEY}`)], false)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'BRAIN_SECRET_DETECTED',
        errors: [{ path: 'body.documents.0.text', message: 'private_key at line 2' }],
      }),
    );
  });

  it('redacts instead when configured', () => {
    expect(screenIngestDocuments([doc('a.md', `a ${KEY} b`)], true).admitted).toEqual([
      { position: 0, document: doc('a.md', 'a [redacted:private_key] b') },
    ]);
  });

  it('names a malformed admitted document by its position in the request', async () => {
    const ingestor = {
      ingest: async () => {
        throw new AppError(400, 'BRAIN_DOCUMENT_EMPTY', 'Invalid request', {
          detail: 'body.documents.1.text is empty',
          errors: [{ path: 'body.documents.1.text', message: 'is empty' }],
        });
      },
    };
    const admitted = [
      { position: 0, document: { source: 'a.md', index: 'docs' as const, text: 'a' } },
      { position: 2, document: { source: 'c.md', index: 'docs' as const, text: ' ' } },
    ];

    await expect(ingestAdmitted(ingestor, admitted, 'service')).rejects.toMatchObject({
      status: 400,
      code: 'BRAIN_DOCUMENT_EMPTY',
      detail: 'body.documents.2.text is empty',
      errors: [{ path: 'body.documents.2.text', message: 'is empty' }],
    });
  });
});
