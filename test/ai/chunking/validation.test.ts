import { ValidationError } from '../../../platform/errors';
import { decodeSourceBytes, validateSourceDocument } from '../../../ai/chunking/validation';
import { buildSourceDocument } from '../factories';

function rejection(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('validateSourceDocument', () => {
  it('accepts a text document and narrows its index', () => {
    expect(validateSourceDocument(buildSourceDocument({ index: 'tests' })).index).toBe('tests');
  });

  it('rejects blank text with BRAIN_DOCUMENT_EMPTY', () => {
    const error = rejection(() => validateSourceDocument(buildSourceDocument({ text: ' \n\t ' })));

    expect([error.status, error.code, error.errors]).toEqual([
      400,
      'BRAIN_DOCUMENT_EMPTY',
      [{ path: 'body.text', message: 'must contain non-whitespace text' }],
    ]);
  });

  it('rejects oversized text with BRAIN_DOCUMENT_TOO_LARGE', () => {
    const doc = buildSourceDocument({ text: 'é'.repeat(600) });
    const error = rejection(() => validateSourceDocument(doc, { maxBytes: 1000, maxSourceLength: 100 }));

    expect([error.code, error.detail]).toEqual([
      'BRAIN_DOCUMENT_TOO_LARGE',
      'body.text is 1200 bytes; the limit is 1000',
    ]);
  });

  it('rejects binary-looking text with BRAIN_DOCUMENT_BINARY', () => {
    const error = rejection(() =>
      validateSourceDocument(buildSourceDocument({ text: 'PK\u0003\u0004\u0000\u0000data' })),
    );

    expect(error.code).toBe('BRAIN_DOCUMENT_BINARY');
  });

  it('reports every failing field, coded by the first', () => {
    const error = rejection(() =>
      validateSourceDocument(
        buildSourceDocument({ index: 'wiki', source: '', text: '' }),
        undefined,
        'body.documents.2',
      ),
    );

    expect(error.code).toBe('BRAIN_UNKNOWN_INDEX');
    expect(error.errors).toEqual([
      { path: 'body.documents.2.index', message: 'must be one of docs, code, tests' },
      { path: 'body.documents.2.source', message: 'must be a non-empty path or URL' },
      { path: 'body.documents.2.text', message: 'must contain non-whitespace text' },
    ]);
  });
});

describe('decodeSourceBytes', () => {
  it('decodes UTF-8 text', () => {
    expect(decodeSourceBytes(Buffer.from('héllo', 'utf8'))).toBe('héllo');
  });

  it.each([
    ['a NUL byte', Buffer.from([0x50, 0x4b, 0x00, 0x41])],
    ['invalid UTF-8', Buffer.from([0x41, 0xff, 0xfe, 0x41])],
  ])('rejects %s as binary', (_label, bytes) => {
    const error = rejection(() => decodeSourceBytes(bytes, 'file'));

    expect([error.code, error.errors]).toEqual([
      'BRAIN_DOCUMENT_BINARY',
      [{ path: 'file', message: 'binary content' }],
    ]);
  });
});
