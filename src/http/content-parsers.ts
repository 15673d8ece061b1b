import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { parseAllDocuments } from 'yaml';
import { badRequest } from '../lib/errors.js';
import { essence } from '../lib/media-types.js';

/** Deeper bodies are rejected before any code walks them recursively. */
export const MAX_BODY_DEPTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text a database column can hold and a response can carry: no NUL, no lone UTF-16 surrogate. */
function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'NUL characters are not allowed';
  if (LONE_SURROGATE.test(text)) return 'text must be valid Unicode (a lone surrogate was sent)';
  return undefined;
}

/**
 * Every parsed body (JSON, YAML, form) passes here before any code walks it: at most 64 levels deep,
 * no `__proto__` or `constructor.prototype` keys (YAML and forms as well as JSON), only storable text.
 */
export function checkBody(root: unknown): void {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) throw badRequest(`body: ${problem}`);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) throw badRequest(`body: nested deeper than ${MAX_BODY_DEPTH} levels`);
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (
        key === '__proto__' ||
        (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
      ) {
        throw badRequest('body: __proto__ and constructor.prototype keys are not allowed');
      }
      const problem = textProblem(key);
      if (problem) throw badRequest(`body: ${problem} (in a key)`);
      stack.push([child, depth + 1]);
    }
  }
}

function parseJson(text: string): unknown {
  let value: unknown;
  try {
    // Refuses `__proto__` and `constructor.prototype` keys instead of letting them reach objects.
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw badRequest(`body: malformed JSON (${(error as Error).message})`);
  }
  checkBody(value);
  return value;
}

function parseYamlStream(text: string): unknown[] {
  const documents = parseAllDocuments(text, { uniqueKeys: false });
  if (!Array.isArray(documents)) return [];
  const values: unknown[] = [];
  documents.forEach((document, index) => {
    if (document.errors.length > 0) throw badRequest(`body: YAML document ${index + 1}: ${document.errors[0]!.message.split('\n')[0]}`);
    let value: unknown;
    try {
      value = document.toJS({ maxAliasCount: 100 }) as unknown;
    } catch (error) {
      // Unresolved aliases, alias bombs: the document is unusable, not the server broken.
      throw badRequest(`body: YAML document ${index + 1}: ${(error as Error).message.split('\n')[0]}`);
    }
    if (value !== null && value !== undefined) values.push(value);
  });
  checkBody(values);
  return values;
}

/**
 * One body parser for every content type. Which types a route accepts is decided before the body is
 * read (negotiation in the onRequest hook answers 415); here the body is only decoded. Routes that
 * take no body (claims, trigger-run) get `undefined` whatever Content-Type a client sent.
 */
export function registerContentParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (request.routeOptions.config?.rawBody) return done(null, text);
    const media = request.routeOptions.config?.media;
    if (text.trim() === '' || (!media?.consumes && !media?.plainBodies)) return done(null, undefined);
    const type = essence(request.headers['content-type']);
    try {
      if (type === 'application/x-www-form-urlencoded') {
        const form = Object.fromEntries(new URLSearchParams(text));
        checkBody(form);
        return done(null, form);
      }
      if (type.endsWith('+yaml')) return done(null, parseYamlStream(text));
      return done(null, parseJson(text));
    } catch (error) {
      return done(error as Error, undefined);
    }
  });
}
