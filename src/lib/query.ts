/** A request's query parameters: a repeated parameter counts once (the last), so every value is a string. */
export type Query = Record<string, string | undefined>;

/** An exact-match filter value: empty parameters are ignored (COMPAT §4). */
export const filterValue = (query: Query, name: string) => (query[name] === undefined || query[name] === '' ? undefined : query[name]);
