import { describe, expect, it } from 'vitest';
import { formatPhoneForInput } from './phone';
import { editPhone, firstCaretPosition } from './phone-edit';

/** Types `keys` one by one at `caret` of the field showing `value`, as a browser edits the text. */
function typeAt(value: string, caret: number, keys: string): string {
  let current = value;
  let position = caret;
  for (const key of keys) {
    const shown = formatPhoneForInput(current);
    const raw = shown.slice(0, position) + key + shown.slice(position);
    const edit = editPhone(shown, raw);
    current = edit.value;
    const next = formatPhoneForInput(current);
    // Where the field puts the caret: after the number's caretDigits-th digit.
    let seen = 0;
    position = firstCaretPosition(next);
    for (let index = position; index < next.length && seen < edit.caretDigits; index += 1) {
      if (/\d/.test(next[index] ?? '')) seen += 1;
      position = index + 1;
    }
  }
  return current;
}

describe('editPhone', () => {
  it.each([0, 1, 2])('digits typed with the caret at %i (in or before +7) join the number', (caret) => {
    expect(typeAt('+7', caret, '9161234567')).toBe('+79161234567');
  });

  it('digits typed in front of +7 of a half-typed number go before its first digit, not into +7', () => {
    expect(typeAt('+7123', 0, '9')).toBe('+79123');
    expect(typeAt('+7123', 1, '9')).toBe('+79123');
  });

  it('a digit typed in the middle goes where it was typed', () => {
    // '+7 (916) 12' : caret after '9' (position 5).
    expect(typeAt('+791612', 5, '0')).toBe('+7901612');
  });

  it('a full number takes no digit typed into its middle (the last digit does not silently fall off)', () => {
    expect(typeAt('+78121234567', 5, '9')).toBe('+78121234567');
  });

  it('a number typed with a leading 8 after +7 loses the 8', () => {
    expect(typeAt('+7', 2, '89161234567')).toBe('+79161234567');
  });

  it.each([['8 916 123-45-67'], ['+7 916 123-45-67'], ['9161234567'], ['79161234567'], ['+79161234567']])(
    'a whole number %s put in anywhere (autofill, a keyboard suggestion) is read whole',
    (text) => {
      for (const caret of [0, 2, 4]) {
        const shown = '+7';
        const at = Math.min(caret, shown.length);
        expect(editPhone(shown, shown.slice(0, at) + text + shown.slice(at)).value).toBe('+79161234567');
      }
      expect(editPhone('+7 (900) 111-22-33', text).value).toBe('+79161234567');
      expect(editPhone('', text).value).toBe('+79161234567');
    },
  );

  it('a deletion inside +7 changes nothing; backspace over a separator takes the digit before it', () => {
    expect(editPhone('+7 (916', '+ (916').value).toBe('+7916');
    expect(editPhone('+7 (916', '7 (916').value).toBe('+7916');
    expect(editPhone('+7 (916) 1', '+7 (916 1').value).toBe('+7911');
  });

  it('a whole field cleared is empty (an optional number can be removed)', () => {
    expect(editPhone('+7 (916) 123-45-67', '').value).toBe('');
  });

  // What lib/phone.ts normalizePhone read before issue 41, now read as an edit of the field.
  it.each([
    ['89161234567'],
    ['+79161234567'],
    ['79161234567'],
    ['9161234567'],
    ['+7 (916) 123-45-67'],
    ['8 (916) 123-45-67'],
    ['8 916 123 45 67'],
    ['7-916-123-45-67'],
    ['+7-916-123-45-67'],
    ['  +7 916 1234567 '],
    ['8-916-123-45-67'],
  ])('reads %s put into an empty field or over another number as +79161234567', (raw) => {
    expect(editPhone('', raw).value).toBe('+79161234567');
    expect(editPhone('+7 (900) 111-22-33', raw).value).toBe('+79161234567');
  });

  it.each([
    ['+789161234567', 'a number with 8 pasted after the +7 already in the field'],
    ['+7+7 (916) 123-45-67', 'a formatted number pasted after +7'],
    ['+7 (7-916-123-45-67', 'a number with 7 pasted after +7 ('],
    ['+7 8 916 123 45 67', 'a spaced number pasted after +7'],
    ['+7 (9161234567', 'ten digits pasted after +7 ('],
  ])('keeps every digit of %s (%s)', (raw) => {
    expect(editPhone('+7', raw).value).toBe('+79161234567');
  });

  it('never cuts the last digit of an 8-number (the old field sent the code to +78916123456)', () => {
    expect(editPhone('+7', '+789161234567').value).not.toBe('+78916123456');
  });

  it('keeps a ten-digit number that starts with 8 as national, and cuts digits pasted past a whole number', () => {
    expect(editPhone('', '8001234567').value).toBe('+78001234567');
    expect(editPhone('', '+7 (800) 123-45-67').value).toBe('+78001234567');
    expect(editPhone('', '9161234567890').value).toBe('+79161234567');
  });

  it('lets a field be cleared, and drops letters and other signs', () => {
    expect(editPhone('+7', '').value).toBe('');
    expect(editPhone('', 'abc').value).toBe('');
    expect(editPhone('+7 (916) 123-45-6', '+7 (916) 123-45-6abc7').value).toBe('+79161234567');
  });

  it.each(['89161234567', '79161234567', '+79161234567', '8 916 123-45-67'])(
    'an autofill of %s over +7 or over another number is that number (no digit taken for the old text)',
    (filled) => {
      expect(editPhone('+7', filled).value).toBe('+79161234567');
      expect(editPhone('+7 (900) 111-22-37', filled).value).toBe('+79161234567');
    },
  );

  it('a digit typed over the whole field starts the number again', () => {
    expect(editPhone('+7 (916) 123-45-67', '5').value).toBe('+75');
    expect(editPhone('+7 (916) 123-45-67', '7').value).toBe('+77');
  });
});
