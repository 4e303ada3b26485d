/**
 * Pagination of list endpoints: `page`/`per_page` from the query string (validated like a body, so a
 * 400 names the field) and the page envelope whose `next` link is present only when more items exist.
 */
import { z } from 'zod';
import { parseOrThrow } from '../core/validation.ts';

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});

/** `page`/`per_page` from the query string, validated like a body (400 names the field). */
export function readPageQuery(request: Request): { page: number; perPage: number } {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const query = parseOrThrow(pageQuerySchema, { page: params.page, per_page: params.per_page });
  return { page: query.page, perPage: query.per_page };
}

/** The page envelope: `next` is present only when a further page holds items. */
export function pageOf<T>(key: string, items: T[], total: number, query: { page: number; perPage: number }, request: Request) {
  const body: Record<string, unknown> = { [key]: items, page: query.page, per_page: query.perPage, total };
  if (query.page * query.perPage < total) {
    const next = new URL(request.url);
    next.searchParams.set('page', String(query.page + 1));
    next.searchParams.set('per_page', String(query.perPage));
    body.next = `${next.pathname}${next.search}`;
  }
  return body;
}
