/** Same rule as PHONE_PATTERN in @propusk/contracts/common (not imported: it would pull zod into the login chunk). */
const PHONE_PATTERN = /^\+7\d{10}$/;

/**
 * The login phone field (spec.md section 5): digits only, always `+7` first, at most 12 characters. Non-digits
 * are stripped and a missing leading 7 is added.
 */
export function normalizeLoginPhone(raw: string): string {
  let digits = raw.replace(/\D/g, '');
  if (!digits.startsWith('7')) digits = `7${digits}`;
  return `+${digits}`.slice(0, 12);
}

export function isCompletePhone(value: string): boolean {
  return PHONE_PATTERN.test(value);
}

/** The phone-change form accepts `7XXXXXXXXXX` with or without the plus. */
export function isLenientPhone(value: string): boolean {
  return /^\+?7\d{10}$/.test(value.trim());
}

export function withPlus(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith('+') ? trimmed : `+${trimmed}`;
}
