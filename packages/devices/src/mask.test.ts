import { describe, expect, it } from 'vitest';
import { maskSecrets } from './mask.ts';

describe('maskSecrets', () => {
  it('masks the leading password of an RTU command, not the same digits inside the phone number', () => {
    expect(maskSecrets('1234A001#79991234567#', ['1234'])).toBe('****A001#79991234567#');
  });

  it('masks both the old and the new password of a password change', () => {
    expect(maskSecrets('1234P5678', ['1234', '5678'])).toBe('****P****');
  });

  it('masks a password echoed in a reply and the new password a reply confirms', () => {
    expect(maskSecrets('Password:5678 Set Success!', ['1234', '5678'])).toBe('Password:**** Set Success!');
    expect(maskSecrets('1234 Serial:001 Number:79990001234 Set Success!', ['1234'])).toBe(
      '**** Serial:001 Number:79990001234 Set Success!',
    );
  });

  it('leaves a text alone when the device has no password', () => {
    expect(maskSecrets('#60#+79991234567#', [null])).toBe('#60#+79991234567#');
  });
});
