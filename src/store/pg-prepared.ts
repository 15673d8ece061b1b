import type pg from 'pg';

/** Statements named per process: beyond this many distinct texts, the rest run unnamed. */
const MAX_NAMED = 500;

/**
 * Each statement text PostgreSQL has seen on a connection is kept there as a prepared statement and
 * reused: the server parses and plans it once per connection instead of for every query (Kysely
 * sends every query unnamed). The stores issue a bounded set of statement texts (their shapes are
 * compiled once: store/compiled-queries.ts); `MAX_NAMED` only guards against a leak. Statements run
 * inside and outside transactions alike; a connection that is replaced forgets its statements with it.
 */
export function prepareStatements(client: pg.PoolClient, names: Map<string, string>): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined) return query(text, values, callback);
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED) names.set(text, (name = `s${names.size}`));
    return name === undefined ? query(text, values) : query({ name, text, values });
  };
}
