import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { request, type Agent } from 'undici';
import { stringify } from 'yaml';
import { media } from './client.js';
import { createReleasedDefinition, definitionBody, postVersion, versionBody, versionSpec } from './definitions.js';
import { createKey, login, type KeyCredentials } from './identity.js';
import { asRun, claimRun, createBlock, postRunner, register, runnerBody, SHARED_RUNNERS } from './runs.js';
import { runAdminCommand } from '../../src/admin-cli.js';
import { loadConfig } from '../../src/config.js';
import { basic, TEST_ADMIN, type TestServer } from './server.js';
import {
  createLocation,
  createPaymentMethod,
  createPlatform,
  createProject,
  createTenant,
  createWorkspace,
  locationBody,
  platformBody,
  projectBody,
  tenantBody,
  unique,
  workspaceBody,
} from './structure.js';

/**
 * Generators, a raw HTTPS sender and the response invariants of the hostile-input suite.
 * Everything here speaks to the server as a client would: requests are bytes on the wire,
 * responses are judged only by what comes back (and by the server's own log, to report a failure).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export const IDENTIFIER = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
/** Kinds whose `metadata.name` is an identifier (README "Identifiers"; not platform types: the built-in ones are named as platforms name them, `AZURE`). */
export const IDENTIFIER_KINDS = new Set(['meshWorkspace', 'meshProject', 'meshLocation', 'meshPlatform', 'meshPaymentMethod']);
/** Metadata fields that name a workspace or project, per kind (elsewhere such a key is an unknown field, echoed as sent). */
export const REFERENCE_FIELDS: Record<string, string[]> = {
  meshProject: ['ownedByWorkspace'],
  meshLocation: ['ownedByWorkspace'],
  meshPlatform: ['ownedByWorkspace'],
  meshTenant: ['ownedByWorkspace', 'ownedByProject'],
  meshBuildingBlockDefinition: ['ownedByWorkspace'],
  meshBuildingBlockDefinitionVersion: ['ownedByWorkspace'],
  meshBuildingBlock: ['ownedByWorkspace'],
  meshBuildingBlockRunner: ['ownedByWorkspace'],
  meshApiKey: ['ownedByWorkspace'],
  meshPaymentMethod: ['ownedByWorkspace'],
};
/** Kinds whose `spec.displayName` is a 1-255 character string (elsewhere it is an unknown field, echoed as sent). */
export const DISPLAY_NAME_KINDS = new Set([
  'meshWorkspace',
  'meshProject',
  'meshLocation',
  'meshPlatform',
  'meshBuildingBlockDefinition',
  'meshBuildingBlock',
  'meshBuildingBlockRunner',
  'meshApiKey',
  'meshPaymentMethod',
  'meshPlatformType',
  'meshTagDefinition',
]);
/** Own keys the generators use to detect prototype pollution in this process. */
export const POLLUTION_MARKERS = ['polluted', 'hostileMarker', 'isAdmin'] as const;

// ---------------------------------------------------------------------------------------------
// The route table, with the media types each route speaks (asked from the server itself)

export interface RouteSpec {
  method: string;
  /** Fastify's path, e.g. `/api/meshobjects/meshworkspaces/:id`. */
  template: string;
  /** `:id`, `:uuid`, `*`… in order. */
  params: string[];
  /** Media types the route answers with (Accept must name one); empty: Accept is ignored. */
  produces: string[];
  /** Versioned body types (Content-Type must name one). */
  consumes: string[];
  /** Unversioned body types (login: a form or JSON). */
  plainBodies: string[];
}

export const routeKey = (route: Pick<RouteSpec, 'method' | 'template'>) => `${route.method} ${route.template}`;

const paramsOf = (template: string) => template.split('/').filter((part) => part.startsWith(':') || part === '*');

/** The list after "send one of: " in a 406/415 message. */
function offered(text: string): string[] {
  try {
    // The API's errors say it in `message`, SCIM's (`/scim/v2`) in `detail`.
    const parsed = JSON.parse(text) as { message?: unknown; detail?: unknown };
    const message = parsed.message ?? parsed.detail;
    if (typeof message !== 'string') return [];
    const at = message.lastIndexOf('send one of: ');
    return at === -1
      ? []
      : message
          .slice(at + 'send one of: '.length)
          .split(', ')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  } catch {
    return [];
  }
}

/**
 * Asks every route which representations it speaks: an Accept nobody serves answers 406 naming what
 * the route produces, a Content-Type nobody serves answers 415 naming what it consumes. Probes use ids
 * that name nothing, so they change nothing.
 */
export async function discoverRoutes(
  send: (method: string, path: string, headers: Record<string, string>, body?: string) => Promise<{ status: number; text: string }>,
  keys: Iterable<string>,
): Promise<RouteSpec[]> {
  const routes: RouteSpec[] = [];
  for (const key of keys) {
    const space = key.indexOf(' ');
    const method = key.slice(0, space);
    const template = key.slice(space + 1);
    const params = paramsOf(template);
    const path = template
      .split('/')
      .map((part) =>
        part.startsWith(':')
          ? part === ':username'
            ? 'no-such-user-probe'
            : part === ':sourceId'
              ? 'no-such-source'
              : randomUUID()
          : part === '*'
            ? 'probe'
            : part,
      )
      .join('/');
    const probeMethod = method === 'HEAD' ? 'GET' : method;
    const first = await send(probeMethod, path, { accept: 'application/x-hostile-probe' });
    const produces = first.status === 406 ? offered(first.text) : [];
    const second = await send(
      probeMethod,
      path,
      { ...(produces[0] ? { accept: produces[0] } : {}), 'content-type': 'application/x-hostile-probe' },
      '{}',
    );
    const types = second.status === 415 ? offered(second.text) : [];
    routes.push({
      method,
      template,
      params,
      produces,
      consumes: types.filter((t) => t.includes('vnd.')),
      plainBodies: types.filter((t) => !t.includes('vnd.')),
    });
  }
  return routes;
}

/** `kind` and `version` of `application/vnd.<vendor>.api.<kind>.<version>(.hal+json|+json|+yaml)`. */
export function parseMedia(type: string): { kind: string; version: string; format: string } | undefined {
  const match = /^application\/vnd\.[a-z0-9-]+\.api\.(?:([a-z][a-z0-9]*)\.)?(v\d+(?:-preview)?)(?:\.(hal\+json)|\+(json|yaml))$/i.exec(
    type.split(';')[0]!.trim(),
  );
  if (!match) return undefined;
  return { kind: (match[1] ?? '').toLowerCase(), version: match[2]!.toLowerCase(), format: (match[3] ?? match[4] ?? '').toLowerCase() };
}

// ---------------------------------------------------------------------------------------------
// Raw requests and responses

export interface HostileRequest {
  /** `METHOD template` of the route the case is aimed at. */
  route: string;
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What the body is (family of the generator), for the report. */
  bodyKind?: string;
  /** The body carries `__proto__` or `constructor.prototype` keys: it must be refused. */
  poisoned?: boolean;
}

export interface HostileResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  ms: number;
}

const clip = (text: string, max = 400) => (text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`);

/** A compact, copy-pasteable description of a request (long values clipped, bodies escaped). */
export function describeRequest(req: HostileRequest): string {
  // Long credentials (tokens) are cut short: a report names which one was sent, it does not hand it out.
  const shown = (name: string, value: string) =>
    name === 'authorization' && value.length > 60 ? `${value.slice(0, 24)}… (${value.length} chars, redacted)` : value;
  const headers = Object.entries(req.headers)
    .map(([name, value]) => `  ${name}: ${clip(JSON.stringify(shown(name, value)).slice(1, -1), 300)}`)
    .join('\n');
  let body = '';
  if (req.body !== undefined) {
    const text = Buffer.isBuffer(req.body) ? req.body.toString('latin1') : req.body;
    const bytes = Buffer.isBuffer(req.body) ? ` (${req.body.length} bytes, shown as latin1)` : '';
    body = `\n  body[${req.bodyKind ?? 'raw'}]${bytes}: ${clip(JSON.stringify(text), 1200)}`;
  }
  return `${req.method} ${clip(req.path, 600)}\n${headers}${body}`;
}

/** Attaches fast-check's printer so counterexamples stay readable (no 10 MB dumps). */
export function printable(req: HostileRequest): HostileRequest {
  Object.defineProperty(req, fc.toStringMethod, { value: () => `\n${describeRequest(req)}\n`, enumerable: false });
  return req;
}

export async function sendRaw(baseUrl: string, agent: Agent, req: HostileRequest, timeoutMs: number): Promise<HostileResponse> {
  const started = Date.now();
  const response = await request(`${baseUrl}${req.path}`, {
    method: req.method as 'GET',
    headers: req.headers,
    body: req.body,
    dispatcher: agent,
    signal: AbortSignal.timeout(timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await response.body.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return { status: response.statusCode, headers, text, ms: Date.now() - started };
}

// ---------------------------------------------------------------------------------------------
// Known secrets: collected as the suite creates them, never to be echoed

export class SecretBook {
  private readonly secrets = new Map<string, string>();

  add(label: string, value: unknown): void {
    if (typeof value === 'string' && value.length >= 8) this.secrets.set(value, label);
  }

  /** Secrets a creation, rotation, login or claim answer hands out (new ones, by design). */
  harvest(text: string): void {
    if (!text.includes('ecret') && !text.includes('oken')) return;
    let json: Json;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    const walk = (value: Json, depth: number) => {
      if (depth > 20 || value === null || typeof value !== 'object') return;
      for (const [key, item] of Object.entries(value)) {
        if (typeof item === 'string' && ['clientSecret', 'access_token', 'runToken', 'client_secret'].includes(key)) this.add(key, item);
        else walk(item, depth + 1);
      }
    };
    walk(json, 0);
  }

  /** Labels of the known secrets found in the response (body or headers). */
  leaked(response: HostileResponse): string[] {
    const haystack = `${response.text}\n${Object.values(response.headers).join('\n')}`;
    const found: string[] = [];
    for (const [secret, label] of this.secrets) if (haystack.includes(secret)) found.push(label);
    return found;
  }

  get size(): number {
    return this.secrets.size;
  }
}

// ---------------------------------------------------------------------------------------------
// Invariants

export const ERROR_KEYS = ['errorCode', 'errorId', 'message'];

/** Everything wrong with one response (empty: it is fine). */
export function responseViolations(req: HostileRequest, res: HostileResponse, secrets: SecretBook, limitMs: number): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status} (a 5xx is a server bug)`);
  if (res.ms > limitMs) problems.push(`answered after ${res.ms} ms (limit ${limitMs} ms)`);
  // Under /scim/v2 errors are SCIM's; a dot segment (`/scim/v2/..`, `%2e%2e`) may or may not reach a SCIM route, so either format is right there.
  const scim = res.status >= 400 && req.method !== 'HEAD' && isScimPath(req.path) ? scimErrorViolations(res) : undefined;
  if (scim !== undefined && (scim.length === 0 || !/\/(\.|%2e){1,2}(\/|\?|$)/i.test(req.path))) problems.push(...scim);
  else if (res.status >= 400 && req.method !== 'HEAD') {
    const type = res.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type)) problems.push(`error body is not application/json but "${type}"`);
    let body: Json;
    try {
      body = JSON.parse(res.text);
    } catch {
      problems.push('error body is not JSON');
    }
    if (body !== undefined) {
      const keys = body !== null && typeof body === 'object' ? Object.keys(body).sort() : [];
      if (keys.join(',') !== ERROR_KEYS.join(',') || !ERROR_KEYS.every((key) => typeof body[key] === 'string')) {
        problems.push('error body is not {message, errorCode, errorId} with string values');
      }
    }
  }
  if (req.poisoned && res.status >= 200 && res.status < 300)
    problems.push(`a body with __proto__ or constructor.prototype keys was taken (${res.status}); such bodies are 400`);
  const leaked = secrets.leaked(res);
  if (leaked.length > 0) problems.push(`response echoes known secret(s): ${leaked.join(', ')}`);
  return problems;
}

