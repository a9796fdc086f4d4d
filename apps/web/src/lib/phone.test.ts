import { describe, expect, it } from 'vitest';
import { formatPhone, formatPhoneForInput, isCompletePhone, normalizePhone, phoneHref } from './phone';

describe('normalizePhone', () => {
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
  ])('reads %s as +79161234567', (raw) => {
    expect(normalizePhone(raw)).toBe('+79161234567');
  });

  it.each([
    ['+789161234567', 'a number with 8 pasted after the +7 already in the field'],
    ['+7+7 (916) 123-45-67', 'a formatted number pasted after +7'],
    ['+7 (7-916-123-45-67', 'a number with 7 pasted after +7 ('],
    ['+7 8 916 123 45 67', 'a spaced number pasted after +7'],
    ['+7 (9161234567', 'ten digits pasted after +7 ('],
  ])('keeps every digit of %s (%s)', (raw) => {
    expect(normalizePhone(raw)).toBe('+79161234567');
  });

  it('never cuts the last digit of an 8-number (the old field sent the code to +78916123456)', () => {
    expect(normalizePhone('89161234567')).not.toBe('+78916123456');
  });

  it('keeps a partial number while it is typed', () => {
    expect(normalizePhone('+7')).toBe('+7');
    expect(normalizePhone('+7 (9')).toBe('+79');
    expect(normalizePhone('+7 (916) 12')).toBe('+791612');
    expect(normalizePhone('9')).toBe('+79');
  });

  it('takes a first 8 or 7 typed into an empty field as the prefix', () => {
    expect(normalizePhone('8')).toBe('+7');
    expect(normalizePhone('7')).toBe('+7');
    expect(normalizePhone('+')).toBe('+7');
    expect(normalizePhone('89')).toBe('+79');
  });

  it('keeps a ten-digit number that starts with 8 as national', () => {
    expect(normalizePhone('8001234567')).toBe('+78001234567');
    expect(normalizePhone('+7 (800) 123-45-67')).toBe('+78001234567');
  });

  it('cuts extra digits typed after a complete number', () => {
    expect(normalizePhone('+7 (916) 123-45-678')).toBe('+79161234567');
  });

  it('lets a field be cleared', () => {
    expect(normalizePhone('')).toBe('');
    expect(normalizePhone('abc')).toBe('');
  });

  it('drops letters and other signs', () => {
    expect(normalizePhone('+7 (916) abc 123-45-67')).toBe('+79161234567');
  });
});

describe('formatPhone', () => {
  it('never breaks a number across lines: no-break spaces on a screen, plain ones in the field', () => {
    expect(formatPhone('+79161234567')).toBe('+7\u00a0(916)\u00a0123-45-67');
    expect(formatPhoneForInput('+79161234567')).toBe('+7 (916) 123-45-67');
  });

  it('formats a complete number', () => {
    expect(formatPhoneForInput('+79161234567')).toBe('+7 (916) 123-45-67');
  });

  it.each([
    ['+7', '+7'],
    ['+79', '+7 (9'],
    ['+7916', '+7 (916'],
    ['+79161', '+7 (916) 1'],
    ['+7916123', '+7 (916) 123'],
    ['+791612345', '+7 (916) 123-45'],
    ['+7916123456', '+7 (916) 123-45-6'],
  ])('formats the partial %s as %s', (value, shown) => {
    expect(formatPhoneForInput(value)).toBe(shown);
  });

  it('keeps digits the server hides readable', () => {
    expect(formatPhoneForInput('+7916***4567')).toBe('+7 (916) ***-45-67');
  });

  it('shows anything else as given', () => {
    expect(formatPhoneForInput('-')).toBe('-');
    expect(formatPhoneForInput('')).toBe('');
    expect(formatPhoneForInput(null)).toBe('');
    expect(formatPhoneForInput('+380441234567')).toBe('+380441234567');
  });

  it('round-trips with normalizePhone', () => {
    expect(normalizePhone(formatPhone('+79161234567'))).toBe('+79161234567');
  });
});

describe('phoneHref and isCompletePhone', () => {
  it('makes a tel: link only for a complete number', () => {
    expect(phoneHref('+79161234567')).toBe('tel:+79161234567');
    expect(phoneHref('+7916')).toBeNull();
    expect(phoneHref(null)).toBeNull();
  });

  it('knows a complete number', () => {
    expect(isCompletePhone('+79161234567')).toBe(true);
    expect(isCompletePhone('+7916123456')).toBe(false);
    expect(isCompletePhone('89161234567')).toBe(false);
  });
});
