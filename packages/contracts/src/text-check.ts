/**
 * The clean-text rule's judgement of words (issue 40 item 2, docs/decisions/0029): what reads as a link and what
 * dresses one up. The characters themselves are in text-rule.ts; the field schemas in clean-text.ts.
 *
 * - A link is found by the public suffix list (`tldts`): a word, a dot and any top-level domain of the list, the
 *   Cyrillic ones included («rb.gy/…», «shorturl.at», «сбер.ком», «госуслуги.онлайн», «мос.москва»), unless the
 *   word before the dot is an address abbreviation («г.Москва», «ул.Ленина», «д.1к2», «пр.Мира»); a scheme
 *   («https://», «tg://»), «www.», punycode and IPv4 addresses too; with spaces round the dot («sber . ru») for
 *   the domains a Russian reader takes for a site.
 * - A word that mixes Latin and Cyrillic letters («sber.сom» with a Cyrillic «с») is refused: no Russian or Latin
 *   word needs both, and look-alikes are how a link passes for another.
 *
 * Linear in the text's length: the text is cut into runs by one character class, each run into labels by its
 * dots, and each label is looked up once. No pattern here backtracks (packages' redos-check test). The fields
 * still bound the length first (clean-text.ts): this rule runs only on text of a field's size.
 */
import { parse } from 'tldts';
import { breaksCharacterRule, cleanForDisplay } from './text-rule.ts';

/**
 * Address abbreviations written with a dot and no space before the next word («г.Москва», «ул.Ленина»,
 * «пр.Мира», «д.5/2»): the next word is a street or a town, even when it is also a top-level domain (.москва).
 */
const ADDRESS_ABBREVIATIONS = new Set([
  'г',
  'гор',
  'ул',
  'д',
  'дом',
  'кв',
  'пр',
  'пр-т',
  'пр-кт',
  'просп',
  'пер',
  'стр',
  'корп',
  'к',
  'пос',
  'п',
  'пгт',
  'с',
  'дер',
  'обл',
  'р-н',
  'пл',
  'наб',
  'ш',
  'б-р',
  'бул',
  'мкр',
  'мкрн',
  'тер',
  'уч',
  'влд',
  'вл',
  'эт',
  'под',
  'оф',
  'пом',
  'лит',
  'ст',
  'им',
]);

/** With spaces round the dot («sber . ru», «evil. рф»): the domains a Russian reader takes for a site. */
const SPACED_LINK_DOMAINS = new Set([
  'ru',
  'рф',
  'su',
  'рус',
  'com',
  'net',
  'org',
  'online',
  'site',
  'xyz',
  'shop',
]);

const PARSE_OPTIONS = {
  allowPrivateDomains: false,
  detectIp: false,
  extractHostname: false,
  mixedInputs: false,
  validateHostname: false,
} as const;
const DIGITS_ONLY = /^\d+$/u;

/** Whether a label (lower case) is a top-level domain of the public suffix list's ICANN section. */
function isTopLevelDomain(label: string): boolean {
  // A label of the DNS is at most 63 characters; digits alone are never a top-level domain.
  if (label.length < 2 || label.length > 63 || DIGITS_ONLY.test(label)) return false;
  return parse(`x.${label}`, PARSE_OPTIONS).isIcann === true;
}

/** What is not a letter, a digit, a mark, a dot or a hyphen: the borders of host-like runs («rb.gy/x» → «rb.gy»). */
const RUN_BORDER = /[^\p{L}\p{N}\p{M}.-]+/u;

/** Whether some label of a host-like run, after another label, is a domain `isDomain` knows. */
function runsHaveDomain(text: string, isDomain: (label: string) => boolean): boolean {
  for (const run of text.toLowerCase().split(RUN_BORDER)) {
    if (!run.includes('.')) continue;
    const labels = run.split('.').filter((label) => label !== '');
    for (let index = 1; index < labels.length; index += 1) {
      const before = labels[index - 1] ?? '';
      if (!ADDRESS_ABBREVIATIONS.has(before) && isDomain(labels[index] ?? '')) return true;
    }
  }
  return false;
}