export const isScimPath = (path: string) => /^\/scim\/v2(\/|\?|$)/.test(path);
/** The web console's files (README "Console"): a page, a script and a stylesheet, not JSON. */
export const isConsolePath = (path: string) => /^\/console(\/|\?|$)/.test(path);

/** SCIM's error format (RFC 7644 §3.12) on `/scim/v2` (README "SCIM provisioning"). */
function scimErrorViolations(res: HostileResponse): string[] {
  const problems: string[] = [];
  const type = res.headers['content-type'] ?? '';
  // What the HTTP layer answers before a route is known (a method the path lacks, a malformed URL, an
  // over-long id, oversized headers, a slow request) is in the API's error format, on every path.
  if ([400, 404, 405, 408, 431].includes(res.status) && /^application\/json\b/i.test(type)) {
    try {
      const body = JSON.parse(res.text) as Json;
      if (
        Object.keys(body ?? {})
          .sort()
          .join(',') === ERROR_KEYS.join(',')
      )
        return [];
    } catch {
      // judged below
    }
  }
  if (!/^application\/scim\+json\b/i.test(type)) problems.push(`SCIM error body is not application/scim+json but "${type}"`);
  try {
    const body = JSON.parse(res.text) as Json;
    const okKeys = Object.keys(body ?? {}).every((key) => ['schemas', 'status', 'scimType', 'detail'].includes(key));
    if (
      !okKeys ||
      body.status !== String(res.status) ||
      typeof body.detail !== 'string' ||
      JSON.stringify(body.schemas) !== '["urn:ietf:params:scim:api:messages:2.0:Error"]'
    ) {
      problems.push('SCIM error body is not {schemas: [Error], status, scimType?, detail}');
    }
  } catch {
    problems.push('SCIM error body is not JSON');
  }
  return problems;
}

/** Objects whose own keys would poison a prototype: never stored (README "Errors"). */
export function poisonedKeys(value: unknown, where = '$', depth = 0): string[] {
  if (value === null || typeof value !== 'object' || depth > 200) return [];
  const found: string[] = [];
  if (Object.hasOwn(value, '__proto__')) found.push(`${where}.__proto__`);
  const ctor = (value as Record<string, unknown>).constructor;
  if (Object.hasOwn(value, 'constructor') && ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype'))
    found.push(`${where}.constructor.prototype`);
  for (const [key, item] of Object.entries(value)) found.push(...poisonedKeys(item, `${where}.${key}`, depth + 1));
  return found;
}

/** What a stored object read back violates: identifiers, display names, poisoned keys. */
export function storedObjectViolations(json: Json): string[] {
  const problems: string[] = [];
  if (json === null || typeof json !== 'object') return ['not a JSON object'];
  const metadata = json.metadata ?? {};
  if (
    IDENTIFIER_KINDS.has(json.kind) &&
    !(typeof metadata.name === 'string' && IDENTIFIER.test(metadata.name) && metadata.name.length <= 255)
  ) {
    problems.push(`${json.kind} metadata.name ${JSON.stringify(metadata.name)} is not an identifier`);
  }
  for (const field of REFERENCE_FIELDS[json.kind] ?? []) {
    if (field in metadata && !(typeof metadata[field] === 'string' && IDENTIFIER.test(metadata[field])))
      problems.push(`${json.kind} metadata.${field} ${JSON.stringify(metadata[field])} is not an identifier`);
  }
  const displayName = json.spec?.displayName;
  if (
    DISPLAY_NAME_KINDS.has(json.kind) &&
    json.spec &&
    'displayName' in json.spec &&
    !(typeof displayName === 'string' && displayName.length >= 1 && displayName.length <= 255)
  ) {
    problems.push(`spec.displayName ${JSON.stringify(displayName)?.slice(0, 80)} is not a 1-255 character string`);
  }
  const poisoned = poisonedKeys(json);
  if (poisoned.length > 0) problems.push(`stored object carries prototype keys: ${poisoned.join(', ')}`);
  return problems;
}

/** Own properties of the built-in prototypes, to compare before and after. */
export function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((proto) => Reflect.ownKeys(proto).map(String).sort().join(','))
    .join('|');
}

export function pollutionViolations(snapshot: string): string[] {
  const problems: string[] = [];
  if (prototypeSnapshot() !== snapshot) problems.push('a built-in prototype gained or lost properties');
  const probe: Record<string, unknown> = {};
  for (const marker of POLLUTION_MARKERS)
    if (probe[marker] !== undefined) problems.push(`({}).${marker} is ${JSON.stringify(probe[marker])}: Object.prototype is polluted`);
  return problems;
}

/**
 * The server's log lines about a response: those naming its errorId (the 5xx stack lives there), or,
 * for answers without a body (HEAD), the warnings and errors of the last request with its method and URL.
 */
export async function logLinesFor(logFile: string, req: HostileRequest, res: HostileResponse): Promise<string[]> {
  const log = await readFile(logFile, 'utf8').catch(() => '');
  let errorId: unknown;
  try {
    errorId = JSON.parse(res.text).errorId;
  } catch {
    errorId = undefined;
  }
  if (typeof errorId === 'string' && errorId !== '') return log.split('\n').filter((line) => line.includes(errorId as string));
  let reqId: string | undefined;
  for (const line of log.split('\n')) {
    if (!line.includes('"request completed"')) continue;
    try {
      const entry = JSON.parse(line) as { reqId?: string; req?: { method?: string; url?: string } };
      if (entry.req?.method === req.method && entry.req.url === req.path) reqId = entry.reqId;
    } catch {
      // a line cut short: skip it
    }
  }
  if (reqId === undefined) return [];
  return log.split('\n').filter((line) => line.includes(`"reqId":"${reqId}"`) && /"level":(4|5|6)\d/.test(line));
}

// ---------------------------------------------------------------------------------------------
// Hostile values

/** A fresh object each time (generated objects are mutated afterwards). */
const fresh = <T>(make: () => T) => fc.constant(null).map(make);

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD, as on the wire). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function nestedJson(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { d: value } : [value];
  return value;
}

/** Nested arrays and objects as text, iteratively (depths far beyond any recursion limit). */
export function nestedText(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    if (i % 2 === 0) {
      open += '{"d":';
      close = `}${close}`;
    } else {
      open += '[';
      close = `]${close}`;
    }
  }
  return `${open}1${close}`;
}

/** Look-alikes of ASCII letters, invisible characters and case-folding surprises. */
export const CONFUSABLES = [
  '\u0430', // Cyrillic a
  '\u0435', // Cyrillic e
  '\u043e', // Cyrillic o
  '\u0440', // Cyrillic p
  '\u0455', // Cyrillic s
  '\u0131', // dotless i
  '\u0130', // I with dot: lower-cases to two characters
  '\u212a', // Kelvin sign: lower-cases to k
  '\u017f', // long s: upper-cases to S
  '\u00df', // sharp s
  '\uff41', // fullwidth a
  '\uff10', // fullwidth 0
  '\u2010', // hyphen
  '\u2011', // non-breaking hyphen
  '\u2212', // minus sign
  '\u00ad', // soft hyphen
  '\u200b', // zero width space
  '\u200d', // zero width joiner
  '\u2060', // word joiner
  '\ufeff', // BOM
  '\u202e', // right-to-left override
  '\u0301', // combining acute
  '\u1d00', // small capital a
  '\u0410', // Cyrillic A
];

const LITERALS = [
  '',
  ' ',
  '  padded  ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001b[31m\u007f',
  '\r\n',
  'line\nbreak',
  '\t',
  '\ud800',
  '\udc00x',
  'x\ud83d',
  '\ufffe\uffff',
  '\ufeffbom',
  '💥🧱',
  'e\u0301',
  "' OR '1'='1",
  "'; DROP TABLE workspaces; --",
  '" OR ""="',
  '1; SELECT pg_sleep(10); --',
  "' || (SELECT sqlite_version()) || '",
  '%',
  '_',
  '%_%',
  '\\',
  '\\u0000',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '/',
  '.',
  '..',
  'a.b.c.d.e',
  '${jndi:ldap://example.invalid/a}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '0x10',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'Admin',
  'ADMIN',
  'a-',
  '-a',
  'a--b',
  'UPPER',
  'ümlaut',
  'a'.repeat(255),
  'a'.repeat(256),
];

/** A plausible identifier (so creates get through and objects get stored). */
export const identifier = fc.stringMatching(/^[a-z][a-z0-9-]{2,18}[a-z0-9]$/);

const confusableIdentifier = fc.tuple(identifier, fc.constantFrom(...CONFUSABLES), fc.nat()).map(([id, char, at]) => {
  const position = at % (id.length + 1);
  return `${id.slice(0, position)}${char}${id.slice(position)}`;
});

const loneSurrogates = fc.string({
  unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  minLength: 1,
  maxLength: 3,
});
const controlChars = fc.string({
  unit: fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  minLength: 1,
  maxLength: 5,
});

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...LITERALS), weight: 6 },
  { arbitrary: confusableIdentifier, weight: 3 },
  { arbitrary: identifier.map((id) => `${id}\n`), weight: 1 },
  { arbitrary: identifier.map((id) => id.toUpperCase()), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 1 },
  { arbitrary: loneSurrogates, weight: 1 },
  { arbitrary: fc.tuple(identifier, controlChars).map(([id, c]) => `${id}${c}`), weight: 1 },
  { arbitrary: fc.constantFrom(1000, 4097, 70_000).map((n) => 'x'.repeat(n)), weight: 1 },
  { arbitrary: fc.constantFrom(...CONFUSABLES).map((c) => c.repeat(300)), weight: 1 },
);

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  1e21,
  123456789012,
  Number.MAX_VALUE,
];

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Keys that must never reach an object's prototype, plus other awkward names. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '__defineGetter__', 'hasOwnProperty', 'toJSON', 'then', 'isAdmin'),
    weight: 4,
  },
  { arbitrary: hostileString, weight: 2 },
  {
    arbitrary: fc.constantFrom(
      'name',
      'displayName',
      'ownedByWorkspace',
      'uuid',
      'kind',
      'apiVersion',
      'permissions',
      'inputs',
      'value',
      'type',
      'status',
    ),
    weight: 2,
  },
);

