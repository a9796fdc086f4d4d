/** Same rule as PHONE_PATTERN in @propusk/contracts/common (not imported: it would pull zod into the login chunk). */
const PHONE_PATTERN = /^\+7\d{10}$/;
/** Digits after +7 in a Russian number. */
const NATIONAL_LENGTH = 10;

/**
 * The digits after +7 that a person means by `raw`, as typed or pasted: `89161234567`, `+7 (916) 123-45-67`,
 * `8 916 123 45 67`, `7-916-123-45-67` and `9161234567` all mean 9161234567.
 *
 * - A leading `+` marks the first digit as the country code (7).
 * - Without a plus, a leading 8 or 7 is the trunk or country prefix, unless exactly ten digits were given (a
 *   ten-digit number is already national: `8001234567` is +7 800 123-45-67).
 * - Eleven digits after the country code that start with 8 or 7 are a prefixed number pasted after a `+7`
 *   already in the field: the prefix goes, never the last digit (cutting the tail sends the code to a stranger).
 * - More than ten digits are cut at ten.
 */
function nationalDigits(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  let national: string;
  if (raw.trim().startsWith('+')) {
    national = digits.startsWith('7') ? digits.slice(1) : digits;
  } else if (digits.length !== NATIONAL_LENGTH && /^[78]/.test(digits)) {
    national = digits.slice(1);
  } else {
    national = digits;
  }
  if (national.length > NATIONAL_LENGTH && /^[78]/.test(national)) national = national.slice(1);
  return national.slice(0, NATIONAL_LENGTH);
}

/**
 * What a phone field holds for `raw` (spec.md section 5): `+7` and up to 10 digits, `+7XXXXXXXXXX` once complete.
 * Nothing typed (no digit and no plus) stays empty, so that an optional field can be cleared.
 */
export function normalizePhone(raw: string): string {
  const national = nationalDigits(raw);
  if (national === '' && !/[\d+]/.test(raw)) return '';
  return `+7${national}`;
}

/**
 * A phone as people read it: `+79161234567` → `+7 (916) 123-45-67`. A partial value (a field being typed) is
 * formatted as far as it goes (`+7 (916) 12`); digits hidden by the server (`*`) count as digits; anything else
 * (the '-' fallback, a foreign number) is shown as given.
 */
export function formatPhoneForInput(value: string | null | undefined): string {
  if (value == null) return '';
  const match = /^\+7([\d*]{0,10})$/.exec(value.trim());
  if (!match) return value;
  const national = match[1] ?? '';
  if (national === '') return '+7';
  const area = national.slice(0, 3);
  const first = national.slice(3, 6);
  const second = national.slice(6, 8);
  const third = national.slice(8, 10);
  let text = `+7 (${area}`;
  if (first) text += `) ${first}`;
  if (second) text += `-${second}`;
  if (third) text += `-${third}`;
  return text;
}

/** A `tel:` address for a stored phone (`+79161234567`), or null when there is no number to call. */
export function phoneHref(value: string | null | undefined): string | null {
  return value && isCompletePhone(value) ? `tel:${value}` : null;
}

export function isCompletePhone(value: string): boolean {
  return PHONE_PATTERN.test(value);
}

/**
 * A phone as a screen shows it: formatPhoneForInput with no-break spaces, so a number is never broken across
 * lines on a narrow phone (issue 32 item 5; nothing else in it is a break opportunity: no line breaks before a
 * digit after '-' or '(').
 */
export function formatPhone(value: string | null | undefined): string {
  return formatPhoneForInput(value).replaceAll(' ', '\u00a0');
}
