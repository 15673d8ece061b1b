import { sql, type SelectQueryBuilder } from 'kysely';
import type { PageRequest } from '../lib/paging.js';

/**
 * One page of a filtered query plus the total the HAL page needs. `select` adds the columns and the
 * stable order (creation order, then key: paging through a changing list neither skips nor repeats).
 */
export async function fetchPage<DB, TB extends keyof DB, Row>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  page: PageRequest,
  /** The total when the caller knows it without counting. */
  knownTotal?: number,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, total] = await Promise.all([
    select(filtered)
      .limit(page.size)
      .offset(page.page * page.size)
      .execute(),
    knownTotal ??
      filtered
        .select(sql<number | string>`count(*)`.as('total'))
        .executeTakeFirstOrThrow()
        .then((count) => Number((count as { total: number | string }).total)),
  ]);
  return { rows: rows as Row[], total };
}