/** Builds an object with `key` as an own property, even `__proto__`. */
export function own(key: string, value: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

const PROTO_PAYLOADS: (() => unknown)[] = [
  () => own('__proto__', { polluted: 'yes', isAdmin: true }),
  () => ({ constructor: { prototype: { polluted: 'yes' } } }),
  () => own('__proto__', own('__proto__', { hostileMarker: 1 })),
  () => ({ prototype: { polluted: 'yes' } }),
  () => ({ constructor: 'yes' }),
  () => [own('__proto__', { polluted: 'yes' })],
];

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 8 },
  { arbitrary: hostileNumber, weight: 4 },
  { arbitrary: fc.constantFrom(true, false, null), weight: 2 },
  { arbitrary: fc.constantFrom(...PROTO_PAYLOADS).map((make) => make()), weight: 2 },
  { arbitrary: fc.constantFrom(0, 1, 60, 63, 64, 65, 100, 1000).chain((depth) => fresh(() => nestedJson(depth))), weight: 1 },
  { arbitrary: fresh(() => Array.from({ length: 10_000 }, (_, i) => i)), weight: 1 },
  { arbitrary: fresh(() => Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v']))), weight: 1 },
  { arbitrary: fc.array(hostileString, { maxLength: 4 }), weight: 2 },
  { arbitrary: fc.dictionary(hostileKey, hostileString, { maxKeys: 3 }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
);

// ---------------------------------------------------------------------------------------------
// Mutations of valid-looking bodies

export interface Mutation {
  /** `taint` splices a fragment into a string field (it stays a string, so it reaches storage). */
  op: 'replace' | 'taint' | 'bump' | 'delete' | 'add' | 'wrap' | 'nullify' | 'stringify';
  at: number;
  key: string;
  value: unknown;
  fragment: string;
}

/** Fragments that keep a string a string but trouble storage, regexes, logs and comparisons. */
export const FRAGMENTS = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\ud83d',
  '\u0001',
  '\u001b[2J',
  '\u007f',
  '\u0085',
  '\u2028',
  '\ufeff',
  '\ufffd',
  '\uffff',
  "'",
  "''",
  '"',
  '\\',
  '%',
  '_',
  '*',
  '\n',
  '\r\n',
  '\t',
  '../',
  '%00',
  '%2F',
  "' OR 1=1 --",
  '); DROP TABLE blocks; --',
  '$1',
  '${x}',
  '{{x}}',
  '<b>',
  ...CONFUSABLES,
  'x'.repeat(300),
  '\u0000'.repeat(50),
];

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom<Mutation['op']>(
    'replace',
    'replace',
    'replace',
    'taint',
    'taint',
    'taint',
    'taint',
    'bump',
    'bump',
    'delete',
    'add',
    'add',
    'wrap',
    'nullify',
    'stringify',
  ),
  at: fc.nat(),
  key: hostileKey,
  value: hostileValue,
  // NUL and lone surrogates are what storage chokes on most: they come often.
  fragment: fc.oneof(
    { arbitrary: fc.constantFrom('\u0000', '\ud800', 'a\u0000b', '\udc00\u0000'), weight: 1 },
    { arbitrary: fc.constantFrom(...FRAGMENTS), weight: 2 },
  ),
});

/** A deep copy that keeps `__proto__` own keys (iterative: survives deep values). */
export function deepCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: [unknown, Record<string, unknown>][] = [[value, root as Record<string, unknown>]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    for (const key of Object.keys(from as object)) {
      const item = (from as Record<string, unknown>)[key];
      let copy = item;
      if (item !== null && typeof item === 'object') {
        copy = Array.isArray(item) ? [] : {};
        stack.push([item, copy as Record<string, unknown>]);
      }
      Object.defineProperty(to, key, { value: copy, enumerable: true, writable: true, configurable: true });
    }
    if (Array.isArray(from)) (to as unknown as unknown[]).length = from.length;
  }
  return root;
}

interface Slot {
  parent: Record<string, unknown> | unknown[];
  key: string;
}

/** Every place in a value (objects and arrays, not the root), shallow-first, at most 400. */
function slotsOf(root: unknown): { slots: Slot[]; containers: (Record<string, unknown> | unknown[])[] } {
  const slots: Slot[] = [];
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const queue: unknown[] = [root];
  while (queue.length > 0 && slots.length < 400) {
    const node = queue.shift();
    if (node === null || typeof node !== 'object') continue;
    const container = node as Record<string, unknown>;
    containers.push(container);
    for (const key of Object.keys(container)) {
      slots.push({ parent: container, key });
      queue.push(container[key]);
    }
  }
  return { slots, containers };
}

function setOwn(parent: Record<string, unknown> | unknown[], key: string, value: unknown) {
  Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
}

export function applyMutations(base: unknown, mutations: readonly Mutation[]): unknown {
  let root = deepCopy(base);
  for (const m of mutations) {
    const { slots, containers } = slotsOf(root);
    const value = deepCopy(m.value);
    if (m.op === 'add' || slots.length === 0) {
      const container = containers[m.at % Math.max(containers.length, 1)];
      if (container === undefined) root = value;
      else if (Array.isArray(container)) container.push(value);
      else setOwn(container, m.key, value);
      continue;
    }
    const valueOf = (slot: Slot) => (slot.parent as Record<string, unknown>)[slot.key];
    if (m.op === 'taint' || m.op === 'bump') {
      const wanted = m.op === 'taint' ? 'string' : 'number';
      const leaves = slots.filter((slot) => typeof valueOf(slot) === wanted);
      const leaf = leaves[m.at % Math.max(leaves.length, 1)];
      if (leaf && m.op === 'taint') {
        const text = valueOf(leaf) as string;
        const at = m.at % (text.length + 1);
        setOwn(leaf.parent, leaf.key, `${text.slice(0, at)}${m.fragment}${text.slice(at)}`);
      } else if (leaf) setOwn(leaf.parent, leaf.key, typeof m.value === 'number' ? m.value : NUMBERS[m.at % NUMBERS.length]);
      else {
        const slot = slots[m.at % slots.length]!;
        setOwn(slot.parent, slot.key, m.op === 'taint' ? m.fragment : NUMBERS[m.at % NUMBERS.length]);
      }
      continue;
    }
    const slot = slots[m.at % slots.length]!;
    const current = valueOf(slot);
    switch (m.op) {
      case 'replace':
        setOwn(slot.parent, slot.key, value);
        break;
      case 'delete':
        if (Array.isArray(slot.parent)) slot.parent.splice(Number(slot.key), 1);
        else delete slot.parent[slot.key];
        break;
      case 'wrap':
        setOwn(slot.parent, slot.key, [current]);
        break;
      case 'nullify':
        setOwn(slot.parent, slot.key, null);
        break;
      case 'stringify':
        setOwn(slot.parent, slot.key, typeof current === 'string' ? Number(current) : (JSON.stringify(current) ?? 'undefined'));
        break;
    }
  }
  return root;
}

// ---------------------------------------------------------------------------------------------
// Body encodings: what the bytes on the wire look like

const MARK = 'HOSTILE-RAW-MARK-7f3a';

/** JSON text of `value` with `raw` spliced in at a slot (or as a new property) chosen by `at`. */
export function spliceRaw(value: unknown, at: number, raw: Buffer): Buffer {
  const copy = deepCopy(value);
  const { slots, containers } = slotsOf(copy);
  const strings = slots.filter((slot) => typeof (slot.parent as Record<string, unknown>)[slot.key] === 'string');
  const choice = strings.length > 0 && at % 3 !== 0 ? strings[at % strings.length] : undefined;
  if (choice) setOwn(choice.parent, choice.key, MARK);
  else {
    const container = containers[at % Math.max(containers.length, 1)];
    if (container === undefined) return raw;
    if (Array.isArray(container)) container.push(MARK);
    else setOwn(container, 'hostileRaw', MARK);
  }
  const text = JSON.stringify(copy);
  const index = text.indexOf(`"${MARK}"`);
  if (index === -1) return Buffer.from(text);
  return Buffer.concat([Buffer.from(text.slice(0, index)), raw, Buffer.from(text.slice(index + MARK.length + 2))]);
}

/** JSON text where one object repeats one of its keys with another value (JSON.parse keeps the last). */
export function withDuplicateKey(value: unknown, at: number, other: unknown, before: boolean): string {
  const copy = deepCopy(value);
  const objects = slotsOf(copy).containers.filter((c) => !Array.isArray(c) && Object.keys(c).length > 0) as Record<string, unknown>[];
  if (objects.length === 0) return JSON.stringify(copy);
  const target = objects[at % objects.length]!;
  const keys = Object.keys(target);
  const key = keys[at % keys.length]!;
  const markKey = `${MARK}-dup`;
  if (before) {
    const entries = Object.entries(target);
    for (const k of keys) delete target[k];
    setOwn(target, markKey, deepCopy(other));
    for (const [k, v] of entries) setOwn(target, k, v);
  } else setOwn(target, markKey, deepCopy(other));
  return JSON.stringify(copy).replace(JSON.stringify(markKey), JSON.stringify(key));
}

const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0xaf], // overlong '/'
  [0xc0, 0x80], // overlong NUL
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80], // encoded surrogate
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82], // truncated
  [0x80],
].map((bytes) => Buffer.from(bytes));

const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '-0',
  '1e-400',
  '123456789012345678901234567890',
  '0.1e999999999',
  'NaN',
  'Infinity',
  '-Infinity',
  '01',
  '+1',
  '.5',
  '1.',
  '0x10',
  '1_000',
  '9007199254740993',
  '-9223372036854775809',
];

const JUNK_BODIES: (string | Buffer)[] = [
  '',
  ' ',
  '\n\t  ',
  'null',
  'true',
  '0',
  '"just a string"',
  '[]',
  '{}',
  '[{}]',
  '{',
  '{"a":',
  '{"a":1}}',
  '{"a":1} trailing',
  "{'single':'quotes'}",
  '{a:1}',
  '{"a":1,}',
  '[1,2,]',
  '\ufeff{}',
  '{"a":"\u0000"}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"\\u005f\\u005fproto\\u005f\\u005f":{"polluted":"yes"}}',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"a":{"__proto__":{"isAdmin":true}}}',
  '/* comment */ {}',
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), // UTF-16LE with BOM
  Buffer.from([0x00, 0x01, 0x02, 0x03]),
  Buffer.from([0x1f, 0x8b, 0x08, 0x00]), // gzip magic
];

export interface EncodedBody {
  body: string | Buffer;
  family: string;
  /** The body, as the server parses it, carries `__proto__` or `constructor.prototype` keys (README: 400). */
  poisoned?: boolean;
}

const poisoned = (value: unknown) => poisonedKeys(value).length > 0;

