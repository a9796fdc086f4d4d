/** Same rule as PHONE_PATTERN in @propusk/contracts/common (not imported: it would pull zod into the login chunk). */
const PHONE_PATTERN = /^\+7\d{10}$/;

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
