import fastJsonStringify from 'fast-json-stringify';

/**
 * Answers are serialised from their route's schema (fast-json-stringify, compiled once per route,
 * status and media type at startup), from a copy of it with two rules:
 * - an object schema that allows any other property (`additionalProperties: true`, wire-schemas.ts
 *   `Echoed`) is written whole and as it is. fast-json-stringify would write its described properties
 *   first and the others after them, which reorders what a client sent and gets back (Terraform
 *   compares echoes, COMPAT §3);
 * - a union of plain values (`'ACTIVE' | 'DELETED'`, a uuid or null) is written by its JSON types:
 *   fast-json-stringify would otherwise validate every such value against each branch while writing;
 * - a record of any key (TypeBox's `Record(String, …)`, the pattern `^(.*)$`) is written with every
 *   key: the pattern's `.` matches no line break, and fast-json-stringify would drop such a key
 *   (a run's output may be named anything).
 */
export function serializerFor(schema: unknown): (data: unknown) => string {
  const key = JSON.stringify(schema);
  let serializer = compiled.get(key);
  if (!serializer) {
    serializer = fastJsonStringify(forSerializer(schema) as Parameters<typeof fastJsonStringify>[0]);
    compiled.set(key, serializer);
  }
  return serializer;
}

/**
 * Serializers by the text of their schema, compiled once per process: most answers share a schema
 * (the error body of every status, one kind's body under every vendor segment), and a process that
 * starts several servers (the tests) needs them again. The route table bounds the map.
 */
const compiled = new Map<string, (data: unknown) => string>();

type Node = Record<string, unknown>;

/** Keywords of a schema that only constrains a scalar value (no structure to write). */
const SCALAR_KEYWORDS = new Set([
  'type',
  'const',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'description',
]);
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function forSerializer(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerializer);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Node;
  if (node.additionalProperties === true) return node.description === undefined ? {} : { description: node.description };
  const anyKey = recordOfAnyKey(node);
  if (anyKey) return { type: 'object', additionalProperties: forSerializer(anyKey) };
  const types = Array.isArray(node.anyOf) ? scalarTypes(node.anyOf as Node[]) : undefined;
  if (types) return { type: types.length === 1 ? types[0] : types };
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, forSerializer(value)]));
}

/** The value schema of an object schema that only allows any key with it (`Record(String, …)`), or undefined. */
function recordOfAnyKey(node: Node): unknown {
  const patterns = node.patternProperties as Node | undefined;
  if (node.properties !== undefined || patterns === undefined) return undefined;
  const keys = Object.keys(patterns);
  return keys.length === 1 && keys[0] === '^(.*)$' ? patterns[keys[0]] : undefined;
}

/** The JSON types of a union whose every branch is a plain value, or undefined. */
function scalarTypes(branches: Node[]): string[] | undefined {
  const types = new Set<string>();
  for (const branch of branches) {
    if (typeof branch.type !== 'string' || !SCALAR_TYPES.has(branch.type) || !Object.keys(branch).every((key) => SCALAR_KEYWORDS.has(key)))
      return undefined;
    types.add(branch.type);
  }
  return [...types];
}
