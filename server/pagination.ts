/**
 * One paging rule for every list of /v1 and the admin API: `limit` (1–100, default 20) and `offset`
 * (≥ 0, default 0), the spec's shape. `page`/`per_page` stay accepted as an alias (offset =
 * (page − 1) · per_page) so scripts and SDKs written against them keep working; one request mixing
 * the two styles is a 400 naming what it mixed. Every list answer carries `total`, `limit`,
 * `offset`, the alias's `page`/`per_page` (the SDKs read them) and a `next` link present only when
 * more items exist.
 */
import { z } from 'zod';
import { badRequest } from '../core/errors.ts';
import type { Window } from '../core/storage/values.ts';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
const MAX_OFFSET = 100_000_000;

const whole = (min: number, max: number) =>
  z.coerce
    .number()
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`)
    .optional();

/** The paging parameters, as a route declares them (through `pagedQuery`). */
export const pageParams = {
  limit: whole(1, MAX_LIMIT),
  offset: whole(0, MAX_OFFSET),
  page: whole(1, MAX_OFFSET / MAX_LIMIT),
  per_page: whole(1, MAX_LIMIT),
};

/** The query of a list route: its own filters plus the paging parameters. */
export const pagedQuery = <S extends z.ZodRawShape>(filters: S = {} as S) => z.object({ ...filters, ...pageParams });

type PageParams = { limit?: number; offset?: number; page?: number; per_page?: number };

/** The slice a paged query asks for; mixing `limit`/`offset` with `page`/`per_page` is a 400 naming both sides. */
export function pageFrom(query: PageParams): Window {
  const given = (names: Array<keyof PageParams>) => names.filter((name) => query[name] !== undefined);
  const spec = given(['limit', 'offset']);
  const alias = given(['page', 'per_page']);
  if (spec.length > 0 && alias.length > 0) {
    throw badRequest(
      `Query parameters ${[...spec, ...alias].join(', ')} mix two paging styles: use limit and offset (or their alias page and per_page), not both`,
    );
  }
  if (alias.length > 0) {
    const limit = query.per_page ?? DEFAULT_LIMIT;
    return { limit, offset: ((query.page ?? 1) - 1) * limit };
  }
  return { limit: query.limit ?? DEFAULT_LIMIT, offset: query.offset ?? 0 };
}

/** The link to the slice after `page` of the list at `request` (its other parameters kept), in limit/offset form. */
export function nextLink(request: Request | string, page: Window, path?: string): string {
  const url = new URL(typeof request === 'string' ? request : request.url, 'http://trawl');
  for (const name of ['page', 'per_page', 'limit', 'offset']) url.searchParams.delete(name);
  url.searchParams.set('limit', String(page.limit));
  url.searchParams.set('offset', String(page.offset + page.limit));
  return `${path ?? url.pathname}${url.search}`;
}

/** A list answer: the items under `key`, `total`, the slice, and `next` only when items remain past it. */
export function pageOf<T>(key: string, items: T[], total: number, page: Window, request: Request) {
  const body: Record<string, unknown> = {
    [key]: items,
    total,
    limit: page.limit,
    offset: page.offset,
    page: Math.floor(page.offset / page.limit) + 1,
    per_page: page.limit,
  };
  if (page.offset + page.limit < total) body.next = nextLink(request, page);
  return body;
}
