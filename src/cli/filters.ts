import { CliError } from './errors.js';

/**
 * `--filter key=value …` as the list's query: each key must be one the kind's list takes (the index
 * relation's template), so a misspelt filter is refused instead of silently listing everything.
 * A key given twice is sent twice (`excludeTitle` takes several).
 */
export function filterQuery(filters: readonly string[], allowed: readonly string[], kindName: string): URLSearchParams {
  const query = new URLSearchParams();
  for (const filter of filters) {
    const equals = filter.indexOf('=');
    if (equals <= 0) throw new CliError(`--filter "${filter}": expected key=value`);
    const key = filter.slice(0, equals);
    if (!allowed.includes(key)) {
      throw new CliError(`--filter ${key}: ${kindName} ${allowed.length === 0 ? 'take no filters' : `take only ${allowed.join(', ')}`}`);
    }
    query.append(key, filter.slice(equals + 1));
  }
  return query;
}
