import { describe, expect, it } from 'vitest';
import { formatPhone, formatPhoneForInput, isCompletePhone, phoneHref } from './phone';
import { editPhone } from './phone-edit';

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

  it('round-trips with the field: a shown number pasted into it is the same number', () => {
    expect(editPhone('', formatPhone('+79161234567')).value).toBe('+79161234567');
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
