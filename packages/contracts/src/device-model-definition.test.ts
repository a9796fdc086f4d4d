import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFINED_MODEL_LIMITS,
  type ModelDefinition,
  readDefinedModelFile,
  readModelDefinition,
} from './device-model-definition.ts';
import { readProfileFileShape } from './device-profile-file.ts';

const exampleText = readFileSync(
  new URL('../../../docs/devices/examples/defined-model.json', import.meta.url),
  'utf8',
);
const example = (JSON.parse(exampleText) as { definition: ModelDefinition }).definition;
const problemsOf = (change: (definition: ModelDefinition) => void): string[] => {
  const copy = structuredClone(example);
  change(copy);
  const result = readModelDefinition(copy);
  return result.ok ? [] : result.problems;
};

describe('a model an operator defines', () => {
  it('reads the documented example file', () => {
    const read = readDefinedModelFile(exampleText);
    expect(read.ok).toBe(true);
    if (read.ok) expect(read.file.definition.name).toBe('GSM-модуль (пример)');
  });

  it('refuses an unknown parameter, naming the form and what it may carry', () => {
    const problems = problemsOf((definition) => {
      definition.forms.add.template = '{pwd}#ADD#{slot}#{phone}#';
    });
    expect(problems.join(' ')).toContain('Команда записи номера: неизвестный параметр {phone}');
    expect(problems.join(' ')).toContain('{number} (номер)');
  });

  it('refuses a form without the parameter it needs', () => {
    expect(
      problemsOf((definition) => {
        definition.forms.delete.template = '{pwd}#DEL#';
      }),
    ).toContain('Команда удаления номера: нет параметра {slot} (ячейка), без него команда не сработает.');
    expect(
      problemsOf((definition) => {
        definition.forms.add.template = '#ADD#{slot}#{number}#';
      }),
    ).toContain('Команда записи номера: нет параметра {pwd} (пароль), без него команда не сработает.');
  });

  it('refuses a capacity out of range and a cell too short for it', () => {
    expect(
      problemsOf((definition) => {
        definition.capacity = 0;
      }),
    ).toEqual(['Ёмкость: от 1 номера.']);
    expect(
      problemsOf((definition) => {
        definition.capacity = 5000;
      }),
    ).toEqual([`Ёмкость: не больше ${DEFINED_MODEL_LIMITS.capacityMax} номеров.`]);
    expect(
      problemsOf((definition) => {
        definition.capacity = 1500;
      }),
    ).toEqual(['Цифр в номере ячейки: 3 мало для ёмкости 1500.']);
  });

  it('refuses control characters and over-long texts, naming the field', () => {
    expect(
      problemsOf((definition) => {
        definition.name = 'Модуль\u0007';
      }),
    ).toEqual(['Название модели: управляющие символы недопустимы.']);
    expect(
      problemsOf((definition) => {
        definition.forms.add.template = `{pwd}{slot}{number}${'x'.repeat(200)}`;
      }),
    ).toEqual(['Команда записи номера: не длиннее 160 символов.']);
  });

  it('refuses a model whose changes cannot be confirmed, and windows without the clock', () => {
    expect(
      problemsOf((definition) => {
        definition.replies.add = [];
        definition.forms.read = null;
      }),
    ).toContain(
      'Ответы на запись и удаление номера или команда чтения: нужно хотя бы одно, иначе изменения нельзя подтвердить.',
    );
    expect(
      problemsOf((definition) => {
        definition.windows = true;
      }),
    ).toEqual(
      expect.arrayContaining([
        'Команда записи номера с окном времени: нужна, если у устройства есть окна времени.',
      ]),
    );
  });

  it('refuses a reply without text or a parameter naming the command (it would take any SMS as the answer)', () => {
    expect(
      problemsOf((definition) => {
        definition.replies.refused = ['!!'];
      }),
    ).toContain(
      'Ответ на неверный пароль № 1: нужен текст или параметр ячейки или номера: иначе ответом сочтётся любое СМС.',
    );
  });

  it('refuses an unknown field and tells a version 1 file from a defined model', () => {
    expect(problemsOf((definition) => Object.assign(definition, { password_value: '1234' }))).toEqual([
      'Лишнее поле: password_value.',
    ]);
    expect(readProfileFileShape(exampleText)).toEqual({
      ok: false,
      problems: [expect.stringContaining('загрузите её на экране «Свои модели устройств»')],
    });
    const v1 = readDefinedModelFile(exampleText.replace('"version": 2', '"version": 1'));
    expect(v1).toEqual({ ok: false, problems: [expect.stringContaining('версия 1')] });
    expect(readDefinedModelFile('x'.repeat(70 * 1024))).toEqual({
      ok: false,
      problems: ['Файл слишком большой: не больше 64 КБ.'],
    });
  });
});
