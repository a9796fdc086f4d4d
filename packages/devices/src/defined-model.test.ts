import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchReply, renderCommand } from './commands.ts';
import { planConformance } from './conformance.ts';
import { smsTextFits } from './cost.ts';
import {
  definitionSmsProblems,
  installDefinedModels,
  type ModelDefinition,
  previewDefinition,
} from './defined-model.ts';
import { definedModelKey, getSheet, isDeviceModel } from './models.ts';
import { createDeviceSimulator } from './simulator.ts';

const example = (
  JSON.parse(
    readFileSync(new URL('../../../docs/devices/examples/defined-model.json', import.meta.url), 'utf8'),
  ) as {
    definition: ModelDefinition;
  }
).definition;
const now = new Date('2026-11-28T09:00:00Z');

describe('a defined model as a sheet', () => {
  it('is a device model once the server gave it, and renders its forms as the engine sends them', () => {
    const model = definedModelKey(7);
    expect(isDeviceModel(model)).toBe(false);
    installDefinedModels([{ id: 7, definition: example }]);
    expect(isDeviceModel(model)).toBe(true);
    expect(getSheet(model).label).toBe('GSM-модуль (пример)');
    const add = { kind: 'add' as const, slot: 5, number: '+79161234567' };
    expect(renderCommand(model, add, '1234')).toBe('1234#ADD#005#+79161234567#');
    expect(matchReply(model, add, 'Add OK 005')).toBe('confirmed');
    expect(matchReply(model, add, 'Wrong password')).toBe('refused');
  });

  it('is played by the simulator, which keeps what the forms wrote', () => {
    installDefinedModels([{ id: 7, definition: example }]);
    const device = createDeviceSimulator({ model: definedModelKey(7), password: '1234', clock: now });
    expect(device.receive('1234#ADD#005#+79161234567#', now)).toBe('Add OK 005');
    expect(device.whitelist(now)).toEqual([{ slot: 5, number: '+79161234567' }]);
    expect(device.receive('1234#READ#005#', now)).toBe('005:+79161234567');
    expect(device.receive('1111#DEL#005#', now)).toBe('Wrong password');
    expect(device.receive('1234#DEL#005#', now)).toBe('Del OK 005');
    expect(device.whitelist(now)).toEqual([]);
  });

  it('plans a conformance run from its forms', () => {
    installDefinedModels([{ id: 7, definition: example }]);
    const plan = planConformance({
      model: definedModelKey(7),
      slot: 200,
      testNumber: '+79160000001',
      now,
      includePassword: false,
    });
    expect(plan.steps.map((step) => step.key)).toEqual([
      'read_before',
      'add',
      'read_added',
      'delete',
      'read_after',
    ]);
  });

  it('previews each form with sample values and refuses a command longer than one SMS', () => {
    expect(previewDefinition(example)[0]).toEqual({
      label: 'Запись номера',
      text: '1234#ADD#005#+79161234567#',
      units: 26,
      limit: 160,
      fits: true,
    });
    expect(definitionSmsProblems(example)).toEqual([]);
    const cyrillic = structuredClone(example);
    cyrillic.forms.add.template = `{pwd}ДОБАВИТЬ НОМЕР В ЯЧЕЙКУ {slot} НОМЕР {number} ${'Ж'.repeat(20)}`;
    expect(definitionSmsProblems(cyrillic)).toEqual([
      expect.stringContaining('Запись номера: команда длиннее одной СМС (71 из 70 знаков'),
    ]);
  });

  it('counts an SMS as the GSM 7-bit alphabet does (160, an extension character 2) or UCS-2 (70)', () => {
    expect(smsTextFits('a'.repeat(160))).toEqual({ units: 160, limit: 160, fits: true });
    expect(smsTextFits(`${'a'.repeat(159)}{`)).toEqual({ units: 161, limit: 160, fits: false });
    expect(smsTextFits('Ж'.repeat(71))).toEqual({ units: 71, limit: 70, fits: false });
  });
});
