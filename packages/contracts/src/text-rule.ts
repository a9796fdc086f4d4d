/**
 * The one rule for text a person types and other people read (issue 29 part 6, docs/decisions/0024): barrier
 * addresses and notes, full names, phone names, guest-pass notes, block and hold reasons, import cells that
 * become these. Such text goes into SMS sent under the service's name and onto other people's screens, so it
 * holds letters (Cyrillic, Latin), digits, spaces and the punctuation of addresses and names only: no links,
 * no control, format or bidi characters, no emoji. Spaces are trimmed and inner runs collapsed before the check.
 * Text already stored before the rule is shown cleaned (`cleanForDisplay`), never rewritten.
 *
 * This file holds the characters (what a screen shows); the links and the mixed scripts are judged in
 * text-check.ts (with the public suffix list), the field schemas are in clean-text.ts. No zod and no suffix list
 * here: the web shows text through these functions on every screen, the login screen's included.
 * Every pattern here is linear: a single character class, or one class repeated (packages' redos-check test).
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
 * Every character outside the rule, as one literal class (so that the ReDoS check reads it), built of:
 * - letters: Latin (A–Z, the Latin-1 letters and Latin Extended A, B and Additional: names with diacritics) and
 *   Cyrillic (U+0400–U+0481, U+048A–U+052F: the Russian alphabet and the letters of the other languages written in
 *   it). Not the look-alike blocks (fullwidth, mathematical, enclosed letters) that dress a link up as others;
 * - combining diacritics U+0300–U+036F (a letter with a mark not precomposed in Unicode), without U+034F
 *   COMBINING GRAPHEME JOINER: it shows nothing and splits a word («https:/\u034f/…») as the other
 *   default-ignorable characters do;
 * - digits and the space;
 * - the punctuation of addresses and names: . , - ‐ ‑ – — ' ’ ʼ " « » „ “ ” № / ( ) : ; # ! ? & + … (no @, < >, =,
 *   \, backticks, braces: nothing a name or an address needs, and the signs of mail, markup and code).
 * Global: `String.prototype.search` (which ignores `lastIndex`) tests, `replace` drops.
 */
const EVERY_CHARACTER_OUTSIDE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class is read code point by code point on purpose (a combining mark is allowed alone).
  /[^A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff\u0400-\u0481\u048a-\u052f\u0300-\u034e\u0350-\u036f0-9 .,\-\u2010\u2011\u2013\u2014'\u2019\u02bc"\u00ab\u00bb\u201e\u201c\u201d\u2116/():;#!?&+\u2026]/gu;
/** Combining marks stacked on one letter («Zalgo» text that covers the lines around it). */
const STACKED_MARKS = /[\u0300-\u036f]{3,}/gu;
const THREE_MARKS = /[\u0300-\u036f]{3}/u;
/**
 * Unicode's Default_Ignorable_Code_Point: shown as nothing, they split a link or a word to the eye of a rule
 * (U+034F, U+00AD, U+200B–U+200F, U+2060–U+206F, U+FE00–U+FE0F, U+115F, U+1160, U+3164, U+FFA0, U+180B–U+180F,
 * U+17B4, U+17B5, U+061C, U+E0000–U+E0FFF…). None is inside the rule; this names them once more for the check.
 */
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

/**
 * Whether already collapsed text holds a character outside the rule (line breaks are outside it too): a
 * control, format, bidi or default-ignorable character, an emoji, a letter of another script or a look-alike
 * block, or combining marks stacked on one letter. Linear: one pass of a character class each.
 */
export function breaksCharacterRule(text: string): boolean {
  return text.search(EVERY_CHARACTER_OUTSIDE) >= 0 || DEFAULT_IGNORABLE.test(text) || THREE_MARKS.test(text);
}

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

/**
 * Stored text as a screen or an SMS may show it: characters outside the rule dropped (control, format, bidi,
 * emoji…), spaces collapsed. Links are not removed here (`cleanForSms` does that): a screen shows them as
 * inert text.
 */
export function cleanForDisplay(value: string): string {
  // Stacked marks go before normalising (normalising a long run of them is slow), and again after it.
  const kept = value
    .replace(STACKED_MARKS, '')
    .normalize('NFC')
    .replace(SPACES, ' ')
    .replace(EVERY_CHARACTER_OUTSIDE, '');
  return collapseSpaces(kept.replace(STACKED_MARKS, ''));
}

/**
 * Text whose characters are not ours to judge (a device's reply, shown to the administrator): only the
 * characters that reorder or hide text are dropped (control, format, bidi and default-ignorable characters:
 * U+202E, U+2066, U+200B, U+FEFF, U+034F…), each control character becoming a space.
 */
export function stripInvisible(value: string): string {
  return value.replace(/\p{Cc}/gu, ' ').replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '');
}
