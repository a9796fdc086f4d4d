import { describe, expect, it } from 'vitest';
import { formatNumber, NUMBER_FORMATS, parseDeviceNumber } from './numbers.ts';
import { decodeUcs2Hex, normalizeReplyText } from './reply-text.ts';

describe('numbers', () => {
  it('writes every form and reads each back', () => {
    for (const format of NUMBER_FORMATS) {
      expect(parseDeviceNumber(formatNumber('+79854500040', format)), format).toBe('+79854500040');
    }
    expect(formatNumber('+79854500040', '0007')).toBe('00079854500040');
    expect(formatNumber('+79854500040', '007')).toBe('0079854500040');
    expect(() => formatNumber('89854500040', '007')).toThrow();
  });

  it('reads what people and devices write, and nothing else', () => {
    expect(parseDeviceNumber('+7 (985) 450-00-40')).toBe('+79854500040');
    expect(parseDeviceNumber('004413500001111')).toBeNull();
    expect(parseDeviceNumber('123456')).toBeNull();
    expect(parseDeviceNumber('Empty')).toBeNull();
  });
});

describe('reply text', () => {
  it('decodes UCS-2 hex and folds what modems add', () => {
    expect(decodeUcs2Hex('003000300031003A0045006D007000740079')).toBe('001:Empty');
    expect(decodeUcs2Hex('0012')).toBe('0012');
    expect(decodeUcs2Hex('00079854500040')).toBe('00079854500040');
    expect(normalizeReplyText(' 001：Ｅｍｐｔｙ\r\n')).toBe('001:Empty');
  });
});
