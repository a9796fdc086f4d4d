/**
 * The cache key of an address search (issue 29 part 8): the search's words as the database reads them,
 * deduplicated and sorted, so that the same search in another order, case or with a word repeated is one
 * cache entry, and two searches that the database answers differently never share one.
 *
 * It mirrors migration 0011: `barrier_search_text` (lower case, ё → е, «пр-кт» → «проспект» and the like,
 * digits split from letters, anything else a space) and `barrier_search_query` (every word a prefix, except
 * an abbreviation of `barrier_search_forms` that is not the last word: that one is exact). A word that is
 * both exact and a prefix in one search is the exact one (`w & w:*` is `w`).
 */
const SPELLED_OUT: readonly [RegExp, string][] = [
  [/(^|[^а-яa-z0-9])пр-к?т(?=[^а-яa-z0-9]|$)/g, '$1проспект'],
  [/(^|[^а-яa-z0-9])пр-д(?=[^а-яa-z0-9]|$)/g, '$1проезд'],
  [/(^|[^а-яa-z0-9])б-р(?=[^а-яa-z0-9]|$)/g, '$1бульвар'],
  [/(^|[^а-яa-z0-9])р-н(?=[^а-яa-z0-9]|$)/g, '$1район'],
  [/(^|[^а-яa-z0-9])мкр-н(?=[^а-яa-z0-9]|$)/g, '$1микрорайон'],
];

/** barrier_search_forms: the abbreviations matched exactly when they are not the last word. */
const FORMS = new Set(
  [
    ['г', 'город'],
    ['ул', 'улица'],
    ['д', 'дом'],
    ['пр', 'просп', 'проспект'],
    ['ш', 'шоссе'],
    ['пер', 'переулок'],
    ['наб', 'набережная'],
    ['пл', 'площадь'],
    ['бул', 'бульв', 'бульвар'],
    ['к', 'корп', 'корпус'],
    ['стр', 'строение'],
    ['мкр', 'микрорайон'],
    ['обл', 'область'],
    ['пос', 'поселок'],
    ['туп', 'тупик'],
    ['кв', 'квартира'],
  ].flat(),
);

/** The words of barrier_search_text. */
export function searchTextWords(input: string): string[] {
  let text = input.toLowerCase().replaceAll('ё', 'е');
  for (const [pattern, replacement] of SPELLED_OUT) text = text.replace(pattern, replacement);
  return text
    .replace(/([0-9])([а-яa-z])/g, '$1 $2')
    .replace(/([а-яa-z])([0-9])/g, '$1 $2')
    .split(/[^а-яa-z0-9]+/)
    .filter((word) => word !== '');
}

export function addressSearchKey(address: string): string {
  const words = searchTextWords(address);
  const exact = new Set<string>();
  const prefixes = new Set<string>();
  words.forEach((word, index) => {
    if (index < words.length - 1 && FORMS.has(word)) exact.add(word);
    else prefixes.add(word);
  });
  const tokens = [...exact, ...[...prefixes].filter((word) => !exact.has(word)).map((word) => `${word}*`)];
  return tokens.sort().join(' ');
}
