import { Type, type TSchema } from '@sinclair/typebox';
import { badRequest } from './errors.js';
import type { HalLinks } from './hal.js';

/** Paging rules of spec §2.1 and §8. */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 350;

export interface PageRequest {
  /** Zero-based page number, echoed in `page.number` even past the end. */
  page: number;
  size: number;
}

/** One page of a list and the total the HAL page needs. */
export interface Page<T> {
  items: T[];
  total: number;
}

export const emptyPage = <T>(): Page<T> => ({ items: [], total: 0 });

export interface PageInfo {
  size: number;
  totalElements: number;
  totalPages: number;
  number: number;
}

function nonNegativeInteger(name: string, raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) {
    throw badRequest(`${name}: must be a non-negative integer, got "${String(raw)}"`);
  }
  return Number(raw);
}

/**
 * `page` defaults to 0, `size` to 50; sizes above 350 (or a kind's lower maximum) are lowered to it,
 * and `page.size` says the size used; `size=0` is rejected.
 */
export function parsePagingParams(query: Record<string, unknown>, maxSize: number = PAGE_SIZE_MAX): PageRequest {
  const page = nonNegativeInteger('page', query.page) ?? 0;
  const size = nonNegativeInteger('size', query.size) ?? Math.min(PAGE_SIZE_DEFAULT, maxSize);
  if (size === 0) throw badRequest('size: must be at least 1');
  return { page, size: Math.min(size, maxSize, PAGE_SIZE_MAX) };
}

export function pageInfo(request: PageRequest, totalElements: number): PageInfo {
  return {
    size: request.size,
    totalElements,
    totalPages: Math.ceil(totalElements / request.size),
    number: request.page,
  };
}

/**
 * `self` is the request as sent; `first`, `last` appear when more than one page exists, `prev` and
 * `next` only when such a page exists (spec §2.1).
 */
export function pageLinks(baseUrl: string, requestUrl: string, info: PageInfo): HalLinks {
  const links: HalLinks = { self: { href: `${baseUrl}${requestUrl}` } };
  if (info.totalPages <= 1) return links;
  // Parsed once for every link: `page` set first keeps its place when each link sets it again.
  const url = new URL(requestUrl, 'https://placeholder');
  url.searchParams.set('page', '0');
  url.searchParams.set('size', String(info.size));
  const at = (page: number) => {
    url.searchParams.set('page', String(page));
    return { href: `${baseUrl}${url.pathname}${url.search}` };
  };
  const last = info.totalPages - 1;
  links.first = at(0);
  if (info.number > 0 && info.number - 1 <= last) links.prev = at(info.number - 1);
  if (info.number < last) links.next = at(info.number + 1);
  links.last = at(last);
  return links;
}

export interface HalPage<T> {
  _embedded: Record<string, T[]>;
  _links: HalLinks;
  page: PageInfo;
}

export function halPage<T>(embeddedName: string, items: T[], info: PageInfo, links: HalLinks): HalPage<T> {
  return { _embedded: { [embeddedName]: items }, _links: links, page: info };
}

const PageLink = Type.Object({ href: Type.String() });

/** `page` and `size` of every paged list, as documented on its route. */
export const PagingQuery = {
  page: Type.Optional(Type.Integer({ minimum: 0, description: 'zero-based page number (default 0)' })),
  size: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: `page size (default ${PAGE_SIZE_DEFAULT}, at most ${PAGE_SIZE_MAX}; larger sizes are lowered)`,
    }),
  ),
};

const PageInfoSchema = Type.Object({
  size: Type.Integer(),
  totalElements: Type.Integer(),
  totalPages: Type.Integer(),
  number: Type.Integer(),
});

/** The answer schema of a paged list of `item`s under `_embedded.<embeddedName>`. */
export const halPageSchema = (embeddedName: string, item: TSchema) =>
  Type.Object({
    _embedded: Type.Object({ [embeddedName]: Type.Array(item) }),
    _links: Type.Object({
      self: PageLink,
      first: Type.Optional(PageLink),
      prev: Type.Optional(PageLink),
      next: Type.Optional(PageLink),
      last: Type.Optional(PageLink),
    }),
    page: PageInfoSchema,
  });
