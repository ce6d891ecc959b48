import { z } from "zod";

/** Page-number pagination of the results API. per_page is capped, not refused (docs/results-api.md). */
export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a positive integer`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1_000_000, `${name} must be between 1 and 1000000`);

export const ZPageQuery = z.object({
  page: positiveInt("page").optional().default(1),
  per_page: positiveInt("per_page")
    .optional()
    .transform((n) => Math.min(n ?? PER_PAGE_DEFAULT, PER_PAGE_MAX)),
});
export type PageQuery = z.output<typeof ZPageQuery>;

export function paged<T>(data: T[], total: number, { page, per_page }: PageQuery) {
  const pages = Math.ceil(total / per_page);
  return {
    data,
    pagination: { page, per_page, total, pages, has_next: page < pages, has_prev: page > 1 },
  };
}

export const offsetOf = ({ page, per_page }: PageQuery) => (page - 1) * per_page;
