import { z } from 'zod';
import { ApiRoutes } from '../../../platform/http/routes';
import { UnpublishableSchemaError } from '../../../platform/http/publishedStrings';
import { DisplayNameRequestSchema } from '../../../services/auth/guest/schemas';
import { OpenApiValidator, type OpenApiDocument } from '../../helpers/openapiValidator';

const INFO = { title: 'test', version: '1' };

/** A document of one PUT route whose body is `body`. */
function documentOf(body: z.ZodType): OpenApiDocument {
  const routes = new ApiRoutes();
  routes.add({
    method: 'put',
    path: '/names',
    summary: 'Set a name',
    tags: ['test'],
    request: { body },
    responses: { 200: { description: 'Stored' } },
    handler: () => ({ status: 200 }),
  });
  return routes.document(INFO) as unknown as OpenApiDocument;
}

function bodySchema(document: OpenApiDocument): unknown {
  return document.paths['/names'].put.requestBody?.content?.['application/json'].schema;
}

describe('patterns and formats published from zod', () => {
  it('publishes a Unicode regex as its source, which a 2020-12 validator reads as the server does', () => {
    const document = documentOf(DisplayNameRequestSchema);
    const published = document.components?.schemas?.DisplayNameRequest as {
      properties: { display_name: { pattern: string } };
    };
    expect(published.properties.display_name.pattern).toBe('^[\\p{L}\\p{N}]+( [\\p{L}\\p{N}]+)*$');
    const validate = new OpenApiValidator(document).compile(bodySchema(document));
    for (const name of ['Ann of Thornwick', 'Åsa 2', 'Þór', '名前です'])
      expect({ name, valid: validate({ display_name: name }) }).toEqual({ name, valid: true });
    for (const name of ['two  spaces', 'dash-ed', 'Ann!'])
      expect({ name, valid: validate({ display_name: name }) }).toEqual({ name, valid: false });
    for (const name of ['Ann of Thornwick', 'Åsa 2', 'two  spaces', 'dash-ed'])
      expect(DisplayNameRequestSchema.safeParse({ display_name: name }).success).toBe(
        validate({ display_name: name }),
      );
  });

  it('refuses, when the route is declared, a regex flag JSON Schema cannot express', () => {
    for (const regex of [/^[a-z]+$/i, /^a.b$/s, /^a$/m, /^a$/g])
      expect(() => documentOf(z.object({ name: z.string().regex(regex) }))).toThrow(UnpublishableSchemaError);
    expect(() => documentOf(z.object({ name: z.string().regex(/^[a-z]+$/i) }))).toThrow(
      'PUT /names body: the pattern /^[a-z]+$/i has the flag "i", which JSON Schema cannot express',
    );
  });

  it('refuses a regex that only compiles outside Unicode mode, in nested and lazy schemas too', () => {
    const legacyEscape = new RegExp('^[a\\_]+$');
    expect(() => documentOf(z.object({ name: z.string().regex(legacyEscape) }))).toThrow(
      'does not compile in Unicode mode',
    );
    expect(() =>
      documentOf(z.object({ tags: z.array(z.lazy(() => z.string().regex(legacyEscape))).optional() })),
    ).toThrow(UnpublishableSchemaError);
  });

  it('refuses a format standard validators do not know, and keeps the standard ones', () => {
    expect(() => documentOf(z.object({ host: z.ipv4() }))).toThrow('format "ip" is not a standard format');
    const document = documentOf(z.object({ at: z.iso.datetime(), mail: z.email(), id: z.uuid() }));
    const validate = new OpenApiValidator(document).compile(bodySchema(document));
    expect(
      validate({
        at: '2026-11-28T10:00:00.000Z',
        mail: 'ann@example.org',
        id: '9b2f4f0e-3c1a-4d5e-8f6a-1b2c3d4e5f60',
      }),
    ).toBe(true);
    expect(validate({ at: 'yesterday', mail: 'ann', id: '9b2f' })).toBe(false);
  });
});
