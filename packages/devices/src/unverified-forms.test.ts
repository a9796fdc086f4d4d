import { describe, expect, it } from 'vitest';
import { DEVICE_MODELS, getSheet, unverifiedForms } from './models.ts';

describe('unverifiedForms', () => {
  it('lists each form once per side, with a unique key, for every model', () => {
    for (const model of DEVICE_MODELS) {
      const forms = unverifiedForms(model);
      const keys = forms.map((form) => form.key);
      expect(new Set(keys).size, model).toBe(keys.length);
      const texts = forms.map((form) => `${form.side}\u0000${form.template}`);
      expect(new Set(texts).size, model).toBe(texts.length);
    }
  });

  it('names Telemetrica’s add and delete replies apart and lists the shared «success» once', () => {
    const sheet = getSheet('Telemetrica');
    // The sheet itself holds the same reply text for an add and a delete: the source of the old duplicate key.
    const addReplies = sheet.replies.add.map((reply) => reply.template);
    const deleteReplies = sheet.replies.delete.map((reply) => reply.template);
    expect(addReplies.filter((template) => deleteReplies.includes(template))).not.toEqual([]);
    const replies = unverifiedForms('Telemetrica').filter((form) => form.side === 'reply');
    expect(replies.map((form) => [form.what, form.template])).toEqual([
      ['Ответ на запись номера', 'success'],
      ['Ответ на удаление номера', 'Family number has been deleted'],
      // The layout of its list answer is inferred too.
      ['Ответ на чтение номеров', '{number}'],
    ]);
    // The read command and the «Список номеров» setting send the same SMS: listed once, under its first name.
    const reads = unverifiedForms('Telemetrica').filter((form) => form.template === '#06#');
    expect(reads.map((form) => form.what)).toEqual(['Чтение номеров']);
  });

  it('keeps the keys stable between calls (a list re-rendered keeps its rows)', () => {
    for (const model of DEVICE_MODELS)
      expect(unverifiedForms(model).map((form) => form.key)).toEqual(
        unverifiedForms(model).map((form) => form.key),
      );
  });

  it('tells a command to the unit from a text the unit sends', () => {
    // TELL's commands are inferred; of its replies only the list's layout is (the numbers of a list answer).
    const tell = unverifiedForms('TELL-GC20');
    expect(tell.filter((form) => form.side === 'reply').map((form) => [form.what, form.template])).toEqual([
      ['Ответ на чтение номеров', '{number}'],
    ]);
    expect(tell.filter((form) => form.side === 'sms').length).toBeGreaterThan(0);
    const rtu = unverifiedForms('RTU5025');
    expect(rtu.map((form) => form.side)).toEqual(['reply', 'reply', 'reply']);
  });
});
