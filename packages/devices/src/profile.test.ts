import { describe, expect, it } from 'vitest';
import { getSheet } from './models.ts';
import { resolveSheet, validateProfileOverride } from './profile.ts';

describe('device profile overrides', () => {
  it('accepts a number form and extra reply forms with the placeholders of their command', () => {
    const checked = validateProfileOverride('RTU5025', {
      number_format: '007',
      replies: { add: ['  Serial:{slot} Number:{number} Set Success!  '], refused: ['Password Error'] },
    });
    expect(checked).toEqual({
      ok: true,
      value: {
        number_format: '007',
        replies: { add: ['Serial:{slot} Number:{number} Set Success!'], refused: ['Password Error'] },
      },
    });
    const sheet = resolveSheet('RTU5025', checked.ok ? checked.value : null);
    expect(sheet.numberFormat).toBe('007');
    expect(sheet.replies.add.map((form) => form.template)).toEqual([
      'Serial:{slot} Number:{number} Set Success!',
      '{slot}:{number}',
    ]);
    expect(resolveSheet('RTU5025', {})).toBe(getSheet('RTU5025'));
  });

  it('refuses what cannot be right, in Russian, field by field', () => {
    const checked = validateProfileOverride('RTU5025', {
      number_format: '9',
      replies: { add: ['{pwd} ok', '', 'x'.repeat(161), '{slot}'], open: ['Relay ON'], delete: 'Empty' },
      colour: 'red',
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors).toEqual({
      number_format: 'Неизвестный формат номера.',
      'replies.add.0': 'Недопустимая подстановка: «пароль». Допустимы: «ячейка», «номер».',
      'replies.add.1': 'Форма ответа не может быть пустой.',
      'replies.add.2': 'Форма ответа — не длиннее 160 символов.',
      'replies.open': 'Неизвестный вид команды.',
      'replies.delete': 'Укажите от 0 до 5 форм ответа.',
      colour: 'Неизвестное поле профиля.',
    });
    expect(validateProfileOverride('Telemetrica', { replies: { set_clock: ['ok'] } })).toEqual({
      ok: false,
      errors: { 'replies.set_clock': 'У этой модели нет таких команд.' },
    });
    expect(validateProfileOverride('RTU5025', 'x')).toMatchObject({ ok: false });
  });
});
