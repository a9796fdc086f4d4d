/**
 * How a Russian mobile number is written in an SMS command, and how a number a device writes back is read.
 *
 * The server keeps every number as `+7XXXXXXXXXX`. Devices are told numbers in one of the forms below (a
 * sheet's default, or a barrier's override); what they answer is read whatever form it takes, because the
 * manuals, third-party pages and the first production deployment disagree on the form (see
 * docs/decisions/0006-device-sheets.md).
 */

export const NUMBER_FORMATS = ['0007', '007', '+7', '7', '8', '10'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

/** Russian names of the forms, shown where an administrator chooses one. */
export const NUMBER_FORMAT_LABELS: Record<NumberFormat, string> = {
  '0007': '0007 и 10 цифр номера — как в первой установке с реальными RTU5025',
  '007': '007 и 10 цифр номера — 00, код страны и номер, как в руководствах к устройствам',
  '+7': '+7 и 10 цифр номера — международный формат',
  '7': '7 и 10 цифр номера — код страны и номер без плюса',
  '8': '8 и 10 цифр номера — с восьмёркой',
  '10': '10 цифр номера без кода страны',
};

export function isNumberFormat(value: unknown): value is NumberFormat {
  return typeof value === 'string' && (NUMBER_FORMATS as readonly string[]).includes(value);
}

const e164Pattern = /^\+7(\d{10})$/;

/** '+7XXXXXXXXXX' → the form written in a command. */
export function formatNumber(e164: string, format: NumberFormat): string {
  const match = e164Pattern.exec(e164);
  if (!match) throw new Error('A number must be written as +7XXXXXXXXXX.');
  const ten = match[1] ?? '';
  switch (format) {
    case '0007':
      return `0007${ten}`;
    case '007':
      return `007${ten}`;
    case '+7':
      return `+7${ten}`;
    case '7':
      return `7${ten}`;
    case '8':
      return `8${ten}`;
    case '10':
      return ten;
  }
}

/** Pattern (unanchored source) of a number in the given form, for parsing commands. */
export function numberPatternOf(format: NumberFormat): string {
  switch (format) {
    case '0007':
      return '0007\\d{10}';
    case '007':
      return '007\\d{10}';
    case '+7':
      return '\\+7\\d{10}';
    case '7':
      return '7\\d{10}';
    case '8':
      return '8\\d{10}';
    case '10':
      return '\\d{10}';
  }
}

/**
 * A number as a device may write it back → '+7XXXXXXXXXX', or null when it is not a Russian mobile number.
 * Accepted: any of the command forms above, with spaces, dashes or brackets between the digits (what a
 * person types on a keypad or a phone adds).
 */
export function parseDeviceNumber(text: string): string | null {
  const compact = text.replace(/[\s\-()]/g, '');
  const match = /^(?:\+7|0007|007|7|8)?(\d{10})$/.exec(compact);
  return match ? `+7${match[1]}` : null;
}

/** Pattern (unanchored source) of a number in any form `parseDeviceNumber` reads. */
export const ANY_NUMBER_PATTERN = '(?:\\+7|0007|007|7|8)?\\d{10}';
