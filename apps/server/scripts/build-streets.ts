/**
 * Builds src/modules/addresses/data/streets.json (the offline address source) from the raw transcriptions in
 * src/modules/addresses/data/raw/: `npm run build:streets -w @propusk/server`. The raw files keep the source's
 * own spelling ("Невский пр.", "Фонтанки реки наб.", "Парголово, Ломоносова ул."); this script brings every
 * street to DaData's form ("Невский пр-кт", "наб реки Фонтанки", "п Парголово, ул Ломоносова"), removes
 * duplicates and writes one list per city, the bigger city first. What each raw file is: data/README.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../src/modules/addresses/data');

/** Cities by population, biggest first: the order of the output and of equal suggestions. */
const CITIES = [
  { city: 'Москва', file: 'moscow.txt', formed: true },
  { city: 'Санкт-Петербург', file: 'spb.txt', formed: false },
];

/** The source's type words → DaData's abbreviation. */
const TYPES: Record<string, string> = {
  'ул.': 'ул',
  ул: 'ул',
  'ул/': 'ул',
  улица: 'ул',
  'пр.': 'пр-кт',
  'пp.': 'пр-кт',
  'просп.': 'пр-кт',
  'прд.': 'проезд',
  прд: 'проезд',
  'пр-д': 'проезд',
  проезд: 'проезд',
  прозд: 'проезд',
  'пер.': 'пер',
  'наб.': 'наб',
  'пл.': 'пл',
  пл: 'пл',
  'бул.': 'б-р',
  'булв.': 'б-р',
  'б-р': 'б-р',
  'ш.': 'ш',
  шоссе: 'ш',
  'шос.': 'ш',
  'ал.': 'аллея',
  'а.': 'аллея',
  аллея: 'аллея',
  алеея: 'аллея',
  'дор.': 'дор',
  'д.': 'дор',
  дорога: 'дор',
  'лин.': 'линия',
  линия: 'линия',
  'кв-л': 'кв-л',
  'тер.': 'тер',
  территория: 'тер',
  'пос.': 'п',
  'дер.': 'д',
  'ст.': 'ст',
  'отд.': 'отд',
  район: 'р-н',
  'парк.': 'парк',
  'поле.': 'поле',
  снт: 'тер СНТ',
  'сад-во': 'тер СНТ',
  'с-во': 'тер СНТ',
  'сад.': 'тер СНТ',
};

/** Spellings of the source fixed by hand: a name in the wrong word order or abbreviated. */
const NAME_FIXES: Record<string, string> = {
  'Фигнер Веры': 'Веры Фигнер',
  'Тюленина Сергея': 'Сергея Тюленина',
  'Ульянова Александра': 'Александра Ульянова',
  'Смородина Петра': 'Петра Смородина',
  'Толстого Льва': 'Льва Толстого',
  'Ольховецкого Олега': 'Олега Ольховецкого',
  'Качалова Проф.': 'Профессора Качалова',
  'Путешеств. Козлова': 'Путешественника Козлова',
  'Сред. Ленинградская': 'Средняя Ленинградская',
  'Лебяжьей кан.': 'Лебяжьей канавки',
  'Грибоедова кан.': 'канала Грибоедова',
  'Березовая ул. Лахта': 'Березовая',
};

const LATIN_TWINS: Record<string, string> = { a: 'а', c: 'с', e: 'е', o: 'о', p: 'р', x: 'х', y: 'у' };

const ADJECTIVE = /(ий|ый|ой|ая|яя|ое|ее|ья|ье)$/;

function fixLatinTwins(text: string): string {
  return text.replace(/[а-яё]*[acepoxy][а-яё]*/gi, (word) =>
    /[а-яё]/i.test(word) ? word.replace(/[acepoxy]/g, (letter) => LATIN_TWINS[letter] ?? letter) : word,
  );
}

/** "Лесная 1-ая" → "1-я Лесная", "Верхний 5" → "5-й Верхний": DaData puts the ordinal first. */
function ordinalFirst(name: string): string {
  const match = name.match(/^(.+?) (\d+)(?:-(?:ая|я|ой|й|ого|го))?\.?$/);
  if (!match?.[1] || !match[2]) return name;
  const [, rest, number] = match;
  const last = rest.split(' ').at(-1) ?? '';
  const suffix = /(ая|яя)$/.test(last) ? 'я' : /(ое|ее)$/.test(last) ? 'е' : 'й';
  return `${number}-${suffix} ${rest}`;
}

function bigSmall(name: string): string {
  return name.replace(/(\S+) (Бол|Мал)\.(?= |$)/, (_, word: string, size: string) => {
    const feminine = /(ая|яя|а|я)$/.test(word);
    const full = size === 'Бол' ? (feminine ? 'Большая' : 'Большой') : feminine ? 'Малая' : 'Малый';
    return `${full} ${word}`;
  });
}

