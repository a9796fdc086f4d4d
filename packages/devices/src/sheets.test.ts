import { describe, expect, it } from 'vitest';
import { matchReply, renderCommand } from './commands.ts';
import { DEVICE_MODELS, getSheet, isDeviceModel, isValidDevicePassword } from './models.ts';
import type { PlannedCommand } from './planner.ts';

const moscow = (wall: string) => new Date(`${wall}:00+03:00`);
const window = { start: moscow('2025-03-01T08:00'), end: moscow('2025-03-01T12:30') };

describe('RTU5025 sheet', () => {
  const sheet = getSheet('RTU5025');

  it('holds 999 slots written with three digits and numbers as 7XXXXXXXXXX', () => {
    expect(sheet.slotCount).toBe(999);
    expect(sheet.formatSlot(1)).toBe('001');
    expect(sheet.formatSlot(999)).toBe('999');
    expect(sheet.formatNumber('+79161234567')).toBe('79161234567');
    expect(sheet.parseNumber('79161234567')).toBe('+79161234567');
    expect(sheet.hasPassword).toBe(true);
    expect(sheet.supportsTimeWindows).toBe(true);
  });

  it('writes the exact command texts of the manual', () => {
    expect(renderCommand('RTU5025', { kind: 'add', slot: 1, number: '+79161234567' }, '1234')).toBe(
      '1234A001#79161234567#',
    );
    expect(
      renderCommand('RTU5025', { kind: 'add_window', slot: 42, number: '+79161234567', window }, '1234'),
    ).toBe('1234A042#79161234567#2503010800#2503011230#');
    expect(renderCommand('RTU5025', { kind: 'delete', slot: 999 }, '0000')).toBe('0000A999##');
    expect(renderCommand('RTU5025', { kind: 'set_clock' }, '1234', { now: moscow('2025-12-31T23:59') })).toBe(
      '1234T2512312359#',
    );
  });

  it('writes windows and the clock in the barrier local time', () => {
    expect(
      renderCommand('RTU5025', { kind: 'add_window', slot: 1, number: '+79161234567', window }, '1234', {
        utcOffsetMinutes: 0,
      }),
    ).toBe('1234A001#79161234567#2503010500#2503010930#');
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

  it('matches the replies to the command in flight', () => {
    const add: PlannedCommand = { kind: 'add', slot: 7, number: '+79161234567' };
    expect(matchReply('RTU5025', add, 'Serial:007 Number:79161234567 Set Success!')).toBe('confirmed');
    expect(matchReply('RTU5025', add, '  serial:007  number:79161234567 set success!\n')).toBe('confirmed');
    expect(matchReply('RTU5025', add, 'Serial:008 Number:79161234567 Set Success!')).toBeNull();
    expect(matchReply('RTU5025', add, 'Serial:007 Number:79161234568 Set Success!')).toBeNull();
    expect(matchReply('RTU5025', add, 'Password Error!')).toBe('refused');
    const withWindow: PlannedCommand = { kind: 'add_window', slot: 7, number: '+79161234567', window };
    expect(
      matchReply(
        'RTU5025',
        withWindow,
        'Serial:007 Number:79161234567 Time:2503010800-2503011230 Set Success!',
      ),
    ).toBe('confirmed');
    expect(matchReply('RTU5025', withWindow, 'Serial:007 Number:79161234567 Set Success!')).toBeNull();
    expect(matchReply('RTU5025', { kind: 'delete', slot: 7 }, 'Serial:007 Delete Success!')).toBe(
      'confirmed',
    );
    expect(matchReply('RTU5025', { kind: 'set_clock' }, 'Time:2503010800 Set Success!')).toBe('confirmed');
    expect(matchReply('RTU5025', { kind: 'set_clock' }, 'Serial:007 Delete Success!')).toBeNull();
  });
});

describe('RTU5024 sheet', () => {
  it('speaks the RTU5025 language with 200 slots', () => {
    expect(getSheet('RTU5024').slotCount).toBe(200);
    expect(renderCommand('RTU5024', { kind: 'add', slot: 200, number: '+79161234567' }, '1234')).toBe(
      '1234A200#79161234567#',
    );
    expect(() => renderCommand('RTU5024', { kind: 'delete', slot: 201 }, '1234')).toThrow();
  });
});

describe('Telemetrica sheet', () => {
  const sheet = getSheet('Telemetrica');

  it('has no password and no windows', () => {
    expect(sheet.hasPassword).toBe(false);
    expect(sheet.supportsTimeWindows).toBe(false);
    expect(isValidDevicePassword('Telemetrica', null)).toBe(true);
  });

  it('writes its own command texts without a password', () => {
    expect(renderCommand('Telemetrica', { kind: 'add', slot: 5, number: '+79161234567' }, null)).toBe(
      'ADD 5 +79161234567',
    );
    expect(renderCommand('Telemetrica', { kind: 'delete', slot: 1000 }, null)).toBe('DEL 1000');
    expect(() =>
      renderCommand('Telemetrica', { kind: 'add_window', slot: 5, number: '+79161234567', window }, null),
    ).toThrow();
    expect(() => renderCommand('Telemetrica', { kind: 'set_clock' }, null, { now: new Date() })).toThrow();
  });

  it('matches its replies; it never refuses', () => {
    const add: PlannedCommand = { kind: 'add', slot: 5, number: '+79161234567' };
    expect(matchReply('Telemetrica', add, 'OK ADD 5 +79161234567')).toBe('confirmed');
    expect(matchReply('Telemetrica', add, 'OK ADD 50 +79161234567')).toBeNull();
    expect(matchReply('Telemetrica', { kind: 'delete', slot: 5 }, 'OK DEL 5')).toBe('confirmed');
    expect(matchReply('Telemetrica', add, 'Password Error!')).toBeNull();
  });
});

describe('models', () => {
  it('lists every model with a sheet of the same name', () => {
    for (const model of DEVICE_MODELS) expect(getSheet(model).model).toBe(model);
    expect(isDeviceModel('RTU5025')).toBe(true);
    expect(isDeviceModel('RTU9999')).toBe(false);
  });
});
