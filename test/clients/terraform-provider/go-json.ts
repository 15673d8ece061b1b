/**
 * Go's `encoding/json` decoding, transcribed for the provider's structs: an answer is decoded with
 * the descriptor of the Go type the provider decodes it into, and fails where Go's `json.Unmarshal`
 * fails, with Go's message.
 *
 * Descriptors (`go.*`):
 * - `go.string`, `go.bool`, `go.int` (Go's 64-bit `int`), `go.int64`, `go.float64`: a JSON value of
 *   another kind is an error; a number literal that is not an integer (`16.0`, `1e3`) or is out of
 *   range does not fit an int; `null` leaves the zero value.
 * - `go.ptr(t)`: `null` is nil (JS `null`); `go.slice(t)`, `go.map(t)` (string keys): `null` is the nil
 *   slice or map (JS `null`), `[]` and `{}` are not nil.
 * - `go.struct(name, { jsonName: t, … }, { GoName: embeddedStruct })` (or `go.struct({ … }, { … })`
 *   for an unnamed struct): missing fields keep their zero value, unknown fields are ignored, keys match
 *   exactly first and then case-insensitively (as Go does), `null` leaves the zero struct. An
 *   embedded struct's fields are promoted (a direct field of the same name wins) and a mismatch in
 *   one names the embedded struct's Go name in its path, as Go ≥ 1.24 does; `json:"-"` fields are
 *   left out; `omitempty` does not matter for decoding. Decoded structs are plain objects holding
 *   every field, promoted ones included.
 * - `go.any` (`interface{}`: numbers become float64), `go.raw` (`json.RawMessage`: the value's text).
 * - `go.named(name, t)`: a named type over a scalar `t` (e.g. `enum.Entry[…]` over string), for
 *   messages.
 *   The provider's enum types (client/types/enum) have no UnmarshalJSON: any string decodes, so an
 *   enum is `go.named(…, go.string)` and a status check belongs to the flow, as the provider does it.
 * - `go.custom(name, decode, zero, isZero)`: a type with its own UnmarshalJSON, replicated by hand. `decode`
 *   receives the value's raw text (also `"null"`, which Go hands to UnmarshalJSON too) and returns the
 *   value or throws; as in Go, that error ends the whole decode. `tryDecodeGo` gives a custom
 *   decoder Go's "partial value and first error" of a nested `json.Unmarshal`.
 *
 * `decodeGo(type, text)` returns the decoded value or throws Go's error: a type mismatch such as
 * `json: cannot unmarshal array into Go struct field MeshBuildingBlockV2Status.status.outputs of type
 * map[string]client.MeshBuildingBlockOutput` (Go keeps decoding after one and reports the first),
 * a syntax error, or the first custom decoder's error. `isZeroGo(type, value)` is reflect's IsZero.
 */

/** A parsed JSON value that keeps its source text, so numbers stay as literals. */
type JsonNode =
  | { kind: 'null'; raw: string }
  | { kind: 'bool'; raw: string; value: boolean }
  | { kind: 'number'; raw: string }
  | { kind: 'string'; raw: string; value: string }
  | { kind: 'array'; raw: string; items: JsonNode[] }
  | { kind: 'object'; raw: string; entries: [string, JsonNode][] };

/** Where a type mismatch happened: Go's errorContext (innermost struct, field names from the top). */
interface Context {
  struct: string | undefined;
  fields: string[];
}

class DecodeState {
  firstError: Error | undefined;
  save(error: Error): void {
    this.firstError ??= error;
  }
}

export interface GoType {
  /** Go's `reflect.Type.String()` of the type, e.g. `map[string]*client.MeshBuildingBlockInput`. */
  readonly name: string;
  zero(): unknown;
  isZero(value: unknown): boolean;
  /** @internal */
  decode(node: JsonNode, into: unknown, state: DecodeState, context: Context): unknown;
}

