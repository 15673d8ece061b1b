import fastJsonStringify from 'fast-json-stringify';

/**
 * Answers are serialised from their route's schema (fast-json-stringify, compiled once per route,
 * status and media type at startup). One rule is added: an object schema that allows any other
 * property (`additionalProperties: true`, wire-schemas.ts `Echoed`) is written whole and as it is.
 * fast-json-stringify would write its described properties first and the others after them, which
 * reorders what a client sent and gets back (Terraform compares echoes, COMPAT §3).
 */
export function serializerFor(schema: unknown): (data: unknown) => string {
  return fastJsonStringify(verbatimOpenObjects(schema) as Parameters<typeof fastJsonStringify>[0]);
}

function verbatimOpenObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(verbatimOpenObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  if (node.additionalProperties === true) return node.description === undefined ? {} : { description: node.description };
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, verbatimOpenObjects(value)]));
}
