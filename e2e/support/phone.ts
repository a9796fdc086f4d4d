/** A stored number as the screens show it: `+79161234567` → `+7 (916) 123-45-67` (apps/web/src/lib/phone.ts). */
export function shownPhone(phone: string): string {
  const match = /^\+7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(phone);
  if (!match) throw new Error(`not a +7 number: ${phone}`);
  return `+7 (${match[1]}) ${match[2]}-${match[3]}-${match[4]}`;
}