/** The JSON families of a mutated value. */
export function jsonBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<EncodedBody> {
  return fc.oneof(
    { arbitrary: value.map((v) => ({ body: JSON.stringify(v) ?? 'null', family: 'json', poisoned: poisoned(v) })), weight: 14 },
    {
      arbitrary: fc
        .tuple(value, fc.nat(), hostileValue, fc.boolean())
        .map(([v, at, other, before]) => ({ body: withDuplicateKey(v, at, other, before), family: 'duplicate-key' })),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(value, fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([v, at, bytes]) => ({
        body: spliceRaw(v, at, Buffer.concat([Buffer.from('"a'), bytes, Buffer.from('b"')])),
        family: 'invalid-utf8',
      })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(value, fc.nat(), controlChars)
        .map(([v, at, c]) => ({ body: spliceRaw(v, at, Buffer.from(`"${c}"`, 'latin1')), family: 'control-raw' })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(value, fc.nat(), fc.constantFrom(63, 64, 65, 100, 1000, 100_000))
        .map(([v, at, depth]) => ({ body: spliceRaw(v, at, Buffer.from(nestedText(depth))), family: `deep-raw(${depth})` })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(value, fc.nat(), fc.constantFrom(...RAW_NUMBERS))
        .map(([v, at, n]) => ({ body: spliceRaw(v, at, Buffer.from(n)), family: 'number-raw' })),
      weight: 2,
    },
    { arbitrary: fc.constantFrom(...JUNK_BODIES).map((body) => ({ body, family: 'junk' })), weight: 1 },
  );
}

/** Block-style YAML of a value (JSON, which is YAML too, when the emitter refuses it). */
export function yamlOf(value: unknown): string {
  try {
    return stringify(value);
  } catch {
    return `${JSON.stringify(value) ?? 'null'}\n`;
  }
}

/**
 * YAML renderings of import objects (a `---` stream, one object per document, block or flow style),
 * plus YAML's own hazards: aliases, tags, merge keys, prototype keys, deep flows.
 */
export function yamlBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<EncodedBody> {
  const laughs = (levels: number) => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= levels; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    return lines.join('\n');
  };
  const hazards = [
    laughs(2),
    laughs(9),
    'kind: meshWorkspace\napiVersion: v2\nmetadata: &m\n  name: yaml-merge\nspec:\n  <<: *m\n  displayName: merged\n',
    'kind: meshWorkspace\napiVersion: v2\nmetadata:\n  __proto__:\n    polluted: yes\n  name: yaml-proto\nspec:\n  displayName: x\n',
    'kind: meshWorkspace\napiVersion: v2\nmetadata:\n  __proto__:\n    name: yaml-inherited-name\nspec:\n  displayName: x\n',
    'kind: meshWorkspace\napiVersion: v2\nmetadata:\n  name: yaml-ctor\nspec:\n  displayName: x\n  constructor:\n    prototype:\n      polluted: yes\n',
    '--- !!binary AAAA\n--- !!set {a, b}\n--- !!timestamp 2001-12-14\n--- !!js/function "function () {}"\n--- !!python/object:os.system ls\n',
    'kind: meshWorkspace\napiVersion: v2\nmetadata: {name: !!binary AAAA}\nspec: {displayName: .nan}\n',
    '*undefined_alias\n',
    '&a [*a]\n',
    '%YAML 9.9\n---\na: 1\n',
    '--- !<tag:yaml.org,2002:str> 1\n--- [1\n',
    `${'['.repeat(100)}${']'.repeat(100)}\n`,
    `${'['.repeat(50_000)}\n`,
    `${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n`,
    'kind: meshWorkspace\nkind: meshProject\napiVersion: v2\n',
    '? [a, b]\n: complex key\n',
    'a: 0o17\nb: 0x1F\nc: 1e400\nd: .inf\ne: -.inf\nf: ~\n',
    '\t- tab indented\n',
    'a: "\\x00\\ud800"\n',
    '- a list, not a stream of objects\n',
  ];
  const items = (v: unknown) => (Array.isArray(v) ? v : [v]);
  const stringify = yamlOf;
  return fc.oneof(
    {
      arbitrary: value.map((v) => ({
        body: items(v)
          .map((item) => `---\n${stringify(item)}`)
          .join(''),
        family: 'yaml-stream',
        poisoned: poisoned(v),
      })),
      weight: 6,
    },
    {
      arbitrary: value.map((v) => ({
        body: items(v)
          .map((item) => `---\n${JSON.stringify(item) ?? 'null'}\n`)
          .join(''),
        family: 'yaml-flow',
        poisoned: poisoned(v),
      })),
      weight: 2,
    },
    {
      arbitrary: value.map((v) => ({
        body: items(v)
          .map((item) => `- ${JSON.stringify(item) ?? 'null'}`)
          .join('\n'),
        family: 'yaml-list',
        poisoned: poisoned(v),
      })),
      weight: 1,
    },
    {
      // Prototype keys somewhere in otherwise importable objects.
      arbitrary: fc
        .tuple(
          value,
          fc.nat(),
          fc.constantFrom('__proto__', 'constructor'),
          fc.constantFrom<unknown>({ polluted: 'yes' }, { name: 'yaml-inherited' }),
        )
        .map(([v, at, key, payload]) => {
          const objects = items(deepCopy(v));
          const containers = slotsOf(objects).containers.filter((c) => !Array.isArray(c));
          const target = containers[at % Math.max(containers.length, 1)];
          if (target) setOwn(target, key, key === 'constructor' ? { prototype: payload } : payload);
          return {
            body: objects.map((item) => `---\n${stringify(item)}`).join(''),
            family: 'yaml-prototype-keys',
            poisoned: poisoned(objects),
          };
        }),
      weight: 2,
    },
    {
      arbitrary: fc
        .constantFrom(...hazards)
        .map((body) => ({ body, family: 'yaml-hazard', poisoned: /__proto__:|constructor:\n\s+prototype:/.test(body) })),
      weight: 3,
    },
    {
      arbitrary: fc.tuple(value, fc.constantFrom(...INVALID_UTF8)).map(([v, bytes]) => ({
        body: Buffer.concat([Buffer.from(stringify(items(v)[0] ?? null)), Buffer.from('x: "'), bytes, Buffer.from('"\n')]),
        family: 'yaml-invalid-utf8',
      })),
      weight: 1,
    },
  );
}

/** `application/x-www-form-urlencoded` renderings (repeated keys, raw escapes, prototype keys). */
export function formBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<EncodedBody> {
  const render = (v: unknown): string => {
    if (v === null || typeof v !== 'object') return `value=${pct(String(v))}`;
    return Object.entries(v as Record<string, unknown>)
      .map(([key, item]) => `${pct(key)}=${pct(typeof item === 'string' ? item : (JSON.stringify(item) ?? ''))}`)
      .join('&');
  };
  return fc.oneof(
    { arbitrary: value.map((v) => ({ body: render(v), family: 'form' })), weight: 6 },
    {
      arbitrary: fc
        .tuple(
          value,
          fc.constantFrom(
            '&grant_type=password',
            '&client_id=a&client_id=b',
            '&__proto__=x',
            '&constructor[prototype][polluted]=yes',
            '&%zz=%',
            '&=&&=',
            '&client_secret=%00',
          ),
        )
        .map(([v, extra]) => ({ body: render(v) + extra, family: 'form-raw' })),
      weight: 2,
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Query strings, path ids and headers

export const PAGE_VALUES = [
  '0',
  '1',
  '-1',
  '1.5',
  '1e3',
  '999999999999999',
  '9999999999999999',
  '99999999999999999999999999',
  ' 1',
  '0x10',
  '',
  'NaN',
  '351',
  '350',
  '0',
  '+1',
  '1 ',
  '１',
];

const RAW_QUERY_VALUES = [
  '%',
  '%zz',
  '%00',
  '%C0%AF',
  '%FF',
  '%ED%A0%80',
  '+',
  '%2B',
  '%26',
  '&&',
  '==',
  '%0D%0Aset-cookie:x',
  '%2e%2e%2f',
  'a%2Fb',
];

/** One `name=value` pair as it appears on the wire. */
export function queryPair(preferred: readonly string[], names: readonly string[], values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...(preferred.length > 0 ? preferred : names)), weight: 8 },
    { arbitrary: fc.constantFrom(...names), weight: 3 },
    {
      arbitrary: fc.constantFrom(
        '__proto__',
        'constructor[prototype][polluted]',
        '__proto__[polluted]',
        'page[]',
        'size[0]',
        'a[b]',
        '',
        'PAGE',
        'Size',
      ),
      weight: 1,
    },
    { arbitrary: hostileString.map(pct), weight: 1 },
  );
  const value = fc.oneof(
    { arbitrary: values.map(pct), weight: 6 },
    { arbitrary: fc.constantFrom(...PAGE_VALUES).map(pct), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_QUERY_VALUES), weight: 1 },
    { arbitrary: fc.constantFrom(2000, 6000).map((n) => 'q'.repeat(n)), weight: 1 },
  );
  return fc.oneof(
    { arbitrary: fc.tuple(name, value).map(([n, v]) => `${n}=${v}`), weight: 10 },
    { arbitrary: name, weight: 1 },
    { arbitrary: fc.tuple(name, value, value).map(([n, a, b]) => `${n}=${a}&${n}=${b}`), weight: 3 },
  );
}

/** A path segment: a known id, or something hostile (traversal, encoded slashes, very long, not a uuid). */
export function pathSegment(known: readonly string[]): fc.Arbitrary<string> {
  const raw = fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '..%2F..%2Fetc%2Fpasswd',
    '%2F',
    'a%2Fb',
    'a%5Cb',
    '%00',
    'a%00b',
    '%20',
    '%0A',
    '%25',
    '00000000-0000-0000-0000-000000000000',
    'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
    '{00000000-0000-4000-8000-000000000000}',
    '00000000000040008000000000000000',
    'a'.repeat(1100),
    `${'a'.repeat(255)}.${'b'.repeat(255)}.${'c'.repeat(255)}.${'d'.repeat(255)}`,
    'a.b.c.d.e.f',
    ';jsessionid=1',
    '*',
  );
  const options: fc.WeightedArbitrary<string>[] = [
    { arbitrary: raw, weight: 3 },
    // Longer than the router's limit is a transport hazard (TRANSPORT_HAZARDS), not a path id.
    { arbitrary: hostileString.map(pct).filter((segment) => segment.length <= 1100), weight: 3 },
    { arbitrary: fc.uuid().map((u) => (u.charCodeAt(0) % 2 === 0 ? u : u.toUpperCase())), weight: 1 },
  ];
  if (known.length > 0) {
    options.push({ arbitrary: fc.constantFrom(...known).map(pct), weight: 6 });
    options.push({ arbitrary: fc.constantFrom(...known).map((k) => pct(k.toUpperCase())), weight: 1 });
    options.push({
      arbitrary: fc
        .tuple(fc.constantFrom(...known), fc.constantFrom('%2F..', '%00', '.', '/', '/..', '%20', '%0A'))
        .map(([k, s]) => `${pct(k)}${s}`),
      weight: 1,
    });
  }
  return fc.oneof(...options);
}

/**
 * What breaks a request before any route sees it: escapes that decode to no text, path ids beyond the
 * router's limit, header blocks beyond Node's limit. The server must still answer with its error body.
 */
export type TransportHazard = 'bad-escape' | 'long-param' | 'huge-header' | 'long-url';

export interface Hazard {
  kind: TransportHazard;
  escape: string;
  size: number;
}

