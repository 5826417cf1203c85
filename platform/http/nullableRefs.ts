/**
 * zod-to-openapi publishes `.nullable()` of a named (registered) schema as
 * `allOf: [{ $ref }, { type: ['object', 'null'] }]`, which no JSON Schema validator satisfies with `null` (the
 * `$ref` part still demands an object): a client validating the server's answers would refuse every null the
 * server sends. This rewrites that shape to `anyOf: [{ $ref }, { type: 'null' }]`, what it means, in a document
 * about to be published (in place; answers the document).
 */
export function publishNullableRefs<T>(document: T): T {
  visit(document);
  return document;
}

function visit(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  const allOf = schema.allOf;
  if (Array.isArray(allOf) && allOf.length === 2 && isRef(allOf[0]) && isNullType(allOf[1])) {
    delete schema.allOf;
    schema.anyOf = [allOf[0], { type: 'null' }];
  }
  for (const value of Object.values(schema)) visit(value);
}

function isRef(node: unknown): boolean {
  return typeof node === 'object' && node !== null && Object.keys(node).join() === '$ref';
}

function isNullType(node: unknown): boolean {
  if (typeof node !== 'object' || node === null || Object.keys(node).join() !== 'type') return false;
  const type = (node as { type: unknown }).type;
  return Array.isArray(type) && type.includes('null');
}
