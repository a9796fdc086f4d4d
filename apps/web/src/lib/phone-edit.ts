import { normalizePhone } from './phone';

/** Digits after +7 in a Russian number. */
const NATIONAL_LENGTH = 10;
/** What a field shows before the first digit of the number: `+7 (` (`+7` alone while no digit is typed). */
const PREFIX = '+7 (';

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * Where the caret may stand in a shown phone (`+7 (916) 123-45-67`): never inside or before `+7`, so nothing
 * typed lands in front of the country code (issue 41 major 1: a tap left of «+7» and 9161234567 gave
 * +7 (971) 612-34-56). An empty field has no prefix yet.
 */
export function firstCaretPosition(shown: string): number {
  if (!shown.startsWith('+7')) return 0;
  return shown.startsWith(PREFIX) ? PREFIX.length : 2;
}

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
 * A whole number (ten or more digits, or the whole field replaced) is read by normalizePhone: `8 916…`,
 * `+7 916…`, `916…`, `79161234567`.
 */
export function editPhone(shown: string, raw: string): PhoneEdit {
  let start = 0;
  while (start < shown.length && start < raw.length && shown[start] === raw[start]) start += 1;
  let end = 0;
  while (
    end < shown.length - start &&
    end < raw.length - start &&
    shown[shown.length - 1 - end] === raw[raw.length - 1 - end]
  )
    end += 1;
  const removed = shown.slice(start, shown.length - end);
  const inserted = raw.slice(start, raw.length - end);
  const typed = digitsOf(inserted);

  // The whole field replaced (select all, autofill), or a whole number put in: read as a number on its own.
  if (removed === shown || typed.length >= NATIONAL_LENGTH) {
    return {
      value: normalizePhone(removed === shown ? raw : inserted),
      caretDigits: Number.POSITIVE_INFINITY,
    };
  }

  const prefixLength = firstCaretPosition(shown);
  // The number's digits are those after the prefix; a change inside `+7` touches none of them.
  const national = digitsOf(shown.slice(prefixLength));
  const at = digitsOf(shown.slice(prefixLength, Math.max(start, prefixLength))).length;
  let gone = digitsOf(
    shown.slice(Math.max(start, prefixLength), Math.max(shown.length - end, prefixLength)),
  ).length;
  let from = at;
  // Backspace over a bracket, space or dash changes no digit: it takes the digit before it instead.
  if (typed === '' && gone === 0 && removed.length === 1 && start >= prefixLength && at > 0) {
    from = at - 1;
    gone = 1;
  }
  let next = national.slice(0, from) + typed + national.slice(from + gone);
  if (next.length > NATIONAL_LENGTH) {
    // Eleven digits typed in a row at the end, the first an 8 or 7 (`8 916 123 45 67` after +7): a trunk prefix.
    if (from === national.length && gone === 0 && /^[78]/.test(next))
      next = next.slice(1, NATIONAL_LENGTH + 1);
    // Anywhere else a full number takes no more digits (the last one would silently fall off).
    else return { value: `+7${national}`, caretDigits: at };
  }
  return { value: `+7${next}`, caretDigits: from + typed.length };
}
