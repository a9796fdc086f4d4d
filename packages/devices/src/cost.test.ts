import { describe, expect, it } from 'vitest';
import { messageSmsParts } from './cost.ts';

describe('messageSmsParts: what a text to a person costs', () => {
  it('a Cyrillic text is UCS-2: one SMS up to 70 characters, then 67 a part', () => {
    expect(messageSmsParts('Я'.repeat(70))).toBe(1);
    expect(messageSmsParts('Я'.repeat(71))).toBe(2);
    expect(messageSmsParts('Я'.repeat(134))).toBe(2);
    expect(messageSmsParts('Я'.repeat(135))).toBe(3);
  });

  it('a Latin text is GSM 7-bit: one SMS up to 160 characters, then 153 a part', () => {
    expect(messageSmsParts('a'.repeat(160))).toBe(1);
    expect(messageSmsParts('a'.repeat(161))).toBe(2);
    expect(messageSmsParts('a'.repeat(306))).toBe(2);
    // One character outside the basic alphabet makes the whole text UCS-2.
    expect(messageSmsParts(`${'a'.repeat(100)}{`)).toBe(2);
  });

  it('an empty text is still one SMS', () => {
    expect(messageSmsParts('')).toBe(1);
  });
});
