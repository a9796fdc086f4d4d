/**
 * Every word plain Russian (issue 32 item 5): every text of the catalogues a person can read — screen texts
 * (contracts/src/texts), error texts (contracts/src/texts/errors), the import screen's texts and the device
 * number forms — is walked for Latin words (the journeys' rule and allow-list, e2e/support/latin-text.ts: model
 * names, file formats), straight quotes (« » instead) and the spelling SMS (СМС). A device's own SMS text is
 * never in a catalogue: the device log shows it as data, marked translate="no".
 */
import { NUMBER_FORMAT_LABELS } from '@propusk/devices/numbers';
import { describe, expect, it } from 'vitest';
import { latinWords } from '../../../e2e/support/latin-text';
import * as importTexts from './features/imports/import-texts';

/** What a Russian text a person reads must not hold. */
function latinProblems(text: string): string[] {
  const problems = latinWords(text).map((word) => `Latin «${word}»`);
  if (text.includes('"')) problems.push('straight double quote');
  if (/(^|[\s(])'|'([\s.,:;!?)]|$)/.test(text)) problems.push('straight single quote');
  return problems;
}

type Module = Record<string, unknown>;

const screenTexts = import.meta.glob<Module>('../../../packages/contracts/src/texts/*.ts', { eager: true });
const errorTexts = import.meta.glob<Module>('../../../packages/contracts/src/texts/errors/*.ts', {
  eager: true,
});

/** Sample arguments for a text with parameters: numbers and Russian words, so a Latin word is the text's own. */
const SAMPLE_MATCH = Object.assign(['', '5', '7'], { index: 0, input: '' });
/** A body or a preview whose every field, however deep, reads as the number 3. */
const SAMPLE_OBJECT: unknown = new Proxy(() => {}, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => 3 : SAMPLE_OBJECT),
});

function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (typeof value === 'function') {
    const fn = value as (...args: unknown[]) => unknown;
    // Texts with parameters take numbers, names or a body/match; try the shapes they take.
    for (const args of [[3, 5], ['Шлагбаум', 'Причина'], [SAMPLE_OBJECT]]) {
      let result: unknown;
      try {
        result = fn(...args);
      } catch {
        continue;
      }
      // Arguments of the wrong shape leave 'undefined' in the text: try the next shape.
      if (typeof result === 'string' && !/undefined|NaN|\[object/.test(result)) {
        yield [`${path}()`, result];
        return;
      }
    }
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      // A field rule: [English pattern, Russian text]; only the Russian side is shown.
      if (Array.isArray(item) && item[0] instanceof RegExp) {
        const text = item[1];
        if (typeof text === 'function') yield [`${path}[${index}]()`, String(text(SAMPLE_MATCH))];
        else yield* strings(text, `${path}[${index}]`);
      } else yield* strings(item, `${path}[${index}]`);
    }
  } else if (value && typeof value === 'object' && !(value instanceof RegExp)) {
    for (const [key, item] of Object.entries(value)) {
      // An option's value is what the form sends, its label what a person reads.
      if (key === 'value') continue;
      yield* strings(item, `${path}.${key}`);
    }
  }
}

function catalogueProblems(modules: Record<string, Module>): string[] {
  const problems: string[] = [];
  for (const [file, module] of Object.entries(modules)) {
    const name = file.replace(/^.*\/src\//, '');
    // The weekday keys and other identifiers are values of no text: only exported texts and labels are read.
    for (const [exported, value] of Object.entries(module)) {
      // Values that are keys, not texts: the weekdays' names in the API, the English side of translations.
      if (exported === 'WEEKDAYS' || exported === 'SERVER_TEXT_TRANSLATIONS') continue;
      for (const [path, text] of strings(value, `${name} ${exported}`)) {
        for (const problem of latinProblems(text)) problems.push(`${path}: ${problem} in «${text}»`);
      }
    }
  }
  return problems;
}

describe('plain Russian', () => {
  it('finds the catalogues', () => {
    expect(Object.keys(screenTexts).length).toBeGreaterThan(10);
    expect(Object.keys(errorTexts).length).toBeGreaterThan(4);
  });

  it('screen texts have no Latin word, no straight quote and spell СМС in Russian', () => {
    expect(catalogueProblems(screenTexts)).toEqual([]);
  });

  it('error texts have no Latin word, no straight quote and spell СМС in Russian', () => {
    expect(catalogueProblems(errorTexts)).toEqual([]);
  });

  it('the import screen and the device number forms have no Latin word', () => {
    expect(catalogueProblems({ 'src/features/imports/import-texts.ts': importTexts })).toEqual([]);
    expect(Object.values(NUMBER_FORMAT_LABELS).flatMap(latinProblems)).toEqual([]);
  });

  it('the server texts it translates are Russian once translated', () => {
    const serverTexts = screenTexts['../../../packages/contracts/src/texts/server-texts.ts'];
    const translations = Object.values(serverTexts?.SERVER_TEXT_TRANSLATIONS ?? {}) as string[];
    expect(translations.length).toBeGreaterThan(0);
    expect(translations.flatMap(latinProblems)).toEqual([]);
  });

  it('the walk fails on what it must', () => {
    expect(latinProblems('Команда: read #17')).not.toEqual([]);
    expect(latinProblems('Set Time OK')).not.toEqual([]);
    expect(latinProblems('Исправление: 1 SMS')).not.toEqual([]);
    expect(latinProblems('Настройка "время"')).not.toEqual([]);
    expect(latinProblems('0007XXXXXXXXXX')).not.toEqual([]);
    // The spec's own mask passes (issue 41 item 1), only whole.
    expect(latinProblems('Номер телефона должен быть в формате +7XXXXXXXXXX.')).toEqual([]);
    expect(latinProblems('в формате +7XXXXXXXXX')).not.toEqual([]);
    expect(latinProblems("Настройка 'время'")).not.toEqual([]);
    expect(latinProblems('Модель RTU5025, 200 номеров, 1 СМС, «Скачать Excel»')).toEqual([]);
  });
});
