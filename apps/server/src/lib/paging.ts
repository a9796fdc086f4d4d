/** Paging of lists (DESIGN.md section 2): the offset of a page, its total, and the list body. */

export const pageOffset = (query: { page: number; page_size: number }) => (query.page - 1) * query.page_size;

/**
 * The total of a list whose page statement carries it in every row (an uncorrelated `(select count(*) …)`,
 * computed once). A page past the end has no row to carry it: then `count` is asked (a client that pages
 * until it gets fewer items than it asked for never gets there).
 */
export async function totalOfPage(
  rows: { total: number }[],
  query: { page: number; page_size: number },
  count: () => Promise<number>,
): Promise<number> {
  const [first] = rows;
  if (first) return first.total;
  return pageOffset(query) === 0 ? 0 : count();
}

/** The list body of DESIGN.md section 2: `{"<items>": [...], total_count, current_page, page_size}`. */
export function paginate<K extends string, T>(
  key: K,
  items: T[],
  total: number,
  query: { page: number; page_size: number },
) {
  return { [key]: items, total_count: total, current_page: query.page, page_size: query.page_size } as {
    [P in K]: T[];
  } & { total_count: number; current_page: number; page_size: number };
}
