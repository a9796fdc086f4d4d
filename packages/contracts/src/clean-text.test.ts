import { describe, expect, it } from 'vitest';
import {
  CLEAN_TEXT_MESSAGE,
  cleanForDisplay,
  cleanForSms,
  containsLink,
  humanMultilineTextSchema,
  humanTextSchema,
  isCleanText,
} from './clean-text.ts';

describe('the clean-text rule (issue 29 part 6)', () => {
  it.each([
    'ул. Ленина, д. 5/2, кв. 12',
    'г.Москва, ул.Ленина, д.5',
    'Иванов Иван Иванович',
    'Мария-Луиза О’Коннор',
    'ЖК «Северный», корпус №3 (въезд со двора)',
    'пос. Заречный; участок #14: ворота — слева',
    'Ёлкина Алёна',
    'Renée Müller',
    'Няня: пн–пт',
    'Гость!',
    'кв. 12, 01.12.2026',
    'Шарафутдинов Әлфия',
  ])('accepts «%s»', (text) => {
    expect(isCleanText(text)).toBe(true);
  });

  it.each([
    ['a right-to-left override', 'Иван\u202eвонави'],
    ['a bidi isolate', 'Иван\u2066Петров\u2069'],
    ['a zero-width space', 'Иван\u200bПетров'],
    ['a zero-width joiner', 'Иван\u200dПетров'],
    ['a left-to-right mark', 'Иван\u200eПетров'],
    ['a byte-order mark', '\ufeffИван'],
    ['an emoji', 'Иван 😀'],
    ['a flag', 'Иван 🇷🇺'],
    ['an https link', 'Сбербанк: войдите на https://sber-bank.online/login'],
    ['a scheme without a domain list', 'tg://resolve?domain=x'],
    ['www', 'www.example'],
    ['a domain', 'пишите на evil.ru'],
    ['a domain with a path', 't.me/joinchat'],
    ['a Cyrillic domain', 'сбербанк.рф'],
    ['a spaced domain', 'sber . ru'],
    ['punycode', 'xn--80abvxkh.xn--p1ai'],
    ['an IP address', 'зайдите 10.0.0.1/login'],
    ['mail signs', 'ivan@mail'],
    ['markup', '<b>Иван</b>'],
    ['fullwidth letters', 'ｓｂｅｒ'],
    ['mathematical letters', '𝐒𝐛𝐞𝐫'],
    ['stacked combining marks', 'И\u0301\u0301\u0301ван'],
    ['Greek', 'Ιβαν'],
  ])('refuses %s', (_what, text) => {
    expect(isCleanText(text)).toBe(false);
  });

  const bounds = { max: { length: 40, error: 'too long' }, min: { length: 1, error: 'required' } };

  it('collapses and trims spaces of every kind before the check, in one-line fields', () => {
    const result = humanTextSchema(bounds).safeParse('  Иван \u00a0\t Петров\n ');
    expect(result).toEqual({ success: true, data: 'Иван Петров' });
  });

  it('gives one message for text that breaks the rule', () => {
    const result = humanTextSchema(bounds).safeParse('https://example.ru/path');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([CLEAN_TEXT_MESSAGE]);
  });

  it('checks the length first: a long value gets the length message only, and the rule never reads it', () => {
    // Issue 40 item 1: the rule ran before the length, and a long run of letters took minutes.
    for (const value of [
      'https://very-long.example.ru/path/and/more',
      'а'.repeat(100_000),
      'ab-'.repeat(33_334),
    ]) {
      const started = performance.now();
      const result = humanTextSchema(bounds).safeParse(value);
      // Microseconds when the length is checked first, minutes when the rule reads it: a second leaves room for a
      // busy host's pauses.
      expect(performance.now() - started).toBeLessThan(1000);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual(['too long']);
    }
    expect(
      humanTextSchema(bounds)
        .safeParse('   ')
        .error?.issues.map((issue) => issue.message),
    ).toEqual(['required']);
  });

  it('keeps line breaks in multi-line text, at most one empty line in a row', () => {
    const result = humanMultilineTextSchema(bounds).safeParse(
      ' Въезд со двора.  \r\n\r\n\r\n\r\n  Код  1234 ',
    );
    expect(result).toEqual({ success: true, data: 'Въезд со двора.\n\nКод 1234' });
    expect(humanMultilineTextSchema(bounds).safeParse('Въезд\n\u202eсо двора').success).toBe(false);
  });

  it('shows stored text without what breaks the rule', () => {
    expect(cleanForDisplay('Иван\u202e\u2066 Петров\u200b 😀')).toBe('Иван Петров');
  });

  it('finds links the rule refuses', () => {
    expect(containsLink('ул.Ленина')).toBe(false);
    expect(containsLink('https://x')).toBe(true);
  });
});

describe('the address of an SMS', () => {
  const attack =
    'ул. Ленина, 1. Сбербанк: ваш счёт заблокирован, срочно войдите на https://sberbank-online.ru/login \u202eи подтвердите';

  it('drops links and bidi characters and cuts at a word boundary with «…»', () => {
    const text = cleanForSms(attack, 60);
    expect(text.length).toBeLessThanOrEqual(60);
    expect(text.endsWith('…')).toBe(true);
    expect(text).toBe('ул. Ленина, 1. Сбербанк: ваш счёт заблокирован, срочно…');
    expect(text).not.toMatch(/https|sberbank|\u202e/);
  });

  it('keeps a short clean address as it is', () => {
    expect(cleanForSms('ул. Ленина, д. 5', 60)).toBe('ул. Ленина, д. 5');
  });

  it('drops a link split by spaces', () => {
    expect(cleanForSms('ул. Мира 3 sber . ru', 60)).toBe('ул. Мира 3 sber');
  });

  it('cuts one long word without spaces', () => {
    expect(cleanForSms('а'.repeat(100), 60)).toBe(`${'а'.repeat(59)}…`);
  });
});