export const transportHazard: fc.Arbitrary<Hazard> = fc.record({
  kind: fc.constantFrom<TransportHazard>('bad-escape', 'bad-escape', 'long-param', 'huge-header', 'long-url'),
  escape: fc.constantFrom('%', '%zz', '%C0%AF', '%FF', '%ED%A0%80', '%E0%A4%A', 'a%'),
  size: fc.constantFrom(1101, 5000, 20_000, 70_000),
});

export function applyHazard(req: HostileRequest, route: RouteSpec, hazard: Hazard): HostileRequest {
  const [path, query] = [req.path.split('?')[0]!, req.path.includes('?') ? req.path.slice(req.path.indexOf('?')) : ''];
  const parts = path.split('/');
  const paramAt = route.template.split('/').findIndex((part) => part.startsWith(':') || part === '*');
  const at = paramAt === -1 ? parts.length - 1 : paramAt;
  switch (hazard.kind) {
    case 'bad-escape':
      parts[at] = `${parts[at]}${hazard.escape}`;
      return { ...req, path: `${parts.join('/')}${query}` };
    case 'long-param':
      parts[at] = 'p'.repeat(paramAt === -1 ? 20 : hazard.size);
      return { ...req, path: `${parts.join('/')}${query}` };
    case 'huge-header':
      return { ...req, headers: { ...req.headers, 'x-hostile-huge': 'h'.repeat(hazard.size) } };
    case 'long-url':
      return { ...req, path: `${path}?q=${'u'.repeat(hazard.size)}` };
  }
}

/** Request line and headers well under Node's 16 KiB limit (bigger ones are transport hazards). */
export const headerBytes = (req: HostileRequest) =>
  req.path.length + Object.entries(req.headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);

/** Header values undici can send (latin1, no CR/LF/NUL). */
export const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

/** Variations of a media type the server should take: case, vendor, parameters, q-lists. */
export function mediaVariant(types: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...types), fc.nat(9), fc.nat(9)).map(([type, how, param]) => {
    let out = type;
    if (how === 1) out = out.toUpperCase();
    if (how === 2) out = out.replace('vnd.vendor.', 'vnd.meshcloud.');
    if (how === 3)
      out = out.replace(
        /api\.([a-z]+)/,
        (_m, kind: string) => `api.${kind.replace(/^mesh(.)/, (_x, c: string) => `mesh${c.toUpperCase()}`)}`,
      );
    const params = [
      '',
      '; charset=UTF-8',
      ';charset=utf-8',
      '; charset=latin1',
      '; charset=utf-16',
      '; q=0.5',
      ';version=2',
      '; boundary=----x',
      ';;;',
      '; charset="utf-8"',
    ];
    return `${out}${params[param] ?? ''}`;
  });
}

export const ODD_MEDIA = [
  '*/*',
  'application/json',
  'application/hal+json',
  'text/plain',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  '',
  ' ',
  'application/vnd.vendor.api.meshworkspace.v999.hal+json',
  'application/vnd.vendor.api.meshcustomer.v1.hal+json',
  'application/vnd.vendor.api.meshbuildingblock.v2.hal+json',
  'application/vnd.evil.api.meshworkspace.v2.hal+json',
  'application/vnd.vendor.api.meshworkspace.v2.hal+json;q=0',
  'application/vnd.vendor.api.meshworkspace.v2.hal+json;q=abc',
  'application/vnd.vendor.api.v1.hal+json',
  'application/vnd.vendor.api..v2.hal+json',
  'multipart/form-data; boundary=xyz',
  'application/x-www-form-urlencoded',
  'application/vnd.vendor.api.meshobjects.v1+yaml',
  'application/vnd.vendor.api.meshobjects.v1+json',
  ';;;;',
  ',,,,',
  'application/vnd.vendor.api.meshworkspace.v2.hal+json, '.repeat(300),
  `application/${'x'.repeat(6000)}`,
  'a/b; q=1e400',
  'text/plain; charset=\u00ff',
];

// ---------------------------------------------------------------------------------------------
// The world the cases act on, the cases themselves, and the judge

/** Query parameters some list or claim understands (and a few it does not). */
export const QUERY_NAMES = [
  'page',
  'size',
  'workspaceIdentifier',
  'projectIdentifier',
  'platformIdentifier',
  'locationIdentifier',
  'platformTypeIdentifier',
  'paymentIdentifier',
  'identifier',
  'name',
  'displayName',
  'definitionUuid',
  'definitionName',
  'versionUuid',
  'versionNumber',
  'tenantUuid',
  'targetRefKind',
  'status',
  'state',
  'deletionState',
  'purge',
  'managedByWorkspaceIdentifier',
  'managedByDefinitionUuid',
  'includeAllPublished',
  'ownedByWorkspace',
  'buildingBlockDefinitionUuid',
  'buildingBlockUuid',
  'runnerNodeId',
  'forRunnerUuid',
  'selector',
];

// ---------------------------------------------------------------------------------------------
// The world the cases act on: real objects, so hostile input reaches the deep code paths

export interface World {
  workspace: string;
  project: string;
  /** Projects without a tenant (tenant creates can succeed). */
  freeProjects: string[];
  location: string;
  platform: string;
  platformUuid: string;
  tenantUuid: string;
  tenantName: string;
  definitionUuid: string;
  /** Released version 1 of the definition; version 2 is a draft. */
  releasedVersion: string;
  draftVersion: string;
  /** A definition with only a released version (a new draft 2 can be posted). */
  openDefinition: string;
  /** A service instance of `project` and a communication definition (sent to the workspace). */
  serviceInstance: string;
  communicationDefinition: string;
  block: string;
  runUuid: string;
  runner: string;
  key: KeyCredentials;
  user: { username: string; password: string };
  /** `scim`: a SCIM token, the credential the SCIM routes (`/scim/v2`) take instead of the admin's. */
  auth: { admin: string; key: string; run: string; user: string; scim: string; hostile: string[] };
  /** Ids of existing objects by the path segment before the id (`meshworkspaces` → workspace names). */
  known: Record<string, string[]>;
  /** Query variables of each collection, from the templated links of `/api/meshobjects`. */
  queryNames: Record<string, string[]>;
  /** Objects DELETE cases may remove (the fixtures above stay). */
  sacrificial: Record<string, string[]>;
  queryValues: string[];
}

const serviceInstanceBody = (workspace: string, project: string, instanceId: string, spec: Json = {}) => ({
  apiVersion: 'v2',
  kind: 'meshServiceInstance',
  metadata: { ownedByProject: project, ownedByWorkspace: workspace, marketplaceIdentifier: 'hostile', instanceId },
  spec: { displayName: 'Fuzzed instance', serviceId: 'svc', planId: 'small', creator: 'nobody', parameters: { size: 1 }, ...spec },
});
const communicationDefinitionBody = () => ({
  apiVersion: 'v1-preview',
  kind: 'meshCommunicationDefinition',
  spec: { communication: { title: 'Fuzzed', message: '**fuzzed**', type: 'ACTION_REQUIRED', dueDate: '2099-01-01' } },
});
const communicationBody = (definition: string, target: string, kind = 'meshWorkspace') => ({
  apiVersion: 'v1-preview',
  kind: 'meshCommunication',
  spec: {
    targetMeshObjectRef: { kind, name: target },
    communicationDefinitionRef: { kind: 'meshCommunicationDefinition', uuid: definition },
  },
});

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const canary = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;
const textInput = (extra: Json = {}) => ({
  displayName: 'Text',
  type: 'STRING',
  assignmentType: 'USER_INPUT',
  updateableByConsumer: true,
  ...extra,
});

