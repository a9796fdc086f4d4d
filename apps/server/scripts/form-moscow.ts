/**
 * Makes src/modules/addresses/data/raw/moscow.txt (Moscow streets already in DaData's form) from the transcriptions
 * raw/moscow-data-mos-NNN.txt (one per data.mos.ru data set, e.g. 483; the street as the source writes it: "ул Маршала Захарова",
 * "проезд Саратовский 1-й", "ш Волоколамское", "г Зеленоград, аллея Березовая") and the project's former hand list:
 * `node --import tsx scripts/form-moscow.ts`, then `npm run build:streets`. What the files are: data/README.md.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rawDir = join(dirname(fileURLToPath(import.meta.url)), '../src/modules/addresses/data/raw');

/** The project's former hand list (formerly `OFFLINE_STREETS`), kept first so that its spelling (ё) wins. */
const PROJECT_STREETS = [
  'ул Тверская',
  'ул Арбат',
  'ул Новый Арбат',
  'пр-кт Мира',
  'Ленинский пр-кт',
  'Кутузовский пр-кт',
  'ул Ленина',
  'ул Садовая-Кудринская',
  'ул Большая Дмитровка',
  'ул Петровка',
  'ул Мясницкая',
  'ул Покровка',
  'ул Маросейка',
  'ул Пятницкая',
  'ул Большая Ордынка',
  'ул Остоженка',
  'ул Пречистенка',
  'ул Профсоюзная',
  'ул Вавилова',
  'ул Академика Королёва',
  'ул Бутлерова',
  'ул Гарибальди',
  'ул Строителей',
  'ул Молодёжная',
  'ул Садовая',
  'ул Школьная',
  'ул Советская',
  'ул Гагарина',
  'ул Лесная',
  'ул Новослободская',
  'ул Сретенка',
  'Варшавское шоссе',
  'Каширское шоссе',
  'Дмитровское шоссе',
  'Ярославское шоссе',
  'Волоколамское шоссе',
  'Рублёвское шоссе',
  'Ленинградский пр-кт',
  'Комсомольский пр-кт',
  'пр-кт Вернадского',
  'Мичуринский пр-кт',
  'ул Мосфильмовская',
  'ул 3-я Хорошёвская',
  'ул Народного Ополчения',
  'ул Маршала Жукова',
  'ул Митинская',
  'ул Зеленоградская',
  'ул Менжинского',
  'ул Широкая',
];

/** The source's type → DaData's word for Moscow ("Варшавское шоссе", as the former hand list writes it). */
const TYPES: Record<string, string> = {
  ул: 'ул',
  пер: 'пер',
  проезд: 'проезд',
  'пр-кт': 'пр-кт',
  'б-р': 'б-р',
  наб: 'наб',
  ш: 'шоссе',
  пл: 'пл',
  туп: 'туп',
  аллея: 'аллея',
  линия: 'линия',
  просек: 'просек',
};

const ADJECTIVE = /(ий|ый|ой|ая|яя|ое|ее|ья|ье)$/;
/** Names that end like an adjective but are a person's name in the genitive ("аллея Жемчуговой"). */
const GENITIVE_NAMES = new Set(['Жемчуговой']);
const ORDINAL = /^\d+-(й|я|е)$/;

/** "ВОЛОКОЛАМСКОЕ" → "Волоколамское" (the source sometimes writes a name in capitals). */
function fixCapitals(word: string): string {
  if (!/[А-ЯЁ]{2}/.test(word) || word !== word.toUpperCase()) return word;
  return word
    .toLowerCase()
    .replace(/(^|-)([а-яё])/g, (_, start: string, letter: string) => start + letter.toUpperCase());
}

/** One transcribed street → DaData's form, or null when the line is not a street of a known type. */
export function formMoscowStreet(line: string): string | null {
  const comma = line.indexOf(', ');
  const locality = comma > 0 ? line.slice(0, comma) : '';
  const words = (comma > 0 ? line.slice(comma + 2) : line).trim().split(/\s+/).map(fixCapitals);
  const type = TYPES[words.shift() ?? ''];
  if (!type || words.length === 0) return null;
  const last = words.at(-1) ?? '';
  if (words.length > 1 && ORDINAL.test(last)) words.unshift(words.pop() ?? '');
  const name = words.join(' ');
  const tail = words.at(-1) ?? '';
  const street =
    type === 'ул' || ORDINAL.test(tail) || !ADJECTIVE.test(tail) || GENITIVE_NAMES.has(tail)
      ? `${type} ${name}`
      : `${name} ${type}`;
  return locality ? `${locality}, ${street}` : street;
}

/** The transcriptions, one per data.mos.ru data set (`moscow-data-mos-483.txt`, …), the lowest number first. */
const sourceFiles = readdirSync(rawDir)
  .filter((name) => /^moscow-data-mos-\d+\.txt$/.test(name))
  .sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]));
const source = sourceFiles.flatMap((name) =>
  readFileSync(join(rawDir, name), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#')),
);

const seen = new Set<string>();
const project: string[] = [];
const formed: string[] = [];
const key = (street: string) => street.toLowerCase().replaceAll('ё', 'е');
for (const street of PROJECT_STREETS) {
  seen.add(key(street));
  project.push(street);
}
for (const line of source) {
  const street = formMoscowStreet(line);
  if (!street) {
    console.warn(`skipped: ${line}`);
    continue;
  }
  if (seen.has(key(street))) continue;
  seen.add(key(street));
  formed.push(street);
}
formed.sort((a, b) => a.localeCompare(b, 'ru'));

const header = [
  '# Сгенерировано apps/server/scripts/form-moscow.ts — не править вручную (см. ../README.md).',
  `# Улицы Москвы в форме DaData: бывший собственный список проекта, затем улицы из ${sourceFiles.join(', ')}`,
  '# (наборы открытых данных data.mos.ru; условия использования — в ../README.md).',
  '@ Москва | Москва',
];
writeFileSync(join(rawDir, 'moscow.txt'), `${[...header, ...project, ...formed].join('\n')}\n`);
console.log(
  `moscow.txt: ${project.length + formed.length} streets (${formed.length} from data.mos.ru: ${sourceFiles.join(', ')})`,
);
