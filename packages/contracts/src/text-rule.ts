/**
 * The one rule for text a person types and other people read (issue 29 part 6, docs/decisions/0024): barrier
 * addresses and notes, full names, phone names, guest-pass notes, block and hold reasons, import cells that
 * become these. Such text goes into SMS sent under the service's name and onto other people's screens, so it
 * holds letters (Cyrillic, Latin), digits, spaces and the punctuation of addresses and names only: no links,
 * no control, format or bidi characters, no emoji. Spaces are trimmed and inner runs collapsed before the check.
 * Text already stored before the rule is shown cleaned (`cleanForDisplay`), never rewritten.
 *
 * No zod here: the web shows text through these functions on every screen, the login screen's included.
 * The field schemas are in clean-text.ts.
 */

/** The field message of text that breaks the rule (its Russian text is in error-texts.ts). */
export const CLEAN_TEXT_MESSAGE =
  'Use letters, digits, spaces and punctuation only: no links, emoji or special characters.';

/**
 * Spaces of every width, tabs and line breaks: one ordinary space in a one-line field. Format characters
 * (U+200B–U+200F, U+FEFF, bidi controls) are not spaces here: they are refused, not silently turned into one.
 */
const SPACES = /[\t\n\r\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
const LINE_SPACES = /[\t\u0020\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g;

/**
 * Punctuation of addresses and names: . , - ‐ ‑ – — ' ’ ʼ " « » „ “ ” № / ( ) : ; # ! ? & + …
 * (no @, < >, =, \, backticks, braces: nothing a name or an address needs, and the signs of mail, markup and code).
 */
const PUNCTUATION =
  '.,\\-\u2010\u2011\u2013\u2014\'\u2019\u02bc"\u00ab\u00bb\u201e\u201c\u201d\u2116/():;#!?&+\u2026';
/**
 * Letters: Latin (A–Z, the Latin-1 letters and Latin Extended A, B and Additional: names with diacritics) and
 * Cyrillic (the Russian alphabet and the letters of the other languages written in it). Not the look-alike
 * blocks (fullwidth, mathematical, enclosed letters) that dress a link up as other characters.
 */
const LETTERS =
  'A-Za-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f\\u1e00-\\u1eff\\u0400-\\u0481\\u048a-\\u052f';
/** Combining diacritics (a letter with a mark not precomposed in Unicode). */
const MARKS = '\\u0300-\\u036f';
// Inside a character class only the hyphen needs its escape (it is escaped in PUNCTUATION).
const CHARACTERS = `${LETTERS}${MARKS}0-9 ${PUNCTUATION}`;
const ALLOWED_CHARACTER = new RegExp(`[${CHARACTERS}]`, 'u');
const ANY_CHARACTER_OUTSIDE = new RegExp(`[^${CHARACTERS}]`, 'u');
/** Combining marks stacked on one letter («Zalgo» text that covers the lines around it). */
const STACKED_MARKS = /[\u0300-\u036f]{3,}/gu;

/**
 * Top-level domains a link in an SMS or on a screen would use: Russian ones, the generic ones and those cheap
 * registries sell to phishing. A word, a dot and one of these («sber-bank.online», «t.me/…», «пример.рф») reads
 * as a link; «г.Москва», «ул.Ленина», «д.5/2» do not.
 */
const LINK_DOMAINS = [
  'ru',
  'su',
  'рф',
  'рус',
  'com',
  'net',
  'org',
  'info',
  'biz',
  'io',
  'me',
  'co',
  'cc',
  'xyz',
  'top',
  'site',
  'online',
  'store',
  'shop',
  'club',
  'pro',
  'app',
  'link',
  'ly',
  'to',
  'gg',
  'tk',
  'ml',
  'ga',
  'cf',
  'gq',
  'ua',
  'by',
  'kz',
  'uz',
  'de',
  'uk',
  'us',
  'eu',
  'tv',
  'fm',
  'ws',
  'life',
  'live',
  'space',
  'website',
  'tech',
  'icu',
  'vip',
  'win',
  'bid',
  'pw',
  'click',
  'fun',
  'page',
  'dev',
  'cloud',
  'host',
  'press',
  'mobi',
  'name',
  'tel',
  'am',
  'ai',
  'gov',
  'edu',
  'sbs',
  'cfd',
  'buzz',
  'cyou',
  'rest',
  'bar',
  'lol',
  'su',
  'one',
  'world',
  'digital',
  'today',
  'news',
  'blog',
  'email',
  'support',
  'help',
  'bank',
  'money',
  'pay',
  'cash',
  'finance',
];
const SPACED_LINK_DOMAINS = ['ru', 'рф', 'su', 'рус', 'com', 'net', 'org', 'online', 'site', 'xyz', 'shop'];
const LINK_PATTERNS: readonly RegExp[] = [
  // A scheme (http://, https://, tg://…) or www.
  /[\p{L}][\p{L}\p{N}+.-]*:\/\//iu,
  /(^|[^\p{L}\p{N}])www\s*\./iu,
  // label.domain, ending there or followed by a path, a port, a query or punctuation.
  new RegExp(`[\\p{L}\\p{N}][\\p{L}\\p{N}-]*\\.(?:${LINK_DOMAINS.join('|')})(?=$|[^\\p{L}\\p{N}])`, 'iu'),
  // The same with spaces round the dot («sber . ru»), for the domains a Russian reader takes for a site.
  new RegExp(
    `[\\p{L}\\p{N}][\\p{L}\\p{N}-]*\\s*\\.\\s*(?:${SPACED_LINK_DOMAINS.join('|')})(?=$|[^\\p{L}\\p{N}])`,
    'iu',
  ),
  // Punycode labels (xn--p1ai is .рф) and bare IPv4 addresses.
  /xn--/iu,
  /(^|[^\d])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}($|[^\d])/u,
];

/** Trims and collapses every run of spaces (tabs and line breaks too) into one ordinary space. */
export function collapseSpaces(value: string): string {
  return value.replace(SPACES, ' ').trim();
}

/** For multi-line text (a barrier's note): each line collapsed, at most one empty line in a row. */
export function collapseSpacesMultiline(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(LINE_SPACES, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Whether the text reads as a link (a scheme, www, a domain, punycode, an IP address). */
export function containsLink(value: string): boolean {
  return LINK_PATTERNS.some((pattern) => pattern.test(value));
}

/**
 * Whether already collapsed text keeps the rule: allowed characters only (line breaks too when `multiline`),
 * no stacked combining marks, nothing that reads as a link.
 */
export function isCleanText(value: string, options: { multiline?: boolean } = {}): boolean {
  const text = (options.multiline ? value.replaceAll('\n', ' ') : value).normalize('NFC');
  return !ANY_CHARACTER_OUTSIDE.test(text) && !text.match(STACKED_MARKS) && !containsLink(text);
}

/**
 * Stored text as a screen or an SMS may show it: characters outside the rule dropped (control, format, bidi,
 * emoji…), spaces collapsed. Links are not removed here (`cleanForSms` does that): a screen shows them as
 * inert text.
 */
export function cleanForDisplay(value: string): string {
  let kept = '';
  for (const char of value.normalize('NFC').replace(SPACES, ' ')) {
    if (ALLOWED_CHARACTER.test(char)) kept += char;
  }
  return collapseSpaces(kept.replace(STACKED_MARKS, ''));
}

/**
 * Text for an SMS sent under the service's name: cleaned for display, every word that reads as a link
 * dropped, no punctuation left dangling at its end, and cut at a word boundary to at most `max` characters
 * with «…» at the end.
 */
export function cleanForSms(value: string, max: number): string {
  const words = cleanForDisplay(value)
    .split(' ')
    .filter((word) => word !== '' && !containsLink(word));
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
const trimTrailingPunctuation = (text: string) =>
  text.replace(/[\s.,:;\-\u2010\u2011\u2013\u2014(«„“"/#&+]+$/u, '');

/**
 * Text whose characters are not ours to judge (a device's reply, shown to the administrator): only the
 * characters that reorder or hide text are dropped (control, format and bidi characters: U+202E, U+2066,
 * U+200B, U+FEFF…), each control character becoming a space.
 */
export function stripInvisible(value: string): string {
  return value.replace(/\p{Cc}/gu, ' ').replace(/\p{Cf}/gu, '');
}
