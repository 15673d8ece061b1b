/**
 * The published OpenAPI of the original system (a copy in `test/reference/original-openapi.json`) as a
 * test oracle: its operations, their documented query parameters and response schemas, matched
 * against this server's route table and checked with a maintained JSON Schema validator (ajv).
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ApiClient, type RequestOptions, type Response } from './client.js';
import type { Json } from './structure.js';

/** Where the reference lives: the copy in the repository (so a fresh clone tests), or where BLOCKYARD_OPENAPI says. */
export const OPENAPI_FILE = process.env.BLOCKYARD_OPENAPI ?? new URL('../reference/original-openapi.json', import.meta.url).pathname;

function load(): Json {
  try {
    return JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
  } catch (error) {
    throw new Error(
      `the published OpenAPI is needed at ${OPENAPI_FILE} (test/reference/original-openapi.json, or BLOCKYARD_OPENAPI): ${(error as Error).message}`,
    );
  }
}

export const OPENAPI = load();

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export interface QueryParameter {
  name: string;
  description: string;
  required: boolean;
}

export interface DocumentedResponse {
  status: number;
  /** The documented media type (lower case), undefined for an answer without a body. */
  mediaType?: string;
  /** JSON pointer of the schema inside the OpenAPI document. */
  schemaPointer?: string;
}

export interface OpenApiOperation {
  method: string;
  /** The OpenAPI path template, e.g. `/api/meshobjects/meshtenants/{uuid}`. */
  path: string;
  key: string;
  queryParameters: QueryParameter[];
  responses: DocumentedResponse[];
  /** The path template as a regular expression over concrete paths. */
  pattern: RegExp;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const templatePattern = (template: string, parameter: RegExp) =>
  new RegExp(
    `^${template
      .split('/')
      .map((segment) => (parameter.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

/** Every operation of the OpenAPI. */
export function openApiOperations(): OpenApiOperation[] {
  const operations: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries(OPENAPI.paths as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const responses: DocumentedResponse[] = [];
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
        const content = Object.entries((response.content ?? {}) as Record<string, Json>);
        if (content.length === 0) responses.push({ status: Number(status) });
        for (const [mediaType, body] of content) {
          const pointer = `#/paths/${escapePointer(path)}/${method}/responses/${status}/content/${escapePointer(mediaType)}/schema`;
          responses.push({
            status: Number(status),
            mediaType: mediaType.toLowerCase(),
            ...(body.schema ? { schemaPointer: pointer } : {}),
          });
        }
      }
      const queryParameters = ((operation.parameters ?? []) as Json[])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => ({
          name: parameter.name as string,
          description: (parameter.description ?? '') as string,
          required: parameter.required === true,
        }));
      operations.push({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        queryParameters,
        responses,
        pattern: templatePattern(path, /^\{.+\}$/),
      });
    }
  }
  return operations;
}

/** Resolves `$ref`s of the document (one level at a time). */
function resolve(schema: Json | undefined): Json | undefined {
  let current = schema;
  while (current?.$ref) {
    const pointer = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = pointer.reduce<Json | undefined>((node, segment) => node?.[segment], OPENAPI);
  }
  return current;
}

/** A paged list: a GET whose documented 200 answer has a `page`. */
export function isListOperation(operation: OpenApiOperation): boolean {
  if (operation.method !== 'GET') return false;
  return operation.responses.some((response) => {
    if (response.status !== 200 || !response.schemaPointer) return false;
    return resolve(resolve({ $ref: response.schemaPointer })?.properties?.page) !== undefined;
  });
}

/**
 * Is the operation served here? Some route of the route table has its method and a path that the
 * template's concrete paths match (`:id` against `{uuid}`), and not only for retired versions.
 */
export function isServed(operation: OpenApiOperation, routeTable: Iterable<string>, unservedPaths: ReadonlySet<string>): boolean {
  const concrete = operation.path.replace(/\{[^}]+\}/g, 'x');
  for (const key of routeTable) {
    const space = key.indexOf(' ');
    const [method, path] = [key.slice(0, space), key.slice(space + 1)];
    if (method !== operation.method || unservedPaths.has(path.replace(/\/\*$/, ''))) continue;
    if (templatePattern(path, /^:\w+$/).test(concrete)) return true;
  }
  return false;
}

