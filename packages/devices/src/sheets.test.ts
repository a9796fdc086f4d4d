import { describe, expect, it } from 'vitest';
import { matchReply, renderCommand } from './commands.ts';
import { DEVICE_MODELS, getSheet, isDeviceModel, isValidDevicePassword } from './models.ts';
import type { PlannedCommand } from './planner.ts';
import type { SourcedForm } from './sheet-types.ts';

const moscow = (wall: string) => new Date(`${wall}:00+03:00`);
const window = { start: moscow('2025-03-01T08:00'), end: moscow('2025-03-01T12:30') };

/** The command texts the manuals print, as `{pwd}…` → example. */
const manualExamples = {
  // King Pigeon RTU5025 User Manual v1.5, p. 10, §6.2.0: "1234A003#123456#" and the window example.
  add: '1234A003#123456#',
  addWindow: '1234A016#123456#1502050800#1502051000#',
  // RTU5034 User Manual v1.7, p. 8, §5.2.3: "1234A002##".
  delete: '1234A002##',
  // RTU5025 manual p. 10, §6.2.2: "1234AL002#050#".
  range: '1234AL002#050#',
};

describe('RTU5025 sheet', () => {
  const sheet = getSheet('RTU5025');

  it('cites a source for every command, reply and setting form', () => {
    for (const model of DEVICE_MODELS) {
      const modelSheet = getSheet(model);
      const forms: (SourcedForm | null)[] = [
        ...Object.values(modelSheet.commands),
        ...Object.values(modelSheet.replies).flat(),
        modelSheet.readBack?.command ?? null,
        ...(modelSheet.readBack?.line ?? []),
        ...(modelSheet.readBack?.empty ?? []),
        ...(modelSheet.readBack?.emptyList ?? []),
        ...modelSheet.clockForms.flatMap((form) => [form.command, ...form.replies]),
      ];
      for (const batch of Object.values(modelSheet.batch ?? {})) {
        expect(batch.source, `${model} batch`).toMatch(/\S{10,}/);
        for (const reply of batch.replies) expect(reply.source).toMatch(/\S{10,}/);
      }
      expect(modelSheet.capacitySource, `${model} capacity`).toMatch(/\S{10,}/);
      for (const form of forms) if (form) expect(form.source, `${model} ${form.template}`).toMatch(/\S{10,}/);
      for (const [id, setting] of Object.entries(modelSheet.settings)) {
        expect(setting.source, `${model} ${id}`).toMatch(/\S{10,}/);
        for (const reply of setting.replies) expect(reply.source, `${model} ${id}`).toMatch(/\S{10,}/);
      }
      expect(modelSheet.numberFormatSource).toMatch(/\S{10,}/);
    }
  });

  it('writes the forms of the manual, with numbers as the production units took them (0007…)', () => {
    expect(sheet.slotCount).toBe(999);
    expect(renderCommand('RTU5025', { kind: 'add', slot: 3, number: '+79854500040' }, '1234')).toBe(
      // The first production deployment's example, verbatim.
      '1234A003#00079854500040#',
    );
    expect(
      renderCommand('RTU5025', { kind: 'add_window', slot: 42, number: '+79161234567', window }, '1234'),
    ).toBe('1234A042#00079161234567#2503010800#2503011230#');
    expect(renderCommand('RTU5025', { kind: 'delete', slot: 2 }, '1234')).toBe(manualExamples.delete);
    expect(renderCommand('RTU5025', { kind: 'set_clock' }, '1234', { now: moscow('2025-12-31T23:59') })).toBe(
      '1234T2512312359#',
    );
    // The manual's own shape: password, A, three-digit slot, #number#, optional #start#end#.
    const shape = /^\d{4}A\d{3}#\d+#(?:\d{10}#\d{10}#)?$/;
    expect(manualExamples.add).toMatch(shape);
    expect(manualExamples.addWindow).toMatch(shape);
    expect(renderCommand('RTU5025', { kind: 'add', slot: 3, number: '+79854500040' }, '1234')).toMatch(shape);
  });

  it('writes numbers in the form a barrier profile chooses', () => {
    const add: PlannedCommand = { kind: 'add', slot: 3, number: '+79854500040' };
    expect(renderCommand('RTU5025', add, '1234', { profile: { number_format: '007' } })).toBe(
      '1234A003#0079854500040#',
    );
    expect(renderCommand('RTU5025', add, '1234', { profile: { number_format: '+7' } })).toBe(
      '1234A003#+79854500040#',
    );
    expect(renderCommand('RTU5025', add, '1234', { profile: { number_format: '8' } })).toBe(
      '1234A003#89854500040#',
    );
  });

  it('writes windows and the clock in the barrier local time', () => {
    expect(
      renderCommand('RTU5025', { kind: 'add_window', slot: 1, number: '+79161234567', window }, '1234', {
        utcOffsetMinutes: 0,
      }),
    ).toBe('1234A001#00079161234567#2503010500#2503010930#');
  });

  it('refuses slots outside 001–999, bad numbers and passwords that do not fit', () => {
    expect(() => renderCommand('RTU5025', { kind: 'delete', slot: 1000 }, '1234')).toThrow();
    expect(() => renderCommand('RTU5025', { kind: 'delete', slot: 0 }, '1234')).toThrow();
    expect(() => renderCommand('RTU5025', { kind: 'add', slot: 1, number: '89161234567' }, '1234')).toThrow();
    expect(() => renderCommand('RTU5025', { kind: 'delete', slot: 1 }, '123')).toThrow();
    expect(() => renderCommand('RTU5025', { kind: 'delete', slot: 1 }, null)).toThrow();
    expect(() => renderCommand('RTU5025', { kind: 'set_clock' }, '1234')).toThrow();
    expect(isValidDevicePassword('RTU5025', '1234')).toBe(true);
    expect(isValidDevicePassword('RTU5025', '12a4')).toBe(false);
  });

  it('confirms an add by the production reply NNN:number, whatever form the number comes back in', () => {
    const add: PlannedCommand = { kind: 'add', slot: 3, number: '+79854500040' };
    // Production: add confirmed by /^\d{3}:\d{11}/ (the unit echoed the stored number).
    expect(matchReply('RTU5025', add, '003:00079854500040')).toBe('confirmed');
    expect(matchReply('RTU5025', add, '003:79854500040')).toBe('confirmed');
    expect(matchReply('RTU5025', add, '003:+79854500040')).toBe('confirmed');
    expect(matchReply('RTU5025', add, '003:0079854500040')).toBe('confirmed');
    expect(matchReply('RTU5025', add, '003: 89854500040')).toBe('confirmed');
    // What real modems do: case, spaces, line breaks, an echoed password or command, UCS-2 as hex.
    expect(matchReply('RTU5025', add, '  003 : 0007 985 450 0040 \r\n')).toBe('confirmed');
    expect(matchReply('RTU5025', add, '1234\n003:00079854500040')).toBe('confirmed');
    expect(matchReply('RTU5025', add, '1234A003#00079854500040#\n003:00079854500040')).toBe('confirmed');
    const ucs2 = [...'003:00079854500040'].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
    expect(matchReply('RTU5025', add, ucs2.toUpperCase())).toBe('confirmed');
    expect(matchReply('RTU5025', add, '００３：００７９８５４５０００４０')).toBe('confirmed');
    // Another slot or another number is not this command's reply.
    expect(matchReply('RTU5025', add, '004:00079854500040')).toBeNull();
    expect(matchReply('RTU5025', add, '003:00079854500041')).toBeNull();
    expect(matchReply('RTU5025', add, '1003:00079854500040')).toBeNull();
    expect(matchReply('RTU5025', add, '003:Empty')).toBeNull();
  });

  it('confirms a delete by NNN:Empty (production; the RTU5024 manual prints "002: Empty")', () => {
    const remove: PlannedCommand = { kind: 'delete', slot: 2 };
    expect(matchReply('RTU5025', remove, '002:Empty')).toBe('confirmed');
    expect(matchReply('RTU5025', remove, '002: Empty')).toBe('confirmed');
    expect(matchReply('RTU5025', remove, '002:EMPTY')).toBe('confirmed');
    expect(matchReply('RTU5025', remove, '003:Empty')).toBeNull();
    expect(matchReply('RTU5025', remove, '002:00079854500040')).toBeNull();
  });

  it('confirms a windowed add by its slot and number, and the clock by "Set Time OK!"', () => {
    const withWindow: PlannedCommand = { kind: 'add_window', slot: 7, number: '+79161234567', window };
    expect(matchReply('RTU5025', withWindow, '007:00079161234567')).toBe('confirmed');
    expect(matchReply('RTU5025', withWindow, '007:00079161234567 2503010800-2503011230')).toBe('confirmed');
    // gate-opener.app "Sync clock" response.
    expect(matchReply('RTU5025', { kind: 'set_clock' }, 'Set Time OK!')).toBe('confirmed');
    expect(matchReply('RTU5025', { kind: 'set_clock' }, '007:Empty')).toBeNull();
  });

  it('tells a wrong password and a command it did not understand from a confirmation', () => {
    const add: PlannedCommand = { kind: 'add', slot: 7, number: '+79161234567' };
    // gate-opener.app: the module answered "Error password".
    expect(matchReply('RTU5025', add, 'Error password')).toBe('refused');
    expect(matchReply('RTU5025', add, 'ERROR PASSWORD!')).toBe('refused');
    // RTU5023 manual p. 8, note 7; RTU5024 hash-style manual p. 7, note 11.
    expect(matchReply('RTU5025', add, 'SMS Format Error, Please check Caps Lock in Command!')).toBe(
      'format_error',
    );
    expect(matchReply('RTU5025', add, 'Command error, please resend command')).toBe('format_error');
    expect(matchReply('RTU5025', add, 'Relay ON')).toBeNull();
  });

  it('accepts the reply forms a barrier profile adds, before the documented ones', () => {
    const add: PlannedCommand = { kind: 'add', slot: 7, number: '+79161234567' };
    const profile = { replies: { add: ['Serial:{slot} Number:{number} Set Success!'] } };
    expect(matchReply('RTU5025', add, 'Serial:007 Number:79161234567 Set Success!')).toBeNull();
    expect(matchReply('RTU5025', add, 'Serial:007 Number:79161234567 Set Success!', { profile })).toBe(
      'confirmed',
    );
    expect(matchReply('RTU5025', add, 'Serial:008 Number:79161234567 Set Success!', { profile })).toBeNull();
    expect(matchReply('RTU5025', add, '007:00079161234567', { profile })).toBe('confirmed');
  });
});