export async function buildWorld(server: TestServer, secrets: SecretBook): Promise<World> {
  const client = server.client;
  const workspace = unique('hw');
  const spareWorkspace = unique('hw-spare');
  const [project, spareProject, ...freeProjects] = [
    unique('hp'),
    unique('hp-spare'),
    unique('hp-free'),
    unique('hp-free'),
    unique('hp-free'),
  ];
  const location = unique('hl');
  const platform = unique('hpl');
  const platformSecret = canary('platform-secret');
  const sensitiveInput = canary('sensitive-input');
  secrets.add('platform config secret', platformSecret);
  secrets.add('sensitive block input', sensitiveInput);
  secrets.add('admin password', TEST_ADMIN.password);
  secrets.add('master key', server.env.BLOCKYARD_MASTER_KEY);

  await Promise.all([createWorkspace(client, workspace), createWorkspace(client, spareWorkspace), createLocation(client, location)]);
  await Promise.all([project, spareProject, ...freeProjects].map((name) => createProject(client, workspace, name)));
  const platformUuid = await createPlatform(client, workspace, platform, location, {
    spec: { config: { type: 'aws', aws: { accessKeyId: 'AKIAHOSTILE', secretAccessKey: { plaintext: platformSecret } } } },
  });
  const tenant = await createTenant(client, workspace, project, platformUuid);
  const paymentMethod = unique('hpm');
  await createPaymentMethod(client, workspace, paymentMethod);
  const tenantLevel = { targetType: 'TENANT_LEVEL', supportedPlatforms: ['AWS'] };

  const inputs = { name: textInput({ defaultValue: 'abc' }), size: { ...textInput({ defaultValue: 1 }), type: 'INTEGER' } };
  const { definition } = await createReleasedDefinition(client, workspace, 'terraform', { inputs }, tenantLevel);
  const definitionUuid = definition.metadata.uuid as string;
  const versions = await client.get(`/api/meshobjects/meshbuildingblockdefinitionversions?buildingBlockDefinitionUuid=${definitionUuid}`, {
    headers: { accept: media('meshbuildingblockdefinitionversion', 'v1-preview') },
  });
  const releasedVersion = versions.json._embedded.meshBuildingBlockDefinitionVersions[0].metadata.uuid as string;
  const draft = await postVersion(client, versionSpec(definitionUuid, 2, 'terraform', { inputs }));
  assert.equal(draft.status, 201, draft.text);
  const { definition: open } = await createReleasedDefinition(client, workspace, 'terraform', { inputs }, tenantLevel);
  const { definition: spareDefinition } = await createReleasedDefinition(
    client,
    workspace,
    'manual',
    {},
    { targetType: 'WORKSPACE_LEVEL' },
  );
  const { definition: sensitive, version: sensitiveVersion } = await createReleasedDefinition(
    client,
    workspace,
    'githubWorkflows',
    { inputs: { secret: textInput({ isSensitive: true }) } },
    tenantLevel,
  );

  const target = { kind: 'meshTenant', uuid: tenant.metadata.uuid };
  const block = await createBlock(client, {
    versionUuid: releasedVersion,
    target,
    inputs: [{ key: 'name', value: 'abc', valueType: 'STRING' }],
  });
  const claimed = await claimRun(client, SHARED_RUNNERS.TERRAFORM);
  const runUuid = claimed.metadata.uuid as string;
  secrets.add('run token', claimed.spec.runToken);
  const registered = await register(asRun(client, claimed), runUuid, {
    source: { id: 'src', externalRunId: 'ext-1' },
    steps: [{ id: 's1', displayName: 'Step 1' }],
  });
  assert.equal(registered.status, 200, registered.text);
  const spareBlock = await createBlock(client, { versionUuid: releasedVersion, target, inputs: [] });
  const sensitiveBlock = await createBlock(client, {
    versionUuid: sensitiveVersion.metadata.uuid,
    target,
    inputs: [{ key: 'secret', value: sensitiveInput, valueType: 'STRING' }],
  });

  const runners = await Promise.all([
    postRunner(client, runnerBody(workspace, undefined)),
    postRunner(client, runnerBody(workspace, undefined)),
  ]);
  for (const response of runners) assert.equal(response.status, 201, response.text);
  const [runner, spareRunner] = runners.map((response) => response.json.metadata.uuid as string) as [string, string];

  const key = await createKey(client, workspace, [
    'WORKSPACE_LIST',
    'PROJECT_LIST',
    'PROJECT_SAVE',
    'TENANT_LIST',
    'BUILDINGBLOCK_LIST',
    'BUILDINGBLOCK_SAVE',
    'BUILDINGBLOCKDEFINITION_LIST',
    'MANAGED_BUILDINGBLOCKRUN_SAVE',
  ]);
  const spareKey = await createKey(client, workspace, ['WORKSPACE_LIST']);
  const token = await login(client, key);
  for (const [label, value] of [
    ['API key secret', key.clientSecret],
    ['API key secret', spareKey.clientSecret],
    ['access token', token],
  ] as const)
    secrets.add(label, value);

  const userMedia = media('apiuser', 'v1');
  const user = { username: unique('hu'), password: canary('user-password') };
  const spareUser = { username: unique('hu-spare'), password: canary('user-password') };
  for (const u of [user, spareUser]) {
    const created = await client.post('/api/admin/apiusers', u, { headers: { accept: userMedia, 'content-type': userMedia } });
    assert.equal(created.status, 201, created.text);
    secrets.add('API user password', u.password);
  }

  // Service instances and communications: one of each to read, change and resolve, spares to delete.
  const instanceMedia = media('meshserviceinstance', 'v2');
  const [serviceInstance, spareInstance] = [unique('hsi'), unique('hsi-spare')];
  for (const instanceId of [serviceInstance, spareInstance]) {
    const made = await client.post('/api/meshobjects/meshserviceinstances', serviceInstanceBody(workspace, project, instanceId), {
      headers: { accept: instanceMedia, 'content-type': instanceMedia },
    });
    assert.equal(made.status, 200, made.text);
  }
  const definitionMedia = media('meshcommunicationdefinition', 'v1-preview');
  const communicationMedia = media('meshcommunication', 'v1-preview');
  const communicationDefinition = (
    await client.post('/api/meshobjects/meshcommunicationdefinitions', communicationDefinitionBody(), {
      headers: { accept: definitionMedia, 'content-type': definitionMedia },
    })
  ).json.metadata.uuid as string;
  const spareCommunicationDefinition = (
    await client.post('/api/meshobjects/meshcommunicationdefinitions', communicationDefinitionBody(), {
      headers: { accept: definitionMedia, 'content-type': definitionMedia },
    })
  ).json.metadata.uuid as string;
  const communications: string[] = [];
  for (const [kind, target] of [
    ['meshWorkspace', workspace],
    ['meshTenant', tenant.metadata.uuid as string],
  ] as const) {
    const sent = await client.post('/api/meshobjects/meshcommunications', communicationBody(communicationDefinition, target, kind), {
      headers: { accept: communicationMedia, 'content-type': communicationMedia },
    });
    assert.equal(sent.status, 201, sent.text);
    communications.push(sent.json.metadata.uuid as string);
  }

  const tenantName = tenant.status.tenantName as string;
  const keyToken = `Bearer ${token}`;
  const index = await client.get('/api/meshobjects', { headers: { accept: media('meshobjects', 'v2') } });
  assert.equal(index.status, 200, index.text);
  const queryNames: Record<string, string[]> = {};
  for (const link of Object.values(index.json._links) as { href: string }[]) {
    const path = new URL(link.href.replace(/\{.*$/, '').split('?')[0]!).pathname;
    queryNames[path] = [...link.href.matchAll(/\{[?&]?([^}]+)\}/g)].flatMap((match) => match[1]!.split(','));
  }
  // SCIM provisioning: the SCIM routes are fuzzed with a SCIM token as their admin credential.
  let printed = '';
  await runAdminCommand(loadConfig(server.env), ['scim-token', 'create', '--name', 'hostile'], (line) => (printed += line));
  const scimToken = /bearer token \(shown once\): (\S+)/.exec(printed)![1]!;
  secrets.add('SCIM token', scimToken);
  return {
    workspace,
    project,
    freeProjects,
    serviceInstance,
    communicationDefinition,
    location,
    platform,
    platformUuid,
    tenantUuid: tenant.metadata.uuid,
    tenantName,
    definitionUuid,
    releasedVersion,
    draftVersion: draft.json.metadata.uuid,
    openDefinition: open.metadata.uuid,
    block: block.metadata.uuid,
    runUuid,
    runner,
    key,
    user,
    auth: {
      admin: basic(TEST_ADMIN.username, TEST_ADMIN.password),
      key: keyToken,
      run: `Bearer ${claimed.spec.runToken}`,
      user: basic(user.username, user.password),
      scim: `Bearer ${scimToken}`,
      hostile: [
        '',
        'Bearer',
        'Bearer ',
        'Bearer x.y.z',
        `${keyToken}x`,
        keyToken.slice(0, -4),
        keyToken.toLowerCase(),
        keyToken.replace('Bearer', 'BEARER'),
        `Bearer ${key.clientSecret}`,
        `Basic ${b64(`${key.clientId}:${key.clientSecret}`)}`,
        `Basic ${b64(`${TEST_ADMIN.username}:wrong-password`)}`,
        `Basic ${b64(`${TEST_ADMIN.username}:${TEST_ADMIN.password}x`)}`,
        `Basic ${b64(`${TEST_ADMIN.username.toUpperCase()}:${TEST_ADMIN.password}`)}`,
        `Basic ${b64(`\u212a${TEST_ADMIN.username.slice(1)}:${TEST_ADMIN.password}`)}`,
        'Basic !!!not-base64!!!',
        `Basic ${b64(':')}`,
        `Basic ${b64('no-colon')}`,
        `Basic ${b64('%E0%A4%A:%')}`,
        `Basic ${b64(`${'u'.repeat(5000)}:p`)}`,
        'Basic',
        'Digest username="a"',
        'Negotiate YII=',
        `Bearer ${'a'.repeat(8000)}`,
        'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJydW46eCIsImF1ZCI6ImJsb2NreWFyZC1hcGkifQ.',
        'Bearer eyJhbGciOiJIUzI1NiIsImtpZCI6Ii4uLy4uLy4uL2V0Yy9wYXNzd2QifQ.e30.c2ln',
        `Bearer ${token.split('.').slice(0, 2).join('.')}.AAAA`,
        `Bearer ${token} ${token}`,
        `Basic ${b64(`${TEST_ADMIN.username}:${TEST_ADMIN.password}`)}, Bearer ${token}`,
      ],
    },
    known: {
      meshworkspaces: [workspace],
      meshprojects: [`${workspace}.${project}`],
      meshlocations: [location],
      meshplatforms: [platformUuid],
      meshtenants: [tenant.metadata.uuid, tenantName],
      meshbuildingblockdefinitions: [definitionUuid, sensitive.metadata.uuid],
      meshbuildingblockdefinitionversions: [draft.json.metadata.uuid, releasedVersion],
      meshbuildingblocks: [block.metadata.uuid, sensitiveBlock.metadata.uuid],
      meshbuildingblockrunners: [runner, SHARED_RUNNERS.TERRAFORM],
      meshbuildingblockruns: [runUuid],
      meshapikeys: [key.uuid],
      apiusers: [user.username],
      meshpaymentmethods: [paymentMethod],
      meshplatformtypes: ['AWS', 'CUSTOM'],
      meshserviceinstances: [serviceInstance],
      meshcommunicationdefinitions: [communicationDefinition],
      meshcommunications: [communications[0]!],
      source: ['src', 'other-source'],
    },
    sacrificial: {
      meshworkspaces: [spareWorkspace],
      meshprojects: [`${workspace}.${spareProject}`],
      meshtenants: [],
      meshbuildingblockdefinitions: [spareDefinition.metadata.uuid],
      meshbuildingblocks: [spareBlock.metadata.uuid],
      meshbuildingblockrunners: [spareRunner],
      meshapikeys: [spareKey.uuid],
      apiusers: [spareUser.username],
      meshserviceinstances: [spareInstance],
      meshcommunicationdefinitions: [spareCommunicationDefinition],
      meshcommunications: [communications[1]!],
    },
    queryNames,
    queryValues: [
      workspace,
      project,
      location,
      platform,
      `${platform}.${location}`,
      tenantName,
      tenant.metadata.uuid,
      definitionUuid,
      releasedVersion,
      block.metadata.uuid,
      runUuid,
      ...Object.values(SHARED_RUNNERS),
      runner,
      'admin',
      'true',
      'false',
      'ACTIVE',
      'DELETED',
      'ALL',
      'SUCCEEDED',
      'WAITING_FOR_APPROVAL',
      'meshTenant',
      'meshWorkspace',
      'v1',
      '1',
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Valid-looking bodies per route, which the mutations then break

const blockInputs = [
  { key: 'name', value: 'abc', valueType: 'STRING' },
  { key: 'size', value: 3, valueType: 'INTEGER' },
];

export function baseBody(route: RouteSpec, type: string, world: World): fc.Arbitrary<unknown> {
  const parsed = parseMedia(type);
  const kind = parsed?.kind ?? '';
  const version = parsed?.version ?? '';
  const isPut = route.method === 'PUT';
  const name = identifier;
  switch (kind) {
    case 'meshworkspace':
      return isPut
        ? fc.constant(workspaceBody(world.workspace, { spec: { platformBuilderAccessEnabled: true } }))
        : name.map((n) => workspaceBody(n, { metadata: { tags: { env: ['dev'] } } }));
    case 'meshproject':
      return isPut
        ? fc.constant(projectBody(world.workspace, world.project))
        : name.map((n) => projectBody(world.workspace, n, { spec: { paymentMethodIdentifier: 'pm-1' } }));
    case 'meshlocation':
      return (isPut ? fc.constant(world.location) : name).map((n) => ({
        ...locationBody(n, { spec: { description: 'hostile' } }),
        apiVersion: version,
      }));
    case 'meshplatform':
      return isPut
        ? fc.constant({
            ...platformBody(world.workspace, world.platform, world.location, { metadata: { uuid: world.platformUuid } }),
            apiVersion: version,
          })
        : name.map((n) => ({
            ...platformBody(world.workspace, n, world.location, {
              spec: {
                config: { type: 'aws', aws: { secretAccessKey: { plaintext: 'not-a-known-secret' } } },
                availability: { restriction: 'PUBLIC' },
              },
            }),
            apiVersion: version,
          }));
    case 'meshtenant':
      return fc.constantFrom(...world.freeProjects, world.project).map((project) =>
        version === 'v4-preview'
          ? {
              apiVersion: version,
              kind: 'meshTenant',
              metadata: { ownedByWorkspace: world.workspace, ownedByProject: project },
              spec: { platformIdentifier: `${world.platform}.${world.location}` },
            }
          : tenantBody(world.workspace, project, world.platformUuid),
      );
    case 'meshbuildingblockdefinition':
      return isPut
        ? fc.constant(
            definitionBody(world.workspace, { targetType: 'TENANT_LEVEL', supportedPlatforms: ['AWS'], displayName: 'Fuzzed definition' }),
          )
        : fc.constant(definitionBody(world.workspace, { targetType: 'WORKSPACE_LEVEL', supportUrl: 'https://example.com/support' }));
    case 'meshbuildingblockdefinitionversion': {
      const inputs = {
        name: textInput({ defaultValue: 'abc', valueValidationRegex: '^[a-z]+$' }),
        size: { ...textInput({ defaultValue: 1 }), type: 'INTEGER' },
      };
      return isPut
        ? fc.constant(versionBody(versionSpec(world.definitionUuid, 2, 'terraform', { inputs })))
        : fc.constant(versionBody(versionSpec(world.openDefinition, 2, 'terraform', { inputs })));
    }
    case 'meshbuildingblock':
      if (version === 'v1') {
        return fc.constant({
          apiVersion: 'v1',
          kind: 'meshBuildingBlock',
          metadata: { definitionUuid: world.definitionUuid, definitionVersion: 1, tenantIdentifier: world.tenantName },
          spec: { displayName: 'Fuzzed block', inputs: blockInputs, parentBuildingBlocks: [] },
        });
      }
      return fc.constant({
        apiVersion: 'v2-preview',
        kind: 'meshBuildingBlock',
        spec: {
          displayName: 'Fuzzed block',
          buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: world.releasedVersion },
          targetRef: { kind: 'meshTenant', uuid: world.tenantUuid },
          inputs: blockInputs,
          parentBuildingBlocks: [],
        },
      });
    case 'meshbuildingblockrunner':
      return fc.constant({
        ...runnerBody(world.workspace, undefined, { restriction: 'PRIVATE' }),
        ...(isPut ? { metadata: { ownedByWorkspace: world.workspace, uuid: world.runner } } : {}),
      });
    case 'meshbuildingblockrun':
      return route.method === 'PATCH'
        ? fc.constant({
            status: 'IN_PROGRESS',
            steps: [
              {
                id: 's1',
                status: 'IN_PROGRESS',
                userMessage: 'working',
                systemMessage: 'log line',
                outputs: { out: { value: 'v', type: 'STRING', isSensitive: false } },
              },
            ],
          })
        : fc.constant({
            source: { id: 'other-source', externalRunId: 'ext-2', externalRunUrl: 'https://ci.example/2' },
            steps: [{ id: 's2', displayName: 'Step 2', status: 'PENDING' }],
          });
    case 'meshapikey':
      return fc.constant({
        apiVersion: 'v1-preview',
        kind: 'meshApiKey',
        metadata: { ownedByWorkspace: world.workspace },
        spec: { displayName: 'Fuzzed key', permissions: ['WORKSPACE_LIST'], expiresAt: '2099-12-31' },
      });
    case 'apiuser':
      return name.map((n) => ({ username: n, password: 'a-long-enough-password' }));
    case 'meshserviceinstance':
      return isPut
        ? fc.constant(serviceInstanceBody(world.workspace, world.project, world.serviceInstance, { planId: 'bigger' }))
        : name.map((n) => serviceInstanceBody(world.workspace, world.project, n));
    case 'meshcommunicationdefinition':
      return fc.constant(communicationDefinitionBody());
    case 'meshcommunication':
      return fc.constant(communicationBody(world.communicationDefinition, world.workspace));
    case 'meshobjects':
      return fc.array(
        fc.oneof(
          name.map((n) => workspaceBody(n)),
          name.map((n) => projectBody(world.workspace, n)),
          name.map((n) => locationBody(n)),
          name.map((n) => platformBody(world.workspace, n, world.location)),
        ),
        { minLength: 1, maxLength: 3 },
      );
  }
  if (route.template === '/oauth/token' || route.template === '/api/login') {
    // Credentials sit only where credentials belong: no other field ever carries a known secret.
    return fc.constantFrom(
      { grant_type: 'client_credentials', client_id: world.key.clientId, client_secret: world.key.clientSecret },
      { clientId: world.key.clientId, clientSecret: world.key.clientSecret },
      { grant_type: 'client_credentials', client_id: world.key.clientId, client_secret: 'wrong-secret' },
    );
  }
  return fc.jsonValue({ maxDepth: 2 });
}

/** A body for the route in the type; `hostile` false: the valid-looking base as it is. */
export function bodyFor(route: RouteSpec, type: string, world: World, hostile = true): fc.Arbitrary<EncodedBody> {
  const essence = type.split(';')[0]!.trim().toLowerCase();
  if (!hostile) {
    return baseBody(route, type, world).map((value) => {
      if (essence.endsWith('+yaml'))
        return { body: (Array.isArray(value) ? value : [value]).map((item) => `---\n${yamlOf(item)}`).join(''), family: 'yaml-stream' };
      if (essence === 'application/x-www-form-urlencoded')
        return { body: new URLSearchParams(value as Record<string, string>).toString(), family: 'form' };
      return { body: JSON.stringify(value), family: 'json' };
    });
  }
  const mutations = fc.oneof(
    { arbitrary: fc.constant([]), weight: 1 },
    { arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }), weight: 4 },
  );
  const mutated = fc.tuple(baseBody(route, type, world), mutations).map(([base, mutations]) => applyMutations(base, mutations));
  if (essence.endsWith('+yaml')) return yamlBody(mutated);
  if (essence === 'application/x-www-form-urlencoded') return formBody(mutated);
  return fc.oneof({ arbitrary: jsonBody(mutated), weight: 9 }, { arbitrary: jsonBody(hostileValue), weight: 1 });
}