const SCHEME = /:\/\//u;
const WWW = /(?:^|[^\p{L}\p{N}])www\s?\./iu;
const PUNYCODE = /xn--/iu;
const IPV4 = /(?:^|\D)\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?:$|\D)/u;
/** One space on either side of a dot, dropped for the spaced check («sber . ru» → «sber.ru»). */
const SPACED_DOT = / ?\. ?/gu;

/** Whether the text reads as a link (a scheme, www, a domain of the public suffix list, punycode, an IP address). */
export function containsLink(value: string): boolean {
  if (SCHEME.test(value) || WWW.test(value) || PUNYCODE.test(value) || IPV4.test(value)) return true;
  if (runsHaveDomain(value, isTopLevelDomain)) return true;
  return (
    value.includes('.') &&
    runsHaveDomain(value.replace(SPACED_DOT, '.'), (label) => SPACED_LINK_DOMAINS.has(label))
  );
}

const WORD = /[\p{L}\p{M}]+/gu;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

/** Whether a word (a run of letters) mixes Latin and Cyrillic letters («sber.сom», «Сбeр» with a Latin «e»). */
export function hasMixedScripts(value: string): boolean {
  if (!LATIN.test(value) || !CYRILLIC.test(value)) return false;
  for (const [word] of value.matchAll(WORD)) {
    if (LATIN.test(word) && CYRILLIC.test(word)) return true;
  }
  return false;
}

const THREE_MARKS = /[\u0300-\u036f]{3}/u;

/**
 * Whether already collapsed text keeps the rule: allowed characters only (line breaks too when `multiline`), no
 * default-ignorable characters, no stacked combining marks, no word mixing Latin and Cyrillic, nothing that reads
 * as a link. Stacked marks are refused before the text is normalised (normalising a long run of them is slow).
 */
export function isCleanText(value: string, options: { multiline?: boolean } = {}): boolean {
  if (THREE_MARKS.test(value)) return false;
  const text = (options.multiline ? value.replaceAll('\n', ' ') : value).normalize('NFC');
  return !breaksCharacterRule(text) && !hasMixedScripts(text) && !containsLink(text);
}

/** A word an SMS must not carry: a link, or letters of two scripts. */
const readsAsLink = (word: string) => containsLink(word) || hasMixedScripts(word);

/**
 * Text for an SMS sent under the service's name: cleaned for display, every word that reads as a link (or mixes
 * scripts) dropped, no punctuation left dangling at its end, and cut at a word boundary to at most `max`
 * characters with «…» at the end. Only the first `4 × max` characters of the cleaned text are read.
 */
export function cleanForSms(value: string, max: number): string {
  const words = cleanForDisplay(value)
    .slice(0, max * 4)
    .split(' ')
    .filter((word) => word !== '' && !readsAsLink(word));
  // A link split by spaces («sber . ru», «www. x») still reads as one: words are dropped from the end until
  // none is left.
  while (words.length > 0 && containsLink(words.join(' '))) words.pop();
  const text = trimTrailingPunctuation(words.join(' '));
  if (text.length <= max) return text;
  const room = max - 1;
  const cut = text.slice(0, room + 1);
  const boundary = cut.lastIndexOf(' ');
  return `${trimTrailingPunctuation(boundary > room / 2 ? cut.slice(0, boundary) : text.slice(0, room))}…`;
}

/** The template goes on after the text («…: адрес. Войдите…»): no dangling dot, comma, dash or opening quote. */
const TRAILING_PUNCTUATION = /[\s.,:;\-\u2010\u2011\u2013\u2014(«„“"/#&+]/u;
function trimTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_PUNCTUATION.test(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end);
}