/** One raw street → "[locality, ]street" in DaData's form, or null when nothing is left of it. */
export function formStreet(raw: string): string | null {
  let text = fixLatinTwins(raw.replace(/\[[^\]]*\]/g, '').trim())
    .replace(/\s+/g, ' ')
    .replace(/-ого\b/g, '-го')
    .replace(/-ая\b/g, '-я')
    .replace(/-ой\b/g, '-й');
  let locality: string | null = null;
  const paren = text.match(/\s*\(([^)]+)\)\s*/);
  if (paren?.[1]) {
    locality = `п ${paren[1] === 'Мож-ий' ? 'Можайский' : paren[1]}`;
    text = text.replace(paren[0], ' ').trim();
  }
  const comma = text.indexOf(', ');
  if (comma > 0) {
    const place = text.slice(0, comma);
    locality = /^красное село$/i.test(place)
      ? 'г Красное Село'
      : `п ${place.replace(/^(\S+) нос$/, '$1 Нос')}`;
    text = text.slice(comma + 2);
  }
  for (const [wrong, right] of Object.entries(NAME_FIXES)) text = text.replace(wrong, right);
  const words = text.split(' ');
  let type: string | null = null;
  const lastWord = words.at(-1)?.toLowerCase() ?? '';
  const firstWord = words[0]?.toLowerCase() ?? '';
  if (words.length > 1 && TYPES[lastWord]) {
    type = TYPES[lastWord] ?? null;
    words.pop();
  } else if (words.length > 1 && TYPES[firstWord] && !/^\d/.test(words[1] ?? '')) {
    type = TYPES[firstWord] ?? null;
    words.shift();
  } else if (words.length > 1 && TYPES[firstWord]) {
    // "Проезд 1-й", "Линия 10-я": the type and its number.
    type = TYPES[firstWord] ?? null;
    words.shift();
  }
  let name = words.join(' ').replace(/\.$/, '');
  name = name
    .replace(/^(.+) реки\.?$/, 'реки $1')
    .replace(/^(.+) [Кк]ан\.$/, type ? '$1 канала' : '$1 канал');
  name = ordinalFirst(bigSmall(name));
  if (!name) return null;
  if (/^\d+-[яй]\b/.test(name) && (type === 'линия' || type === 'проезд') && name.split(' ').length === 1) {
    name = `${name}`;
  }
  let street: string;
  if (!type) street = name;
  else if (type === 'ул' || type === 'тер СНТ' || !ADJECTIVE.test(name.split(' ').at(-1) ?? ''))
    street = `${type} ${name}`;
  else street = `${name} ${type}`;
  return locality ? `${locality}, ${street}` : street;
}

function readRaw(file: string): { locality: string; street: string }[] {
  const lines = readFileSync(join(dataDir, 'raw', file), 'utf8').split('\n');
  const out: { locality: string; street: string }[] = [];
  let place = '';
  for (const line of lines) {
    const text = line.trim();
    if (!text || text.startsWith('#')) continue;
    if (text.startsWith('@')) {
      place = text.slice(1).split('|')[1]?.trim() ?? '';
      continue;
    }
    out.push({ locality: place, street: text });
  }
  return out;
}

/** "Колпино г." → "г Колпино", "Песочный пос." → "п Песочный"; the city itself → "". */
function formPlace(place: string, city: string): string {
  if (!place || place === city) return '';
  const match = place.match(/^(.+?) (г|пос|сад-во|СНТ)\.?$/);
  if (!match?.[1]) return `п ${place}`;
  if (match[2] === 'г') return `г ${match[1]}`;
  if (match[2] === 'пос') return `п ${match[1]}`;
  return `тер СНТ ${match[1]}`;
}

const result: { city: string; streets: string[] }[] = [];
for (const { city, file, formed } of CITIES) {
  const seen = new Set<string>();
  const streets: string[] = [];
  for (const { locality, street } of readRaw(file)) {
    const formedStreet = formed ? street : formStreet(street);
    if (!formedStreet) continue;
    const place = formed ? '' : formPlace(locality, city);
    const full = place && !formedStreet.startsWith('п ') ? `${place}, ${formedStreet}` : formedStreet;
    const key = full.toLowerCase().replaceAll('ё', 'е');
    if (seen.has(key)) continue;
    seen.add(key);
    streets.push(full);
  }
  streets.sort((a, b) => a.localeCompare(b, 'ru'));
  result.push({ city: `г ${city}`, streets });
}

writeFileSync(join(dataDir, 'streets.json'), `${JSON.stringify({ cities: result }, null, 2)}\n`);
for (const { city, streets } of result) console.log(`${city}: ${streets.length} streets`);
