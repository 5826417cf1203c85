import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI 3.1 document the validator reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown> };
}

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  parameters?: { name: string; in: string; schema?: unknown }[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** Where the component schemas live for the validator: `#/components/schemas/X` becomes `<id>#/$defs/X`. */
const COMPONENTS_ID = 'https://forge.invalid/openapi/components';

/** Every schema of an operation, with its JSON pointer in the document. */
export interface OperationSchema {
  pointer: string;
  schema: unknown;
}

/**
 * A standard JSON Schema 2020-12 validator (ajv with ajv-formats, strict) over an OpenAPI 3.1 document, as a
 * client author's tooling reads it: unknown keywords and formats, and patterns that do not compile in Unicode
 * mode, are errors. OpenAPI's own schema keywords (`example`, `discriminator`, `xml`, `externalDocs`) are allowed.
 */
export class OpenApiValidator {
  readonly ajv = new Ajv2020({ strict: true, allErrors: true });

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: withComponentRefs(document.components?.schemas ?? {}) });
  }

  /** Compiles a schema of the document (refs to components resolved); throws as ajv does on anything invalid. */
  compile(schema: unknown): ValidateFunction {
    return this.ajv.compile(withComponentRefs(schema) as object);
  }

  /** Every schema the document declares: components, parameters, request bodies and responses. */
  schemas(): OperationSchema[] {
    const found: OperationSchema[] = Object.entries(this.document.components?.schemas ?? {}).map(
      ([name, schema]) => ({ pointer: `#/components/schemas/${name}`, schema }),
    );
    for (const [path, item] of Object.entries(this.document.paths))
      for (const [method, operation] of Object.entries(item)) {
        const at = `#/paths/${escapePointer(path)}/${method}`;
        for (const [i, parameter] of (operation.parameters ?? []).entries())
          if (parameter.schema)
            found.push({ pointer: `${at}/parameters/${i}/schema`, schema: parameter.schema });
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
          if (media.schema)
            found.push({
              pointer: `${at}/requestBody/content/${escapePointer(type)}/schema`,
              schema: media.schema,
            });
        for (const [status, response] of Object.entries(operation.responses))
          for (const [type, media] of Object.entries(response.content ?? {}))
            if (media.schema)
              found.push({
                pointer: `${at}/responses/${status}/content/${escapePointer(type)}/schema`,
                schema: media.schema,
              });
      }
    return found;
  }

  /**
   * Checks an answer against the operation's declared response for its status and media type: undeclared status,
   * undeclared media type and schema mismatches are returned as messages (an empty list means it conforms).
   */
  responseErrors(
    method: string,
    path: string,
    answer: { status: number; headers: Record<string, string | undefined>; body: unknown },
  ): string[] {
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${path} is not in the document`];
    const response = operation.responses[String(answer.status)];
    if (!response) return [`${method} ${path} does not declare status ${answer.status}`];
    const mediaType = (answer.headers['content-type'] ?? '').split(';')[0].trim();
    if (!response.content)
      return answer.body === undefined || isEmpty(answer.body) ? [] : ['undeclared body'];
    const media = response.content[mediaType];
    if (!media)
      return [`${method} ${path} ${answer.status} does not declare ${mediaType || 'no content type'}`];
    const validate = this.compile(media.schema ?? {});
    return validate(answer.body) ? [] : (validate.errors ?? []).map(describe);
  }
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || '/'} ${error.message ?? error.keyword}`;
}

function isEmpty(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Object.keys(body).length === 0;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A copy of `node` with `#/components/schemas/X` refs pointing at the validator's component schema. */
function withComponentRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withComponentRefs);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')
        ? [key, `${COMPONENTS_ID}#/$defs/${value.slice('#/components/schemas/'.length)}`]
        : [key, withComponentRefs(value)],
    ),
  );
}
