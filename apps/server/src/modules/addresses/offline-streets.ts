/**
 * The offline address source (no DADATA_API_KEY, or DaData failing): streets of the biggest cities bundled in
 * data/streets.json (where they come from and under which licence: data/README.md). The index is built once,
 * at module load; a lookup touches only the streets that share the two first letters of the longest typed
 * word. Matching: case-insensitive, ё = е, every typed word is the start of some word of the address, in any
 * order ("тверская москва" finds "г Москва, ул Тверская"). The typed text itself is never offered.
 */
import { readFileSync } from 'node:fs';

interface StreetsFile {
  cities: { city: string; streets: string[] }[];
}

interface Entry {
  value: string;
  /** Words of the street name (without its type and locality): "starts with" is tested against the first. */
  nameWords: string[];
  /** Every word of the address but the street types ("ул", "пр-кт"): the city, the locality, the name. */
  words: string[];
  cityRank: number;
  /** A street of a town or settlement inside the city ("г Колпино, …") comes after the city's own streets. */
  isSuburb: boolean;
}

/** Street types and address words: typed before a name, they do not have to match anything. */
const TYPE_WORDS = new Set([
  'г',
  'город',
  'ул',
  'улица',
  'пр',
  'пр-кт',
  'просп',
  'проспект',
  'пер',
  'переулок',
  'ш',
  'шоссе',
  'наб',
  'набережная',
  'пл',
  'площадь',
  'б-р',
  'бульвар',
  'проезд',
  'аллея',
  'линия',
  'д',
  'дом',
  'п',
  'пос',
  'поселок',
]);

const NAME_PREFIX_WORDS = new Set(['реки', 'канала']);

/** What people type for a city instead of its name. */
const CITY_ALIASES: Record<string, string> = {
  мск: 'москва',
  спб: 'санкт-петербург',
  питер: 'санкт-петербург',
};

const HOUSE = /^\d+[а-я]?(\/\d+[а-я]?)?$/;

export function normalizeText(text: string): string {
  return text.toLowerCase().replaceAll('ё', 'е');
}

/** Words of a text; a hyphenated word also gives its parts ("санкт-петербург" → "санкт", "петербург"). */
function wordsOf(text: string, { withTypes = true } = {}): string[] {
  const words: string[] = [];
  for (const word of normalizeText(text).split(/[\s,.()/]+/)) {
    if (!word || (!withTypes && TYPE_WORDS.has(word))) continue;
    words.push(word);
    if (word.includes('-'))
      for (const part of word.split('-')) if (part && !/^\d/.test(part)) words.push(part);
  }
  return words;
}

function streetNameWords(street: string): string[] {
  const own = street.split(', ').at(-1) ?? street;
  // "наб реки Фонтанки", "наб канала Грибоедова": the name is the word after «реки» / «канала».
  return wordsOf(own).filter(
    (word) => !TYPE_WORDS.has(word) && !NAME_PREFIX_WORDS.has(word) && !/^\d+-[а-я]+$/.test(word),
  );
}

function buildIndex(file: StreetsFile) {
  const entries: Entry[] = [];
  file.cities.forEach(({ city, streets }, cityRank) => {
    for (const street of streets) {
      const value = `${city}, ${street}`;
      entries.push({
        value,
        nameWords: streetNameWords(street),
        // Types are not indexed: "пр" typed alone is the start of a name ("Профсоюзная"), not every prospect.
        words: [...new Set(wordsOf(value, { withTypes: false }))],
        cityRank,
        isSuburb: street.includes(', '),
      });
    }
  });
  // Two-letter word starts → the entries having such a word: the candidates of a lookup.
  const byStart = new Map<string, number[]>();
  entries.forEach((entry, id) => {
    for (const start of new Set(entry.words.map((word) => word.slice(0, 2)))) {
      const ids = byStart.get(start);
      if (ids) ids.push(id);
      else byStart.set(start, [id]);
    }
  });
  return { entries, byStart };
}

export function loadStreets(): StreetsFile {
  return JSON.parse(readFileSync(new URL('./data/streets.json', import.meta.url), 'utf8')) as StreetsFile;
}

export type StreetIndex = ReturnType<typeof buildIndex>;

export function createStreetIndex(file: StreetsFile = loadStreets()): StreetIndex {
  return buildIndex(file);
}

const defaultIndex = createStreetIndex();

/** The number of bundled streets per city ("г Москва" → 49), for the docs and the tests. */
export function countStreets(index: StreetIndex = defaultIndex): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of index.entries) {
    const city = entry.value.split(', ')[0] ?? '';
    counts.set(city, (counts.get(city) ?? 0) + 1);
  }
  return counts;
}

/**
 * Up to `count` addresses for the typed text, best first: streets whose name starts with the typed words before
 * those that only contain them, then the bigger city, then the city's own streets before its suburbs', then
 * the shorter. A trailing number is taken for the house ("арбат 12" → "г Москва, ул Арбат, д 12").
 */
export function searchStreets(query: string, count: number, index: StreetIndex = defaultIndex): string[] {
  const tokens = query
    .trim()
    .split(/[\s,]+/)
    .filter((token) => token.length > 0);
  let house: string | undefined;
  const last = tokens.at(-1);
  if (tokens.length > 1 && last && HOUSE.test(normalizeText(last))) {
    house = last;
    tokens.pop();
  }
  const words = [...new Set(wordsOf(tokens.join(' ')))]
    .map((word) => CITY_ALIASES[word] ?? word)
    .filter((word) => word !== 'д' && word !== 'дом');
  // Type words need not match ("ул Тверская"); typed alone they are the start of a name ("пр" → "Профсоюзная").
  const required = words.filter((word) => !TYPE_WORDS.has(word));
  const needed = required.length > 0 ? required : words;
  if (needed.length === 0) return [];
  const longest = needed.reduce((a, b) => (b.length > a.length ? b : a));
  // One letter says too little (the form asks from two on); the index is by two-letter starts.
  if (longest.length < 2) return [];
  const candidates = index.byStart.get(longest.slice(0, 2)) ?? [];
  const found: { entry: Entry; startsWith: boolean }[] = [];
  for (const id of candidates) {
    const entry = index.entries[id];
    if (!entry) continue;
    if (!needed.every((word) => entry.words.some((own) => own.startsWith(word)))) continue;
    const first = entry.nameWords[0] ?? '';
    found.push({ entry, startsWith: needed.some((word) => first.startsWith(word)) });
  }
  found.sort(
    (a, b) =>
      Number(b.startsWith) - Number(a.startsWith) ||
      a.entry.cityRank - b.entry.cityRank ||
      Number(a.entry.isSuburb) - Number(b.entry.isSuburb) ||
      a.entry.value.length - b.entry.value.length ||
      a.entry.value.localeCompare(b.entry.value, 'ru'),
  );
  return found.slice(0, count).map(({ entry }) => (house ? `${entry.value}, д ${house}` : entry.value));
}
