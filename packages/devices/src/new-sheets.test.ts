import { describe, expect, it } from 'vitest';
import { matchReply, renderCommand } from './commands.ts';
import { DEVICE_MODEL_OPTIONS, getSheet, isAvailableDeviceModel, unverifiedForms } from './models.ts';
import { applyConfirmed, markSent, planCommands } from './planner.ts';
import { validateProfileOverride } from './profile.ts';
import { confirmationQuery, parseReadReply, readingConfirms, renderReadQuery } from './readback.ts';
import { createDeviceSimulator } from './simulator.ts';
import { countWeeklySms } from './weekly-sms.ts';

const now = new Date('2026-03-02T09:00:00Z');
const numbers = Array.from({ length: 12 }, (_, index) => `+7916000${String(index).padStart(4, '0')}`);
const desired = numbers.map((number, index) => ({ slot: index + 1, number }));

describe('clock form as a profile field (issue 30, item 6)', () => {
  it('writes yyMMddHHmm# by default and ddMMyyHHmm without # when the profile says so', () => {
    const at = new Date('2026-03-29T12:30:00Z'); // 15:30 Moscow
    expect(renderCommand('RTU5025', { kind: 'set_clock' }, '1234', { now: at })).toBe('1234T2603291530#');
    const checked = validateProfileOverride('RTU5025', { clock_order: 'ddMMyyHHmm' });
    expect(checked.ok).toBe(true);
    const profile = checked.ok ? checked.value : null;
    expect(renderCommand('RTU5025', { kind: 'set_clock' }, '1234', { now: at, profile })).toBe(
      '1234T2903261530',
    );
    // A simulated unit of that firmware reads the day first and shows the right time.
    const unit = createDeviceSimulator({ model: 'RTU5025', password: '1234', profile });
    expect(unit.receive('1234T2903261530', at)).toBe('Set Time OK');
    expect(unit.clockReading(at)).toBe('2603291530');
  });

  it('refuses an order the model does not document, and a clock on a model without one', () => {
    expect(validateProfileOverride('RTU5025', { clock_order: 'MMddyyHHmm' }).ok).toBe(false);
    expect(validateProfileOverride('Telemetrica', { clock_order: 'yyMMddHHmm' }).ok).toBe(false);
  });
});

describe('Telemetrica corrected (issue 30, item 7)', () => {
  const sheet = getSheet('Telemetrica');
  it('holds a few numbers, not 1,000', () => {
    expect(sheet.capacity).toBeLessThanOrEqual(5);
  });
  it('a delete answered "Family number has been deleted." is confirmed', () => {
    const command = { kind: 'delete' as const, slot: 1, number: '+79160000001' };
    expect(matchReply('Telemetrica', command, 'Family number has been deleted.')).toBe('confirmed');
  });
  it('marks every form it could not verify', () => {
    expect(sheet.commands.add.unverified).toBe(true);
    expect(sheet.commands.delete.unverified).toBe(true);
    expect(sheet.settings.query_list?.unverified).toBe(true);
  });
});

describe('new models (issue 30, item 8)', () => {
  it('renders each documented form', () => {
    const add = { kind: 'add' as const, slot: 4, number: '+79161234567' };
    const del = { kind: 'delete' as const, slot: 4, number: '+79161234567' };
    expect(renderCommand('RTU5024-HASH', add, '1234')).toBe('1234#TEL0079161234567#004#');
    expect(renderCommand('RTU5024-HASH', { kind: 'delete', slot: 4 }, '1234')).toBe('1234#TEL#004#');
    expect(renderReadQuery('RTU5024-HASH', { kind: 'slot', slot: 4 }, '1234')).toBe('1234#TEL004?');
    expect(renderCommand('G200', add, '1234')).toBe('1234A004#00079161234567#');
    expect(renderCommand('ESIM120', add, '1234')).toBe('1234_N:79161234567');
    expect(renderCommand('ESIM320', del, '1234')).toBe('1234_D:79161234567');
    expect(renderCommand('TELL-GC20', add, '1111')).toBe('PWD=1111#TEL=+79161234567#');
    expect(renderCommand('TELL-GC20', del, '1111')).toBe('PWD=1111#DEL=+79161234567#');
    expect(renderReadQuery('TELL-GC20', { kind: 'list' }, '1111')).toBe('PWD=1111#TEL?#');
  });

  it('matches the documented replies and errors', () => {
    const add = { kind: 'add' as const, slot: 1, number: '+79161234567' };
    const del = { kind: 'delete' as const, slot: 1, number: '+79161234567' };
    expect(matchReply('TELL-GC20', add, '1 user(s) added')).toBe('confirmed');
    expect(matchReply('TELL-GC20', del, 'User removed')).toBe('confirmed');
    expect(matchReply('TELL-GC20', del, 'User not found to delete')).toBe('confirmed');
    expect(matchReply('TELL-GC20', add, 'Wrong password')).toBe('refused');
    expect(matchReply('TELL-GC20', add, 'CMD error')).toBe('format_error');
    expect(matchReply('TELL-GC20', add, 'User removed')).toBeNull();
    // No reply is documented: no text confirms a hash-style add, reading the slot back does.
    expect(matchReply('RTU5024-HASH', add, '001:0079161234567')).toBeNull();
    const query = confirmationQuery('RTU5024-HASH', add);
    expect(query).toEqual({ kind: 'slot', slot: 1 });
    expect(readingConfirms(add, parseReadReply('RTU5024-HASH', query!, '001:0079161234567'))).toBe(true);
    expect(readingConfirms(add, parseReadReply('RTU5024-HASH', query!, '001: Empty'))).toBe(false);
    expect(parseReadReply('TELL-GC20', { kind: 'list' }, 'Empty phonebook')).toEqual({
      outcome: 'read_list',
      numbers: [],
    });
  });

  it('G200 takes a relay time up to 900 s only', () => {
    const seconds = getSheet('G200').settings.relay_time!.params[0]!;
    expect(seconds.check?.('900')).toBeNull();
    expect(seconds.check?.('901')).toMatch(/900/);
  });

  it('G200 marks every reply unverified (its manual prints none) and still confirms by the RTU5025 replies', () => {
    const whats = unverifiedForms('G200').map((form) => form.what);
    expect(whats).toEqual(expect.arrayContaining(['Ответ на запись номера', 'Ответ на удаление номера']));
    expect(unverifiedForms('RTU5025').map((form) => form.what)).not.toContain('Ответ на запись номера');
    const add = { kind: 'add' as const, slot: 4, number: '+79161234567' };
    expect(matchReply('G200', add, '004:00079161234567')).toBe('confirmed');
  });
});

