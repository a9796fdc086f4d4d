/** Digits after +7 in a Russian number. */
const NATIONAL_LENGTH = 10;

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * Where the caret may stand in a shown phone (`+7 (916) 123-45-67`): never inside or before `+7`, so nothing
 * typed lands in front of the country code (issue 41 major 1: a tap left of «+7» and 9161234567 gave
 * +7 (971) 612-34-56). An empty field has no prefix yet.
 */
export const firstCaretPosition = (shown: string): number => (shown.startsWith('+7') ? 2 : 0);

export interface PhoneEdit {
  /** The number the field holds now: `+7` and up to 10 digits, or empty. */
  value: string;
  /** Digits of the number (after +7) before the caret; Infinity = at the end. */
  caretDigits: number;
}

/**
 * What one edit of a phone field means. `shown` is what the field showed (formatted), `raw` what the browser
 * made of it (a key typed, a deletion, an autofill, a text inserted anywhere, even in front of `+7`).
 * The part that changed is found by the common start and end of the two texts; the digits typed go into the
 * number where they were typed, counted in the number's own digits, so `+7` is never read as part of it.
 * A whole number put in (ten or more digits: a paste, an autofill) replaces the number: `8 916 123-45-67`,
 * `+7 916 123-45-67`, `79161234567` and `9161234567` all give +79161234567 (eleven digits that start with 8 or
 * 7 begin with a trunk or country prefix). Emptied, the field is empty (an optional number can be removed).
 */
export function editPhone(shown: string, raw: string): PhoneEdit {
  const length = Math.min(shown.length, raw.length);
  let start = 0;
  let end = 0;
  while (start < length && shown[start] === raw[start]) start++;
  while (end < length - start && shown.at(-1 - end) === raw.at(-1 - end)) end++;
  if (!digitsOf(raw) && !raw.includes('+')) return { value: '', caretDigits: 0 };
  // The field's start replaced (an autofill of `89161234567` over `+7`, a digit typed over everything): the
  // new text is all there is, whatever it happens to share with the end of the old one.
  const replaced = !start && end < shown.length && raw.length > end;
  const inserted = replaced ? raw : raw.slice(start, raw.length - end);
  const typed = digitsOf(inserted);
  // Only the number's digits count, those after the prefix: a change inside `+7` touches none of them.
  const prefix = firstCaretPosition(shown);
  const whole = replaced || typed.length >= NATIONAL_LENGTH;
  const national = whole ? '' : digitsOf(shown.slice(prefix));
  const from = Math.max(start, prefix);
  let at = whole ? 0 : digitsOf(shown.slice(prefix, from)).length;
  let gone = whole ? 0 : digitsOf(shown.slice(from, Math.max(shown.length - end, prefix))).length;
  // Backspace over a bracket, space or dash changes no digit: it takes the digit before it instead.
  if (!inserted && !gone && shown.length - raw.length === 1 && start >= prefix && at) {
    at--;
    gone = 1;
  }
  let next = national.slice(0, at) + typed + national.slice(at + gone);
  if (next.length > NATIONAL_LENGTH) {
    // A whole number, or one typed on at the end, with a first 8 or 7 (`8 916 123 45 67`): a prefix. A whole
    // number is cut after ten digits; anywhere else a full number takes no more digits (typed into its middle,
    // the last one would silently fall off).
    if (/^[78]/.test(next) && (whole || (at === national.length && !gone))) next = next.slice(1, 11);
    else next = whole ? next.slice(0, NATIONAL_LENGTH) : national;
  }
  return { value: `+7${next}`, caretDigits: at + typed.length };
}
