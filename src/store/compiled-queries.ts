import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Tables } from './schema.js';

interface Entry {
  compiled: CompiledQuery;
  /** For each parameter of the compiled query, the index of the argument it takes. */
  slots: number[];
}

/**
 * Builds and compiles each query shape once. Kysely builds an operation tree and compiles it to SQL
 * on every call; on hot paths (a block by uuid, a list page) that costs more than SQLite's own work.
 * A shape is compiled with sentinel arguments, so the positions of the arguments among the compiled
 * parameters are known and later calls only swap the values in.
 */
export class CompiledQueries {
  private readonly cache = new Map<string, Entry | null>();

  constructor(private readonly db: Kysely<Tables>) {}

  async execute<R>(shape: string, args: readonly (string | number)[], build: (...args: (string | number)[]) => Compilable<R>): Promise<R[]> {
    let entry = this.cache.get(shape);
    if (entry === undefined) {
      const sentinels = args.map((arg, index) => (typeof arg === 'number' ? 987_654_321 + index : `\u0000arg${index}\u0000`));
      const compiled = build(...sentinels).compile();
      const slots = compiled.parameters.map((parameter) => sentinels.indexOf(parameter as string | number));
      // A parameter that is no argument (a constant in the query): this shape is not cacheable.
      entry = slots.every((slot) => slot >= 0) ? { compiled, slots } : null;
      if (this.cache.size >= 500) this.cache.clear();
      this.cache.set(shape, entry);
    }
    if (entry === null) return (await this.db.executeQuery(build(...args).compile())).rows as R[];
    const { compiled, slots } = entry;
    const result = await this.db.executeQuery<R>({ ...compiled, parameters: slots.map((slot) => args[slot]) } as CompiledQuery<R>);
    return result.rows;
  }
}