function mismatch(node: JsonNode, type: GoType, context: Context, state: DecodeState, value: string = node.kind): void {
  const target = context.struct !== undefined || context.fields.length > 0 ? `Go struct field ${context.struct ?? ''}.${context.fields.join('.')}` : 'Go value';
  state.save(new Error(`json: cannot unmarshal ${value} into ${target} of type ${type.name}`));
}

function primitive(name: string, kind: 'string' | 'bool', zero: string | boolean): GoType {
  const type: GoType = {
    name,
    zero: () => zero,
    isZero: (value) => value === zero,
    decode(node, into, state, context) {
      if (node.kind === 'null') return into;
      if (node.kind === kind) return (node as { value: unknown }).value;
      mismatch(node, type, context, state);
      return into;
    },
  };
  return type;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function integer(name: string): GoType {
  const type: GoType = {
    name,
    zero: () => 0,
    isZero: (value) => value === 0,
    decode(node, into, state, context) {
      if (node.kind === 'null') return into;
      if (node.kind !== 'number') {
        mismatch(node, type, context, state);
        return into;
      }
      // strconv.ParseInt: decimal digits only, within int64.
      if (/^-?\d+$/.test(node.raw)) {
        const parsed = BigInt(node.raw);
        if (parsed >= INT64_MIN && parsed <= INT64_MAX) return Number(parsed);
      }
      mismatch(node, type, context, state, `number ${node.raw}`);
      return into;
    },
  };
  return type;
}

const float64: GoType = {
  name: 'float64',
  zero: () => 0,
  isZero: (value) => value === 0,
  decode(node, into, state, context) {
    if (node.kind === 'null') return into;
    if (node.kind !== 'number') {
      mismatch(node, float64, context, state);
      return into;
    }
    const parsed = Number(node.raw);
    if (Number.isFinite(parsed)) return parsed;
    mismatch(node, float64, context, state, `number ${node.raw}`);
    return into;
  },
};

/** interface{}: what Go puts in an `any` (objects as maps, numbers as float64). */
function decodeAny(node: JsonNode, state: DecodeState, context: Context): unknown {
  switch (node.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
      return node.value;
    case 'number': {
      const parsed = Number(node.raw);
      if (Number.isFinite(parsed)) return parsed;
      mismatch(node, float64, context, state, `number ${node.raw}`);
      return null;
    }
    case 'array':
      return node.items.map((item) => decodeAny(item, state, context));
    case 'object':
      return fromEntries(node.entries.map(([key, value]) => [key, decodeAny(value, state, context)]));
  }
}

/** A plain object from entries, safe for keys such as `__proto__` (the last duplicate wins, as in Go). */
function fromEntries(entries: [string, unknown][]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
  return result;
}

const anyType: GoType = {
  name: 'interface {}',
  zero: () => null,
  isZero: (value) => value === null,
  decode: (node, _into, state, context) => decodeAny(node, state, context),
};

const raw: GoType = {
  name: 'json.RawMessage',
  zero: () => null,
  isZero: (value) => value === null,
  decode: (node) => node.raw,
};

function ptr(elem: GoType): GoType {
  const type: GoType = {
    name: `*${elem.name}`,
    zero: () => null,
    isZero: (value) => value === null,
    decode(node, into, state, context) {
      if (node.kind === 'null') return null;
      return elem.decode(node, into ?? elem.zero(), state, context);
    },
  };
  return type;
}

function slice(elem: GoType): GoType {
  const type: GoType = {
    name: `[]${elem.name}`,
    zero: () => null,
    isZero: (value) => value === null,
    decode(node, into, state, context) {
      if (node.kind === 'null') return null;
      if (node.kind !== 'array') {
        mismatch(node, type, context, state);
        return into;
      }
      return node.items.map((item) => elem.decode(item, elem.zero(), state, context));
    },
  };
  return type;
}

function map(elem: GoType): GoType {
  const type: GoType = {
    name: `map[string]${elem.name}`,
    zero: () => null,
    isZero: (value) => value === null,
    decode(node, into, state, context) {
      if (node.kind === 'null') return null;
      if (node.kind !== 'object') {
        mismatch(node, type, context, state);
        return into;
      }
      // Go decodes into the existing map (or a new one), a duplicate key's last value winning.
      const result = fromEntries(Object.entries((into as Record<string, unknown> | null) ?? {}));
      for (const [key, value] of node.entries) Object.defineProperty(result, key, { value: elem.decode(value, elem.zero(), state, context), enumerable: true, writable: true, configurable: true });
      return result;
    },
  };
  return type;
}

export type GoFields = Record<string, GoType>;

/** A struct type: its JSON fields, including those promoted from embedded structs (`via` their Go field names). */
export interface GoStruct extends GoType {
  readonly fields: GoFields;
  readonly promoted: ReadonlyMap<string, { type: GoType; via: readonly string[] }>;
}

function struct(name: string, fields: GoFields, embedded?: Record<string, GoStruct>): GoStruct;
function struct(fields: GoFields, embedded?: Record<string, GoStruct>): GoStruct;
function struct(nameOrFields: string | GoFields, second?: GoFields | Record<string, GoStruct>, third?: Record<string, GoStruct>): GoStruct {
  const name = typeof nameOrFields === 'string' ? nameOrFields : 'struct';
  const direct = typeof nameOrFields === 'string' ? (second as GoFields) : nameOrFields;
  const embedded = (typeof nameOrFields === 'string' ? third : (second as Record<string, GoStruct> | undefined)) ?? {};
  // reflect.Type.Name(): the unqualified name, empty for an unnamed struct.
  const shortName = typeof nameOrFields === 'string' ? name.slice(name.lastIndexOf('.') + 1) : '';
  // A direct field hides a promoted one of the same name (the shallower field wins).
  const promoted = new Map<string, { type: GoType; via: readonly string[] }>(Object.entries(direct).map(([key, type]) => [key, { type, via: [] }]));
  for (const [goName, inner] of Object.entries(embedded)) {
    for (const [key, field] of inner.promoted) if (!promoted.has(key)) promoted.set(key, { type: field.type, via: [goName, ...field.via] });
  }
  const fields: GoFields = Object.fromEntries([...promoted].map(([key, field]) => [key, field.type]));
  const folded = new Map<string, string>();
  for (const key of promoted.keys()) if (!folded.has(key.toLowerCase())) folded.set(key.toLowerCase(), key);
  const type: GoStruct = {
    name,
    fields,
    promoted,
    zero: () => fromEntries(Object.entries(fields).map(([key, field]) => [key, field.zero()])),
    isZero: (value: unknown) => Object.entries(fields).every(([key, field]) => field.isZero((value as Record<string, unknown>)[key])),
    decode(node: JsonNode, into: unknown, state: DecodeState, context: Context) {
      if (node.kind === 'null') return into;
      if (node.kind !== 'object') {
        mismatch(node, type, context, state);
        return into;
      }
      const result = { ...(into as Record<string, unknown>) };
      for (const [key, value] of node.entries) {
        const field = promoted.has(key) ? key : folded.get(key.toLowerCase());
        if (field === undefined) continue;
        const { type: fieldType, via } = promoted.get(field)!;
        // Go's error context names the embedded structs a promoted field comes through.
        result[field] = fieldType.decode(value, result[field], state, { struct: shortName, fields: [...context.fields, ...via, field] });
      }
      return result;
    },
  };
  return type;
}

function named(name: string, underlying: GoType): GoType {
  const type: GoType = {
    name,
    zero: () => underlying.zero(),
    isZero: (value) => underlying.isZero(value),
    decode(node, into, state, context) {
      // The mismatch names the named type, so decode through a copy that carries this name.
      const inner = new DecodeState();
      const value = underlying.decode(node, into, inner, context);
      if (inner.firstError) mismatch(node, type, context, state, /cannot unmarshal (.*) into Go/.exec(inner.firstError.message)?.[1]);
      return value;
    },
  };
  return type;
}

function custom(name: string, decode: (rawText: string) => unknown, zero: () => unknown = () => null, isZero: (value: unknown) => boolean = (value) => value === null): GoType {
  return {
    name,
    zero,
    isZero,
    decode: (node) => decode(node.raw),
  };
}

export const go = {
  string: primitive('string', 'string', ''),
  bool: primitive('bool', 'bool', false),
  int: integer('int'),
  int64: integer('int64'),
  float64,
  any: anyType,
  raw,
  ptr,
  slice,
  map,
  struct,
  named,
  custom,
};

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  parseDocument(): JsonNode {
    const node = this.value();
    this.space();
    if (this.at < this.text.length) this.fail('after top-level value');
    return node;
  }

  private fail(where: string): never {
    if (this.at >= this.text.length) throw new Error('unexpected end of JSON input');
    throw new Error(`invalid character ${JSON.stringify(this.text[this.at])} ${where}`);
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\r\n'.includes(this.text[this.at]!)) this.at++;
  }

  private value(): JsonNode {
    this.space();
    const start = this.at;
    const char = this.text[this.at];
    if (char === '{') return this.object(start);
    if (char === '[') return this.array(start);
    if (char === '"') {
      const value = this.string();
      return { kind: 'string', raw: this.text.slice(start, this.at), value };
    }
    for (const [word, node] of [
      ['null', { kind: 'null' }],
      ['true', { kind: 'bool', value: true }],
      ['false', { kind: 'bool', value: false }],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return { ...node, raw: word } as JsonNode;
      }
    }
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at));
    if (number) {
      this.at += number[0].length;
      return { kind: 'number', raw: number[0] };
    }
    return this.fail('looking for beginning of value');
  }

  private string(): string {
    // eslint-disable-next-line no-control-regex -- control characters are invalid inside JSON strings
    const match = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(this.text.slice(this.at));
    if (!match) {
      this.at = this.text.length;
      return this.fail('in string literal');
    }
    this.at += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  private array(start: number): JsonNode {
    this.at++;
    const items: JsonNode[] = [];
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return { kind: 'array', raw: this.text.slice(start, this.at), items };
    }
    for (;;) {
      items.push(this.value());
      this.space();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] === ']') {
        this.at++;
        return { kind: 'array', raw: this.text.slice(start, this.at), items };
      } else this.fail('after array element');
    }
  }

  private object(start: number): JsonNode {
    this.at++;
    const entries: [string, JsonNode][] = [];
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return { kind: 'object', raw: this.text.slice(start, this.at), entries };
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') this.fail('looking for beginning of object key string');
      const key = this.string();
      this.space();
      if (this.text[this.at] !== ':') this.fail('after object key');
      this.at++;
      entries.push([key, this.value()]);
      this.space();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] === '}') {
        this.at++;
        return { kind: 'object', raw: this.text.slice(start, this.at), entries };
      } else this.fail('after object key:value pair');
    }
  }
}

/**
 * `json.Unmarshal(text, &v)` into a zero `v`: the value as far as it decoded and the first error
 * (a syntax error leaves the zero value). A custom decoder's error is thrown, as Go ends there.
 */
export function tryDecodeGo<T = unknown>(type: GoType, text: string): { value: T; error: Error | undefined } {
  let node: JsonNode;
  try {
    node = new Parser(text).parseDocument();
  } catch (error) {
    return { value: type.zero() as T, error: error as Error };
  }
  const state = new DecodeState();
  const value = type.decode(node, type.zero(), state, { struct: undefined, fields: [] });
  return { value: value as T, error: state.firstError };
}

/** `json.Unmarshal(text, &v)` into a zero `v`, throwing its error. */
export function decodeGo<T = unknown>(type: GoType, text: string): T {
  const { value, error } = tryDecodeGo<T>(type, text);
  if (error) throw error;
  return value;
}

/** reflect.Value.IsZero for a decoded value of `type`. */
export const isZeroGo = (type: GoType, value: unknown): boolean => type.isZero(value);