describe('several numbers in one SMS (ELDES, TELL, Telemetrica)', () => {
  const empty = { entries: [], clockSetAt: null };

  it('ELDES: 12 adds are 2 SMS of at most 9 numbers, within 160 characters', () => {
    const plan = planCommands({ model: 'ESIM120', desired, believed: empty, now, batch: true });
    expect(plan.map((command) => command.entries?.length ?? 1)).toEqual([9, 3]);
    const texts = plan.map((command) => renderCommand('ESIM120', command, '1234'));
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(160);
    expect(texts[1]).toBe('1234_N:79160000009:_79160000010:_79160000011:');
  });

  it('TELL: adds fill one SMS up to 160 characters; the reply counts them', () => {
    const plan = planCommands({ model: 'TELL-GC20', desired, believed: empty, now, batch: true });
    const texts = plan.map((command) => renderCommand('TELL-GC20', command, '1111'));
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(160);
    expect(plan.reduce((sum, command) => sum + (command.entries?.length ?? 1), 0)).toBe(12);
    expect(plan).toHaveLength(2);
    expect(matchReply('TELL-GC20', plan[0]!, `${plan[0]!.entries!.length} user(s) added`)).toBe('confirmed');
    expect(matchReply('TELL-GC20', plan[0]!, '1 user(s) added')).toBeNull();
  });

  it('without batching (the engine default) one number is one SMS', () => {
    expect(planCommands({ model: 'TELL-GC20', desired, believed: empty, now })).toHaveLength(12);
  });

  it('the simulator plays a batch, and the planner converges in the SMS it counted', () => {
    for (const model of ['ESIM120', 'TELL-GC20', 'Telemetrica'] as const) {
      const unit = createDeviceSimulator({ model, password: '1234' });
      let believed = { entries: [], clockSetAt: null } as Parameters<typeof markSent>[0];
      const plan = planCommands({ model, desired, believed, now, batch: true });
      for (const command of plan) {
        believed = markSent(believed, command);
        const reply = unit.receive(renderCommand(model, command, '1234'), now);
        if (getSheet(model).confirmation === 'reply')
          expect(matchReply(model, command, reply ?? ''), model).toBe('confirmed');
        believed = applyConfirmed(believed, command, now, 'number');
      }
      expect(
        unit
          .whitelist(now)
          .map((entry) => entry.number)
          .sort(),
        model,
      ).toEqual([...numbers].sort());
      expect(planCommands({ model, desired, believed, now, batch: true }), model).toEqual([]);
    }
  });

  it('weekly SMS counts are exact for batches', () => {
    const phones = numbers.slice(0, 10).map((number, index) => ({
      slot: index + 1,
      number,
      kind: 'schedule' as const,
      schedule: { monday: [{ start_time: '08:00', end_time: '10:00' }] },
    }));
    const weekStart = new Date('2026-03-01T21:00:00Z');
    // Ten phones opening and closing together: one add SMS (TELL holds 8 numbers in 160 characters: two)
    // and ten deletes (deletes are one number an SMS; on TELL each with the list read that confirms it).
    const tell = countWeeklySms('TELL-GC20', phones, weekStart, 180, { batch: true });
    expect(tell.total).toBe(2 + 2 * 10);
    const eldes = countWeeklySms('ESIM120', phones, weekStart, 180, { batch: true });
    expect(eldes.total).toBe(2 + 10);
    expect(countWeeklySms('ESIM120', phones, weekStart, 180).total).toBe(20);
  });
});

describe('the model list (issue 32, item 7)', () => {
  it('has every sheet, with its capacity and password hint', () => {
    for (const option of DEVICE_MODEL_OPTIONS) {
      const sheet = getSheet(option.model);
      expect(option.capacity).toBe(sheet.capacity);
      expect(option.passwordHint).toBe(sheet.passwordHint);
      expect(option.available).toBe(isAvailableDeviceModel(option.model));
    }
    expect(isAvailableDeviceModel('ESIM120')).toBe(false);
    // Confirmed by reading the changed slot back (the engine's read-back confirmation).
    expect(isAvailableDeviceModel('RTU5024-HASH')).toBe(true);
    expect(isAvailableDeviceModel('TELL-GC20')).toBe(true);
  });
});