// ---------------------------------------------------------------------------------------------
// One case: a request aimed at one route

export function idsFor(route: RouteSpec, param: string, world: World): string[] {
  const parts = route.template.split('/');
  const at = parts.indexOf(param);
  const collection = parts[at - 1] ?? '';
  const destructive = route.method === 'DELETE';
  return (destructive ? world.sacrificial[collection] : world.known[collection]) ?? [];
}

/**
 * Requests aimed at one route. Application cases stay within what HTTP and the router accept (the
 * hostile part is in ids, queries, headers and bodies); transport cases add one TransportHazard.
 */
export function caseFor(route: RouteSpec, world: World, transport = false): fc.Arbitrary<HostileRequest> {
  const takes = [...route.consumes, ...route.plainBodies];
  const admin = isScimPath(route.template) ? world.auth.scim : world.auth.admin;
  const build = (segments: fc.Arbitrary<string>[]) =>
    fc.tuple(...segments).map((values) => {
      let index = 0;
      return route.template
        .split('/')
        .map((part) => (part.startsWith(':') || part === '*' ? values[index++]! : part))
        .join('/');
    });
  const validIds = (param: string) => {
    const ids = idsFor(route, param, world);
    return ids.length > 0 ? fc.constantFrom(...ids).map(pct) : fc.uuid();
  };
  const hostile = {
    path: build(route.params.map((param) => pathSegment(idsFor(route, param, world)))),
    query: fc.oneof(
      { arbitrary: fc.constant(''), weight: 1 },
      {
        arbitrary: fc
          .array(
            queryPair(world.queryNames[route.template] ?? [], QUERY_NAMES, fc.oneof(fc.constantFrom(...world.queryValues), hostileString)),
            { minLength: 1, maxLength: 4 },
          )
          .map((pairs) => `?${pairs.join('&')}`),
        weight: 8,
      },
      { arbitrary: fc.constantFrom('?', '??', '?&&&', '?=', '?a=1#frag', `?page=0&size=350&${'x=1&'.repeat(500)}`), weight: 1 },
    ),
    accept: fc.oneof(
      { arbitrary: route.produces.length > 0 ? mediaVariant(route.produces) : fc.constant('*/*'), weight: 4 },
      { arbitrary: fc.constantFrom(...ODD_MEDIA), weight: 4 },
      { arbitrary: fc.constant(undefined), weight: 1 },
      { arbitrary: hostileString.map(headerSafe), weight: 2 },
    ),
    contentType: fc.oneof(
      { arbitrary: takes.length > 0 ? mediaVariant(takes) : fc.constant(undefined), weight: 4 },
      { arbitrary: fc.constantFrom(...ODD_MEDIA), weight: 4 },
      { arbitrary: fc.constant(undefined), weight: 1 },
      { arbitrary: hostileString.map(headerSafe), weight: 1 },
    ),
    authorization: fc.oneof(
      { arbitrary: fc.constant(admin), weight: 2 },
      { arbitrary: fc.constant(world.auth.key), weight: 2 },
      { arbitrary: fc.constant(world.auth.run), weight: 2 },
      { arbitrary: fc.constant(world.auth.user), weight: 1 },
      { arbitrary: fc.constantFrom(...world.auth.hostile), weight: 6 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    ),
    extra: fc.oneof(
      { arbitrary: hostileString.map((value) => ({ 'x-block-runner-node-id': headerSafe(value) })), weight: 2 },
      { arbitrary: fc.constant({ 'x-hostile-big': 'h'.repeat(8000) }), weight: 1 },
      { arbitrary: fc.constant(Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`x-hostile-${i}`, String(i)]))), weight: 1 },
      {
        arbitrary: fc.constantFrom<Record<string, string>>(
          { 'content-encoding': 'gzip' },
          { 'content-encoding': 'br, gzip, x-unknown' },
          { 'accept-encoding': 'gzip, br, zstd, *;q=0' },
          { 'accept-charset': 'utf-16, iso-8859-1;q=0.5' },
          { 'x-forwarded-for': '1.1.1.1, ::1, <script>' },
          { forwarded: 'for=unknown;proto=http;host=evil.example' },
          { range: 'bytes=0-1,5-' },
          { 'if-none-match': '*' },
          { cookie: '__proto__=x; session=y' },
          { 'x-http-method-override': 'DELETE' },
          { 'x-request-id': '../../etc/passwd' },
        ),
        weight: 4,
      },
    ) as fc.Arbitrary<Record<string, string>>,
  };
  const valid = {
    path: build(route.params.map(validIds)),
    query: fc.constant(''),
    accept: route.produces.length > 0 ? mediaVariant(route.produces) : fc.constant(undefined),
    contentType: takes.length > 0 ? mediaVariant(takes) : fc.constant(undefined),
    authorization: fc.oneof(
      { arbitrary: fc.constant(admin), weight: 8 },
      { arbitrary: fc.constant(world.auth.key), weight: 1 },
      { arbitrary: fc.constant(world.auth.run), weight: 1 },
    ),
    extra: fc.constant<Record<string, string>>({}),
  };
  type Part = keyof typeof valid;
  // What a case makes hostile: mostly one part (so the rest gets it to the code behind), sometimes all.
  const focuses: fc.WeightedArbitrary<Part[]>[] = [
    { arbitrary: fc.constant<Part[]>(['query']), weight: route.method === 'GET' ? 4 : 1 },
    { arbitrary: fc.constant<Part[]>(['accept', 'contentType', 'extra']), weight: 1 },
    { arbitrary: fc.constant<Part[]>(['authorization']), weight: 1 },
    { arbitrary: fc.constant<Part[]>(['path', 'query', 'accept', 'contentType', 'authorization', 'extra']), weight: 2 },
  ];
  if (route.params.length > 0) focuses.push({ arbitrary: fc.constant<Part[]>(['path']), weight: 3 });
  if (takes.length > 0) focuses.push({ arbitrary: fc.constant<Part[]>([]), weight: 8 });
  const pick = <K extends Part>(part: K, focus: Part[]) =>
    (focus.includes(part) ? hostile[part] : valid[part]) as fc.Arbitrary<string | undefined>;
  const withBody = (type: string | undefined, focus: Part[]): fc.Arbitrary<EncodedBody | undefined> => {
    if (takes.length > 0) {
      const as = type && (parseMedia(type) || takes.includes(type.split(';')[0]!.trim().toLowerCase())) ? type : takes[0]!;
      // An empty focus is a body case: the body is what is hostile.
      const hostileBody = focus.length === 0 || focus.length > 3;
      const body = hostileBody ? bodyFor(route, as, world) : bodyFor(route, as, world, false);
      return hostileBody ? fc.oneof({ arbitrary: body, weight: 12 }, { arbitrary: fc.constant(undefined), weight: 1 }) : body;
    }
    // Routes without a body ignore whatever is sent (README "Media types").
    return fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: jsonBody(hostileValue), weight: 1 });
  };
  const application = fc
    .oneof(...focuses)
    .chain((focus) =>
      fc
        .tuple(
          pick('path', focus),
          pick('query', focus),
          pick('accept', focus),
          pick('contentType', focus),
          pick('authorization', focus),
          (focus.includes('extra') ? hostile.extra : valid.extra) as fc.Arbitrary<Record<string, string>>,
        )
        .chain(([p, q, a, ct, auth, more]) =>
          withBody(ct, focus).map((encoded): HostileRequest => {
            const headers: Record<string, string> = { ...more };
            if (a !== undefined) headers.accept = a;
            if (ct !== undefined) headers['content-type'] = ct;
            if (auth !== undefined) headers.authorization = auth;
            const send = route.method !== 'HEAD' && encoded !== undefined;
            return {
              route: routeKey(route),
              method: route.method,
              path: `${p ?? ''}${q ?? ''}`,
              headers,
              ...(send
                ? { body: encoded.body, bodyKind: encoded.family, ...(encoded.poisoned && takes.length > 0 ? { poisoned: true } : {}) }
                : {}),
            };
          }),
        ),
    )
    .filter((req) => headerBytes(req) < 12_000);
  if (!transport) return application.map(printable);
  return fc.tuple(application, transportHazard).map(([req, hazard]) => printable(applyHazard(req, route, hazard)));
}

