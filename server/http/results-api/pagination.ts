import { z } from "zod";
import { intParam } from "../kernel/params";

/** Page-number pagination of the results API. per_page is capped, not refused (docs/results-api.md). */
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;
/** page × per_page stays far inside what an OFFSET can hold. */
const PAGE_MAX = 1_000_000;
const PER_PAGE_ACCEPTED = 1_000_000;

export const ZPageQuery = z.object({
  page: intParam("page", 1, PAGE_MAX).optional().default(1).describe("page number, from 1"),
  per_page: intParam("per_page", 1, PER_PAGE_ACCEPTED)
    .optional()
    .transform((n) => Math.min(n ?? PER_PAGE_DEFAULT, PER_PAGE_MAX))
    .describe(`entries per page (default ${PER_PAGE_DEFAULT}); values above ${PER_PAGE_MAX} are capped to ${PER_PAGE_MAX}`),
});
export type PageQuery = z.output<typeof ZPageQuery>;

export const ZPagination = z.object({
  page: z.number().int(),
  per_page: z.number().int().describe("the page size used"),
  total: z.number().int(),
  pages: z.number().int(),
  has_next: z.boolean(),
  has_prev: z.boolean(),
});

/** The `pagination` member of a page. */
export function pageMeta(total: number, { page, per_page }: PageQuery): z.output<typeof ZPagination> {
  const pages = Math.ceil(total / per_page);
  return { page, per_page, total, pages, has_next: page < pages, has_prev: page > 1 };
}

export const offsetOf = ({ page, per_page }: PageQuery) => (page - 1) * per_page;