/** A media type's essence, lower case, in the documented vendor (`meshcloud`). */
export const documentedForm = (contentType: string | undefined) =>
  (contentType ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase()
    .replace(/^application\/vnd\.vendor\./, 'application/vnd.meshcloud.');

/** Upper-case tokens a parameter's description lists as its values ("One of A, B", "[A] … [B]", "e.g., A, B"). */
export function documentedValues(parameter: QueryParameter): string[] {
  return [...new Set(parameter.description.match(/\b[A-Z][A-Z_]{2,}\b/g) ?? [])];
}

/** One answer of this server, as a client saw it. */
export interface Exchange {
  method: string;
  /** Path and query. */
  url: string;
  status: number;
  contentType?: string;
  text: string;
}

/** A documented deviation of an answer from the OpenAPI (listed in the README, "OpenAPI conformance"). */
export interface Deviation {
  /** `METHOD template` of the operation, or a pattern over them. */
  operation: string | RegExp;
  /** The media type it applies to (documented form); any when absent. */
  mediaType?: string;
  /** Which validation errors it covers: instance path and keyword; every error when absent. */
  instancePath?: RegExp;
  keyword?: string;
  /** For status deviations: the status this server answers instead. */
  status?: number;
  /** For documented answers this server never gives (not covered). */
  notProduced?: boolean;
  reason: string;
}

export interface CheckResult {
  failures: string[];
  /** `METHOD template status mediaType` of every documented answer some exchange was checked against. */
  covered: Set<string>;
  /** Deviations that excused at least one finding. */
  used: Set<Deviation>;
}

export const coverageKey = (operation: OpenApiOperation, response: DocumentedResponse) =>
  `${operation.key} ${response.status} ${response.mediaType ?? '(no body)'}`;

/** Validates every 2xx/3xx exchange against the documented answers of the operations its URL matches. */
export function checkExchanges(
  exchanges: readonly Exchange[],
  operations: readonly OpenApiOperation[],
  deviations: readonly Deviation[],
): CheckResult {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(OPENAPI, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string): ValidateFunction => {
    const known = compiled.get(pointer);
    if (known) return known;
    const validate = ajv.compile({ $ref: `openapi${pointer}` });
    compiled.set(pointer, validate);
    return validate;
  };
  const result: CheckResult = { failures: [], covered: new Set(), used: new Set() };
  const excused = (finding: { operation: string; mediaType?: string; status?: number; error?: ErrorObject }) => {
    const deviation = deviations.find(
      (d) =>
        (typeof d.operation === 'string' ? d.operation === finding.operation : d.operation.test(finding.operation)) &&
        !d.notProduced &&
        (d.mediaType === undefined || d.mediaType === finding.mediaType) &&
        (finding.error
          ? d.status === undefined &&
            (d.instancePath === undefined || d.instancePath.test(finding.error.instancePath)) &&
            (d.keyword === undefined || d.keyword === finding.error.keyword)
          : d.status === finding.status),
    );
    if (deviation) result.used.add(deviation);
    return deviation !== undefined;
  };

  for (const exchange of exchanges) {
    if (exchange.status < 200 || exchange.status >= 400) continue;
    const path = exchange.url.split('?')[0]!;
    const candidates = operations.filter((operation) => operation.method === exchange.method && operation.pattern.test(path));
    if (candidates.length === 0) continue;
    const mediaType = exchange.text === '' ? undefined : documentedForm(exchange.contentType);
    const matching = candidates.flatMap((operation) =>
      operation.responses
        .filter((r) => r.status === exchange.status && r.mediaType === mediaType)
        .map((response) => ({ operation, response })),
    );
    if (matching.length === 0) {
      // A media type the OpenAPI does not document for the operation (a version it does not know) is not judged.
      const documentedTypes = candidates.flatMap((operation) => operation.responses.map((r) => r.mediaType));
      if (mediaType !== undefined && !documentedTypes.includes(mediaType)) continue;
      const operation = candidates[0]!;
      if (!excused({ operation: operation.key, ...(mediaType ? { mediaType } : {}), status: exchange.status })) {
        result.failures.push(
          `${exchange.method} ${exchange.url}: ${exchange.status} ${mediaType ?? '(no body)'} is not a documented answer of ${candidates.map((c) => c.key).join(' / ')} (${candidates.flatMap((c) => c.responses.map((r) => `${r.status} ${r.mediaType ?? '(no body)'}`)).join(', ')})`,
        );
      }
      continue;
    }
    for (const { operation, response } of matching) {
      result.covered.add(coverageKey(operation, response));
      if (!response.schemaPointer || mediaType === undefined) continue;
      let body: unknown;
      try {
        body = JSON.parse(exchange.text);
      } catch {
        result.failures.push(`${exchange.method} ${exchange.url}: the ${mediaType} body is not JSON`);
        continue;
      }
      const validate = validator(response.schemaPointer);
      if (validate(body)) continue;
      for (const error of validate.errors ?? []) {
        if (excused({ operation: operation.key, mediaType, error })) continue;
        result.failures.push(
          `${operation.key} (${mediaType}) via ${exchange.method} ${exchange.url}: ${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
        );
      }
    }
  }
  return result;
}

/** The same client, recording every exchange it (and every client made from it with `with`) makes. */
export function recording(client: ApiClient, exchanges: Exchange[]): ApiClient {
  const wrapped = client.with({});
  wrapped.request = async function (this: ApiClient, method: string, path: string, options?: RequestOptions): Promise<Response> {
    const response = await ApiClient.prototype.request.call(this, method, path, options);
    const url = path.startsWith('https://') ? new URL(path).pathname + new URL(path).search : path;
    exchanges.push({
      method,
      url,
      status: response.status,
      ...(response.headers['content-type'] ? { contentType: response.headers['content-type'] } : {}),
      text: response.text,
    });
    return response;
  };
  return wrapped;
}