export const weightOf = (route: RouteSpec) => {
  if (route.template.endsWith('*') || route.template.includes('/*')) return 1;
  if (['HEAD', 'OPTIONS', 'TRACE', 'QUERY'].includes(route.method)) return 1;
  if (route.consumes.length + route.plainBodies.length > 0) return 12;
  return 3;
};

// ---------------------------------------------------------------------------------------------
// Judging one request: its answer, and what a 2xx stored

/** Does a request path (no query) fall on a route template (`:param` and `*` match one segment or more)? */
export function matchesTemplate(path: string, template: string): boolean {
  const parts = path.split('/');
  const want = template.split('/');
  if (want.at(-1) === '*') return parts.length >= want.length && want.slice(0, -1).every((w, i) => w.startsWith(':') || w === parts[i]);
  return parts.length === want.length && want.every((w, i) => (w.startsWith(':') ? parts[i] !== '' : w === parts[i]));
}

export interface Verdict {
  req: HostileRequest;
  res?: HostileResponse;
  problems: string[];
}

export const selfPath = (res: HostileResponse): string | undefined => {
  let href = res.headers.location;
  if (!href) {
    try {
      href = JSON.parse(res.text)?._links?.self?.href;
    } catch {
      return undefined;
    }
  }
  if (typeof href !== 'string') return undefined;
  const url = new URL(href, 'https://base.invalid');
  return `${url.pathname}${url.search}`;
};

export class Fuzzer {
  requests = 0;
  readbacks = 0;
  stored = 0;
  /** Routes whose answers link to a `self` that no GET route serves. */
  readonly unservedSelfLinks = new Set<string>();

  constructor(
    private readonly server: TestServer,
    private readonly agent: Agent,
    private readonly world: World,
    private readonly secrets: SecretBook,
    private readonly routes: Map<string, RouteSpec>,
    private readonly limitMs: number,
  ) {}

  private async send(req: HostileRequest): Promise<{ res?: HostileResponse; error?: string }> {
    try {
      return { res: await sendRaw(this.server.url, this.agent, req, this.limitMs) };
    } catch (error) {
      const err = error as Error & { code?: string; cause?: Error };
      return {
        error: `no answer (${err.name}${err.code ? ` ${err.code}` : ''}: ${err.message}${err.cause ? `; ${err.cause.message}` : ''})`,
      };
    }
  }

  /** Sends a request and judges the answer; 2xx writes are read back. */
  async judge(req: HostileRequest): Promise<Verdict[]> {
    this.requests++;
    const { res, error } = await this.send(req);
    if (!res) return [{ req, problems: [error ?? 'no answer'] }];
    const problems = responseViolations(req, res, this.secrets, this.limitMs);
    const verdicts: Verdict[] = [{ req, res, problems }];
    if (res.status >= 200 && res.status < 300) {
      let json: Json = undefined;
      try {
        json = res.text === '' ? undefined : JSON.parse(res.text);
      } catch {
        // JWKS, the YAML document and the metrics' Prometheus text (docs/metrics.md) are no JSON by design.
        if (
          req.method !== 'HEAD' &&
          !/^(application\/(jwk|yaml)|text\/plain; version=0\.0\.4)/.test(res.headers['content-type'] ?? '') &&
          !isConsolePath(req.path)
        )
          problems.push('2xx body is not JSON');
      }
      if (json && typeof json.kind === 'string') problems.push(...storedObjectViolations(json));
      for (const item of Object.values(json?._embedded ?? {}).flat())
        problems.push(...storedObjectViolations(item).map((p) => `listed object: ${p}`));
      // Secrets this answer handed out (a new key's secret, a token, a claim's run token) must not show up again.
      this.secrets.harvest(res.text);
      if (['POST', 'PUT', 'PATCH'].includes(req.method)) verdicts.push(...(await this.readBack(req, res, json)));
    }
    return verdicts;
  }

  private async readBack(req: HostileRequest, res: HostileResponse, json: Json): Promise<Verdict[]> {
    const targets: { path: string; accept: string }[] = [];
    const route = this.routes.get(req.route);
    if (req.route === 'PUT /api/meshobjects' && Array.isArray(json)) {
      const problems: string[] = [];
      for (const result of json) {
        if (result?.status !== 'SUCCESS') continue;
        const match = /^(\w+)\[(.*)\]$/s.exec(String(result.meshObject));
        if (!match) continue;
        const [, kind, name] = match as unknown as [string, string, string];
        if (IDENTIFIER_KINDS.has(kind) && !IDENTIFIER.test(name)) problems.push(`import stored ${kind} "${name}", not an identifier`);
        if (kind === 'meshWorkspace')
          targets.push({ path: `/api/meshobjects/meshworkspaces/${pct(name)}`, accept: media('meshworkspace', 'v2') });
        if (kind === 'meshLocation')
          targets.push({ path: `/api/meshobjects/meshlocations/${pct(name)}`, accept: media('meshlocation', 'v1') });
      }
      if (problems.length > 0) return [{ req, res, problems }];
    } else {
      const path = selfPath(res);
      const negotiated = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
      const accept = parseMedia(negotiated) ? negotiated : route?.produces[0];
      if (path && accept && json && typeof json.kind === 'string') targets.push({ path, accept });
    }
    const verdicts: Verdict[] = [];
    for (const target of targets) {
      // A self link no GET route serves (API users): find the object in its collection instead.
      const served = [...this.routes.values()].some((r) => r.method === 'GET' && matchesTemplate(target.path.split('?')[0]!, r.template));
      const collection = route && !route.template.includes(':') ? route.template : undefined;
      if (!served) this.unservedSelfLinks.add(route ? routeKey(route) : req.route);
      const readPath = served || !collection ? target.path : collection;
      const readReq: HostileRequest = {
        route: `GET (read back after ${req.route})`,
        method: 'GET',
        path: readPath,
        headers: { accept: target.accept, authorization: this.world.auth.admin },
      };
      this.readbacks++;
      const { res: read, error } = await this.send(readReq);
      if (!read) {
        verdicts.push({ req, res, problems: [`read back ${readPath}: ${error}`] });
        continue;
      }
      const problems = responseViolations(readReq, read, this.secrets, this.limitMs).map((p) => `read back: ${p}`);
      if (read.status !== 200) problems.push(`read back ${readPath}: ${read.status} instead of 200: ${read.text.slice(0, 300)}`);
      else {
        try {
          let stored: Json = JSON.parse(read.text);
          if (readPath !== target.path) {
            const items = Object.values(stored?._embedded ?? {}).flat() as Json[];
            stored = items.find(
              (item) =>
                typeof item?._links?.self?.href === 'string' &&
                new URL(item._links.self.href, 'https://base.invalid').pathname === target.path,
            );
            if (!stored) problems.push(`read back: ${target.path} is not listed in ${readPath}`);
          }
          if (stored) {
            this.stored++;
            if (typeof stored.kind === 'string')
              problems.push(...storedObjectViolations(stored).map((p) => `read back ${target.path}: ${p}`));
            else problems.push(...poisonedKeys(stored).map((p) => `read back ${target.path}: prototype key ${p}`));
          }
        } catch {
          problems.push(`read back ${readPath}: body is not JSON`);
        }
      }
      if (problems.length > 0)
        verdicts.push({ req, res: read, problems: [`(stored by the request above, read back with GET ${target.path})`, ...problems] });
    }
    return verdicts;
  }

  /** A readable account of what went wrong, with the server's log lines for each errorId. */
  async report(failures: Verdict[]): Promise<string> {
    const parts: string[] = [];
    for (const { req, res, problems } of failures) {
      const lines = res ? await logLinesFor(this.server.logFile, req, res) : [];
      parts.push(
        [
          `route: ${req.route}`,
          `problems: ${problems.join('; ')}`,
          `request:\n${describeRequest(req)}`,
          res
            ? `response: ${res.status} in ${res.ms} ms, content-type ${res.headers['content-type'] ?? '-'}\n  ${res.text.slice(0, 600)}`
            : 'response: none',
          ...(lines.length > 0
            ? [`server log (${this.server.logFile}):\n${lines.map((line) => `  ${line.slice(0, 3000)}`).join('\n')}`]
            : []),
        ].join('\n'),
      );
    }
    return parts.join('\n\n');
  }
}
