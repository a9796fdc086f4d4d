/**
 * What a modem hands over as the text of an SMS is not always what the device wrote: some gateways pass
 * UCS-2 messages as hexadecimal, line breaks come as CR, LF or both, fullwidth characters and non-breaking
 * spaces appear, and devices echo the password or the command before the answer. `normalizeReplyText`
 * undoes the encoding; the matchers (`template.ts`) then ignore case and spacing and look for a reply form
 * on any line, after any prefix.
 */

const hexUcs2 = /^(?:[0-9A-Fa-f]{4})+$/;

/** Hex UCS-2 (e.g. `003000300031003A0045006D007000740079`) → text; other text unchanged. */
export function decodeUcs2Hex(text: string): string {
  const compact = text.replace(/\s+/g, '');
  // Only a text made of 4-digit groups whose high bytes look like UCS-2 (mostly `00` for ASCII, `04` for
  // Cyrillic) is decoded; a reply made of digits only (`0012`) is left alone by requiring 3 groups.
  if (compact.length < 12 || !hexUcs2.test(compact)) return text;
  const codes: number[] = [];
  for (let index = 0; index < compact.length; index += 4) {
    codes.push(Number.parseInt(compact.slice(index, index + 4), 16));
  }
  const printable = codes.every((code) => code === 10 || code === 13 || (code >= 32 && code < 0xd800));
  const asciiLike = codes.filter((code) => code < 0x500).length === codes.length;
  return printable && asciiLike ? String.fromCharCode(...codes) : text;
}

/** The text a matcher compares: decoded, NFKC-folded (fullwidth → ASCII), one kind of line break and space. */
export function normalizeReplyText(text: string): string {
  return decodeUcs2Hex(text)
    .normalize('NFKC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00a0\u2000-\u200b\u202f\u3000\t]/g, ' ')
    .replace(/[“”«»]/g, '"')
    .trim();
}
