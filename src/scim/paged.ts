import type { Page, PageRequest } from '../lib/paging.js';

/**
 * SCIM's `startIndex`/`count` (any offset) over the kinds' page-numbered lists: the one or two pages
 * of size `count` that hold the window. `count=0` asks for the total only.
 */
export async function window<T>(list: (page: PageRequest) => Promise<Page<T>>, startIndex: number, count: number): Promise<Page<T>> {
  if (count === 0) return { items: [], total: (await list({ page: 0, size: 1 })).total };
  const offset = startIndex - 1;
  const page = Math.floor(offset / count);
  const first = await list({ page, size: count });
  const skip = offset - page * count;
  if (skip === 0) return first;
  const second = first.items.length === count ? await list({ page: page + 1, size: count }) : { items: [], total: first.total };
  return { items: [...first.items.slice(skip), ...second.items].slice(0, count), total: first.total };
}
