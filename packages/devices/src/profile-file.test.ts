import { readProfileFileShape } from '@propusk/contracts/device-profile-file';
import { describe, expect, it } from 'vitest';
import { DEVICE_MODELS, type DeviceModel, getSheet } from './models.ts';
import { overrideFromFile, profileFile } from './profile-file.ts';

const at = new Date('2026-11-28T12:00:00Z');
const learnt = { replies: { add: ['User {slot} added: {number}'] }, number_format: '+7' as const };

/** Writes a file as an operator would download it, and reads it back as the server does. */
function roundTrip(text: string, model: DeviceModel = 'RTU5025') {
  const shape = readProfileFileShape(text);
  if (!shape.ok) return shape;
  return overrideFromFile(shape.file, model);
}

const exported = () =>
  profileFile({
    model: 'RTU5025',
    override: learnt,
    source: { kind: 'barrier', note: 'Шлагбаум 1' },
    exportedAt: at,
  });

describe('device profile file', () => {
  it('every built-in sheet exports and reads back as itself (no profile)', () => {
    for (const model of DEVICE_MODELS) {
      const file = profileFile({ model, source: { kind: 'sheet', note: 'Лист модели' }, exportedAt: at });
      const shape = readProfileFileShape(JSON.stringify(file));
      expect(shape.ok, model).toBe(true);
      if (shape.ok) expect(overrideFromFile(shape.file, model)).toEqual({ ok: true, model, override: null });
    }
  });

  it('a learnt profile reads back equal, the learnt text marked and first', () => {
    const file = exported();
    expect(file.replies.add[0]).toEqual({
      template: 'User {slot} added: {number}',
      source: expect.any(String),
      learnt: true,
    });
    expect(file.replies.add[1]?.learnt).toBeUndefined();
    expect(file.number_format).toBe('+7');
    expect(roundTrip(JSON.stringify(file))).toEqual({ ok: true, model: 'RTU5025', override: learnt });
  });

  it('carries the power texts a run captured, and a model that sends none refuses them', () => {
    const alarms = { power_failure: ['AC Power Off!'], power_restored: ['AC Power Resume!'] };
    const file = profileFile({
      model: 'RTU5025',
      override: { ...learnt, alarms },
      source: { kind: 'barrier', note: 'Шлагбаум 1' },
      exportedAt: at,
    });
    expect(file.alarms).toEqual(alarms);
    expect(roundTrip(JSON.stringify(file))).toEqual({
      ok: true,
      model: 'RTU5025',
      override: { ...learnt, alarms },
    });
    // A sheet's own file has none, and reads as before.
    expect(exported().alarms).toBeUndefined();
    const withoutAlarms = DEVICE_MODELS.find((model) => !getSheet(model).alarms);
    if (!withoutAlarms) throw new Error('every model documents power SMS');
    const foreign = {
      ...profileFile({ model: withoutAlarms, source: { kind: 'sheet', note: 'Лист' }, exportedAt: at }),
      alarms,
    };
    const refused = roundTrip(JSON.stringify(foreign), withoutAlarms);
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.problems.join(' ')).toMatch(/Тексты о питании: Эта модель не присылает СМС о питании/);
  });

  it('carries no password: commands keep {pwd}', () => {
    const text = JSON.stringify(exported());
    expect(text).toContain('{pwd}');
    expect(text).not.toMatch(/"1234/);
  });

  it('refuses a file that is too large before parsing it', () => {
    const result = readProfileFileShape(`{"pad":"${'x'.repeat(70 * 1024)}"}`);
    expect(result).toEqual({ ok: false, problems: ['Файл профиля слишком большой: не больше 64 КБ.'] });
  });

  it('refuses not-JSON, another format and an unknown version, in Russian', () => {
    expect(readProfileFileShape('{')).toEqual({ ok: false, problems: ['Файл профиля — не JSON.'] });
    expect(readProfileFileShape('{"format":"other"}')).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('не файл профиля')],
    });
    const newer = { ...exported(), version: 2 };
    expect(readProfileFileShape(JSON.stringify(newer))).toEqual({
      ok: false,
      problems: ['Неизвестная версия файла профиля: 2. Этот сервер читает версию 1.'],
    });
  });

  it('refuses an unknown model and a profile of another model', () => {
    const unknown = { ...exported(), model: 'DoorHan-GSM' };
    expect(roundTrip(JSON.stringify(unknown))).toEqual({
      ok: false,
      problems: ['Неизвестная модель устройства: «DoorHan-GSM».'],
    });
    const g200 = profileFile({ model: 'G200', source: { kind: 'sheet', note: '' }, exportedAt: at });
    expect(roundTrip(JSON.stringify(g200))).toMatchObject({
      ok: false,
      problems: ['Профиль снят с модели G200, а устройство шлагбаума — RTU5025.'],
    });
  });

  it('refuses a learnt form with a parameter its command does not have', () => {
    const file = exported();
    file.replies.add[0] = { template: 'User {slot} added at {time}', source: 'x', learnt: true };
    const result = roundTrip(JSON.stringify(file));
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) {
      expect(result.problems[0]).toContain('Ответ «запись номера», форма 1');
      expect(result.problems[0]).toContain('Недопустимая подстановка: «время»');
    }
  });

  it('refuses an unmarked reply the sheet lacks, a changed command and an unknown field', () => {
    const unmarked = exported();
    unmarked.replies.delete.push({ template: 'Deleted!', source: 'x' });
    expect(roundTrip(JSON.stringify(unmarked))).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('«Deleted!» не из листа модели RTU5025')],
    });
    const changed = exported();
    changed.forms.add = { template: '{pwd}X{slot}#{number}#', source: 'x' };
    expect(roundTrip(JSON.stringify(changed))).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('Команда «запись номера» отличается')],
    });
    const extra = { ...exported(), password: '1234' };
    expect(readProfileFileShape(JSON.stringify(extra))).toMatchObject({ ok: false });
  });
});
