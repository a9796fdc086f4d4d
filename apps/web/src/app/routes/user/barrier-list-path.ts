import { paths } from '../../../lib/paths';

const STORAGE_KEY = 'propusk.barrier-list-search';

/** The barrier list remembers its URL search (tab, query, sort, page) for the back links of a barrier's screens. */
export function rememberBarrierListSearch(search: string) {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, search);
  } catch {
    // Storage refused (private mode): the back link opens the list as it first appears.
  }
}

/** /barriers as the user left it ("К шлагбаумам" returns to the same tab, search and page). */
export function barrierListPath(): string {
  try {
    const search = window.sessionStorage.getItem(STORAGE_KEY) ?? '';
    return search.startsWith('?') ? `${paths.barriers}${search}` : paths.barriers;
  } catch {
    return paths.barriers;
  }
}
