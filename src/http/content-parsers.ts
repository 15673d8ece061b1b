import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { parseAllDocuments } from 'yaml';
import { badRequest } from '../errors.js';
import { essence } from './media-types.js';

/** Deeper bodies are rejected before any code walks them recursively. */
export const MAX_BODY_DEPTH = 64;

function depthExceeds(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

function parseJson(text: string): unknown {
  let value: unknown;
  try {
    // Refuses `__proto__` and `constructor.prototype` keys instead of letting them reach objects.
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw badRequest(`body: malformed JSON (${(error as Error).message})`);
  }
  if (depthExceeds(value, MAX_BODY_DEPTH)) throw badRequest(`body: nested deeper than ${MAX_BODY_DEPTH} levels`);
  return value;
}

function parseYamlStream(text: string): unknown[] {
  const documents = parseAllDocuments(text, { uniqueKeys: false });
  if (!Array.isArray(documents)) return [];
  const values: unknown[] = [];
  documents.forEach((document, index) => {
    if (document.errors.length > 0) throw badRequest(`body: YAML document ${index + 1}: ${document.errors[0]!.message.split('\n')[0]}`);
    const value = document.toJS({ maxAliasCount: 100 }) as unknown;
    if (value !== null && value !== undefined) values.push(value);
  });
  if (depthExceeds(values, MAX_BODY_DEPTH)) throw badRequest(`body: nested deeper than ${MAX_BODY_DEPTH} levels`);
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
    const media = request.routeOptions.config?.media;
    if (text.trim() === '' || (!media?.consumes && !media?.plainBodies)) return done(null, undefined);
    const type = essence(request.headers['content-type']);
    try {
      if (type === 'application/x-www-form-urlencoded') return done(null, Object.fromEntries(new URLSearchParams(text)));
      if (type.endsWith('+yaml')) return done(null, parseYamlStream(text));
      return done(null, parseJson(text));
    } catch (error) {
      return done(error as Error, undefined);
    }
  });
}
