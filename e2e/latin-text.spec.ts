import { expect, test } from '@playwright/test';
import { collectScreenTexts, findLatinTexts, latinWords } from './support/latin-text';

/**
 * The Latin check of every screen (support/screens.ts) must be able to fail: the scanner on its own, then what
 * it collects from a page.
 */
test('the scanner reports English words and lets the allowed ones and Russian pass', () => {
  expect(latinWords('Failed to fetch')).toEqual(['Failed', 'to', 'fetch']);
  expect(latinWords('Ошибка: Phone number is already in use.')).toEqual([
    'Phone',
    'number',
    'is',
    'already',
    'in',
    'use',
  ]);
  expect(latinWords('Id шлюза')).toEqual(['Id']);
  // A word of Cyrillic and Latin letters (a Latin 'ok' typed into a Russian word) is caught too.
  expect(latinWords('Статусok')).toEqual(['Статусok']);
  expect(latinWords('Шлагбаум успешно создан.')).toEqual([]);
  expect(latinWords('Модель устройства: RTU5025')).toEqual([]);
  expect(
    latinWords('ELDES ESIM120 — до 2000 номеров; TELL Gate Control 2.0; RTU5024/RTU5035 (команды с #TEL)'),
  ).toEqual([]);
  expect(latinWords('Gate opened')).toEqual(['Gate', 'opened']);
  expect(latinWords('Исправление: 2 СМС (сначала удаления).')).toEqual([]);
  // The spec's phone mask in its two messages (issue 41 item 1), and only the whole mask.
  expect(latinWords('Введите корректный номер телефона в формате +7XXXXXXXXXX.')).toEqual([]);
  expect(latinWords('Номер телефона должен быть в формате +7XXXXXXXXXX.')).toEqual([]);
  expect(latinWords('+7XXXXXXXXX и XXXXXXXXXX и +7XXXXXXXXXXX')).toEqual([
    '7XXXXXXXXX',
    'XXXXXXXXXX',
    '7XXXXXXXXXXX',
  ]);
  // A setting's values are Russian choices (issue 32 item 5): the device's ON/OFF only under «Текст СМС».
  expect(latinWords('ON — открытие, OFF — закрытие')).toEqual(['ON', 'OFF']);
  // No command syntax outside a labelled device text (issue 32 item 5): placeholders and templates are Latin.
  expect(latinWords('Недопустимая подстановка {pwd}. Допустимы: {slot}, {number}.')).toEqual([
    'pwd',
    'slot',
    'number',
  ]);
  expect(latinWords('{slot}:{number}')).toEqual(['slot', 'number']);
  expect(latinWords('****GOT{seconds}#')).toEqual(['GOT', 'seconds']);
  expect(latinWords('Команда: read #17')).toEqual(['read']);
  expect(latinWords('Set Time OK')).toEqual(['Set', 'Time', 'OK']);
  expect(latinWords('Ячейка slot')).toEqual(['slot']);
  // One Latin letter is no word: a slot command's letter, a stray 'x' typed in a number field.
  expect(latinWords('Ячейка A1, x')).toEqual([]);
  // An allowed word does not let the rest of an English sentence through.
  expect(latinWords('SMS sent')).toEqual(['SMS', 'sent']);
  expect(latinWords('Исправление: 1 SMS')).toEqual(['SMS']);
  expect(latinWords('0007XXXXXXXXXX')).toEqual(['0007XXXXXXXXXX']);

  expect(
    findLatinTexts([
      { where: 'text', text: 'Готово' },
      { where: 'text', text: 'Request failed' },
      { where: 'text', text: 'Request failed' },
      { where: 'placeholder', text: 'Search' },
    ]),
  ).toEqual([
    { where: 'text', text: 'Request failed', words: ['Request', 'failed'] },
    { where: 'placeholder', text: 'Search', words: ['Search'] },
  ]);
});

test('a page with an English sentence, placeholder, label or title is reported; hidden text is not', async ({
  page,
}) => {
  await page.setContent(`
    <html lang="ru"><head><title>Propusk app</title></head><body>
      <h1>Вход</h1>
      <p>Something went wrong</p>
      <input placeholder="Enter your phone" />
      <input readonly value="Administrator" />
      <button aria-label="Close">×</button>
      <img alt="Logo" src="data:," />
      <span title="Copy">⧉</span>
      <div role="dialog"><p>Are you sure?</p></div>
      <p hidden>Hidden text</p>
      <p style="display:none">Not displayed</p>
      <span data-device-text="sms">Текст СМС: <code translate="no">1234A001#</code></span>
      <span data-device-text="reply">Ответ устройства: <code translate="no">Error password</code></span>
      <span data-verbatim><span translate="no">жители.xlsx</span></span>
      <p>Команда отправлена на RTU5025 по СМС.</p>
      <p>Команда: <code translate="no">****GOT{seconds}#</code></p>
      <span data-device-text="sms">Команда: <code translate="no">1234CC</code></span>
    </body></html>`);
  const found = findLatinTexts(await page.evaluate(collectScreenTexts));
  expect(found.map(({ where, text }) => `${where.split(' ')[0]}: ${text}`)).toEqual([
    'document: Propusk app',
    'text: Something went wrong',
    'text: Are you sure?',
    // Command syntax marked translate="no" but not under «Текст СМС» / «Ответ устройства» / the spec's
    // «Команда:» label of a device text is read.
    'text: ****GOT{seconds}#',
    'placeholder: Enter your phone',
    'value: Administrator',
    'aria-label: Close',
    'alt: Logo',
    'title: Copy',
  ]);
});
