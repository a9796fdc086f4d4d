/**
 * A phone number as a person sees it who may not read it whole (issue 28): a pending invitation by id, a role
 * without `phones.manage`. Only the last four digits stay, in the usual Russian grouping: `+7 *** ***-45-67`.
 * A text that is not a number (an empty field, a sender name) keeps nothing but its last two characters.
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 4) return phone === '' ? '' : '***';
  const tail = `${digits.slice(-4, -2)}-${digits.slice(-2)}`;
  if (phone.startsWith('+7') && digits.length === 11) return `+7 *** ***-${tail}`;
  return `*** ***-${tail}`;
}

/**
 * Every phone number standing in a free text (a device's SMS: `A002#0007999…#`, `+79001234567`, `89001234567`)
 * masked as a run of asterisks with its last four digits: a number is ten digits or more in a row, after an
 * optional `+`. Shorter runs (a slot, a relay time, a password already masked) stay.
 */
export function maskPhonesInText(text: string): string {
  return text.replace(/\+?\d{10,}/g, (run) => `${'*'.repeat(run.length - 4)}${run.slice(-4)}`);
}