describe('RTU5024 sheet', () => {
  it('speaks the RTU5025 language with 200 slots', () => {
    expect(getSheet('RTU5024').slotCount).toBe(200);
    expect(renderCommand('RTU5024', { kind: 'add', slot: 200, number: '+79161234567' }, '1234')).toBe(
      '1234A200#00079161234567#',
    );
    expect(() => renderCommand('RTU5024', { kind: 'delete', slot: 201 }, '1234')).toThrow();
  });
});

describe('Telemetrica sheet', () => {
  const sheet = getSheet('Telemetrica');

  it('has no password, no windows and no positions', () => {
    expect(sheet.hasPassword).toBe(false);
    expect(sheet.supportsTimeWindows).toBe(false);
    expect(sheet.addressing).toBe('number');
    expect(isValidDevicePassword('Telemetrica', null)).toBe(true);
  });

  it('adds with #06#number# and deletes with #15#number# (T80 command list; production)', () => {
    expect(renderCommand('Telemetrica', { kind: 'add', slot: 5, number: '+79854500040' }, null)).toBe(
      '#06#+79854500040#',
    );
    expect(renderCommand('Telemetrica', { kind: 'delete', slot: 5, number: '+79854500040' }, null)).toBe(
      '#15#+79854500040#',
    );
    expect(() => renderCommand('Telemetrica', { kind: 'delete', slot: 5 }, null)).toThrow();
    expect(() =>
      renderCommand('Telemetrica', { kind: 'add_window', slot: 5, number: '+79161234567', window }, null),
    ).toThrow();
    expect(() => renderCommand('Telemetrica', { kind: 'set_clock' }, null, { now: new Date() })).toThrow();
  });

  it('confirms by "success" in the reply, as production did; it never refuses', () => {
    const add: PlannedCommand = { kind: 'add', slot: 5, number: '+79161234567' };
    expect(matchReply('Telemetrica', add, 'Success')).toBe('confirmed');
    expect(matchReply('Telemetrica', add, '+79161234567 add success')).toBe('confirmed');
    expect(matchReply('Telemetrica', add, 'fail')).toBeNull();
    expect(matchReply('Telemetrica', add, 'Error password')).toBeNull();
  });
});

describe('models', () => {
  it('lists every model with a sheet of the same name', () => {
    for (const model of DEVICE_MODELS) expect(getSheet(model).model).toBe(model);
    expect(isDeviceModel('RTU5025')).toBe(true);
    expect(isDeviceModel('RTU9999')).toBe(false);
  });
});
