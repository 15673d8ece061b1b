/**
 * The served OpenAPI document (`GET /api/openapi.json`) as a check on every answer the test
 * client receives: the answer's status must be documented for its operation, its media type among
 * that status's, and its body valid against the documented schema (ajv, JSON Schema 2020-12 as
 * OpenAPI 3.1 uses). A document that drifts from the code fails the test whose request showed it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Json } from './structure.js';

interface Operation {
  key: string;
  pattern: RegExp;
  /** Path parameters: the fewer, the more specific (`/runs/create` before `/runs/{id}`). */
  parameters: number;
  method: string;
  pointer: string;
  responses: Record<string, Json>;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const essence = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

export class ServedOpenApi {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: Json) {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(document, 'served');
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
        const segments = path.split('/');
        const pattern = new RegExp(
          `^${segments.map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`,
        );
        this.operations.push({
          key: `${method.toUpperCase()} ${path}`,
          pattern,
          parameters: segments.filter((segment) => segment.startsWith('{')).length,
          method: method.toUpperCase(),
          pointer: `#/paths/${escapePointer(path)}/${method}`,
          responses: (operation.responses ?? {}) as Record<string, Json>,
        });
      }
    }
    this.operations.sort((a, b) => a.parameters - b.parameters);
  }

  /** Why this answer does not match the document, or undefined when it does (or no documented operation has its method and path). */
  check(method: string, url: string, status: number, contentType: string | undefined, text: string): string | undefined {
    const path = new URL(url, 'https://placeholder').pathname;
    const operation = this.operations.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (!operation) return undefined;
    const where = `${method} ${url} answered ${status} ${essence(contentType) || '(no content type)'}`;
    const response = operation.responses[String(status)];
    if (!response)
      return `${where}: ${status} is not a documented answer of ${operation.key} (${Object.keys(operation.responses).join(', ')})`;
    const content = (response.content ?? {}) as Record<string, Json>;
    if (text === '')
      return Object.keys(content).length === 0
        ? undefined
        : `${where}: an empty body, but ${operation.key} documents ${Object.keys(content).join(', ')}`;
    const mediaType = essence(contentType);
    if (!(mediaType in content)) return `${where}: ${operation.key} documents ${status} as ${Object.keys(content).join(', ') || 'no body'}`;
    if (mediaType === 'text/event-stream' || mediaType === 'application/yaml' || mediaType === 'text/plain') return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${where}: the body is not JSON`;
    }
    const validate = this.validator(`${operation.pointer}/responses/${status}/content/${escapePointer(mediaType)}/schema`);
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (error) =>
          `${error.instancePath || '(body)'} ${error.message ?? error.keyword}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
      );
    return `${where}: the body does not match the served OpenAPI (${operation.key} ${status} ${mediaType}): ${errors.join('; ')}`;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `served${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}
