import { describe, expect, it } from 'vitest';
import { matchReply, renderCommand } from './commands.ts';
import { conformanceVerdict, planConformance, renderConformanceWhitelist } from './conformance.ts';
import { modelEvidence } from './model-evidence.ts';
import { renderModelsDoc } from './model-evidence-doc.ts';
import { type DeviceModel, getSheet, isAvailableDeviceModel, unverifiedForms } from './models.ts';
import { parseReadReply, renderReadQuery } from './readback.ts';
import { renderSetting } from './settings.ts';
import { createDeviceSimulator } from './simulator.ts';

const NOW = new Date('2026-11-28T12:00:00Z');
const NUMBER = '+79161234567';
const add = { kind: 'add' as const, slot: 5, number: NUMBER };
const del = { kind: 'delete' as const, slot: 5, number: NUMBER };

describe('Callny G202 PLUS / G203 (issue 42 item 7)', () => {
  it('renders the hash-style add, delete and slot query with slots 001–999', () => {
    expect(renderCommand('CALLNY-G202', add, '1234')).toBe('1234#TEL+79161234567#005#');
    expect(renderCommand('CALLNY-G203', add, '1234')).toBe('1234#NORTEL+79161234567#005#');
    expect(renderCommand('CALLNY-G202', { ...del, slot: 999 }, '1234')).toBe('1234#TEL#999#');
    expect(renderReadQuery('CALLNY-G203', { kind: 'slot', slot: 42 }, '1234')).toBe('1234#TEL042?');
    expect(getSheet('CALLNY-G202').capacity).toBe(999);
    expect(() => renderCommand('CALLNY-G202', { ...add, slot: 1000 }, '1234')).toThrow();
  });

  it('confirms a change by the reply that names its slot and number, and no other', () => {
    expect(matchReply('CALLNY-G202', add, 'Admin User ID:005, TEL:+79161234567')).toBe('confirmed');
    expect(matchReply('CALLNY-G203', add, 'Normal User ID:005, TEL:+79161234567')).toBe('confirmed');
    expect(matchReply('CALLNY-G202', add, 'Admin User ID:006, TEL:+79161234567')).toBeNull();
    expect(matchReply('CALLNY-G202', del, 'User ID:005 deleted')).toBe('confirmed');
    expect(matchReply('CALLNY-G202', del, 'User ID:004 deleted')).toBeNull();
    // An add's answer is not a delete's.
    expect(matchReply('CALLNY-G202', del, 'Admin User ID:005, TEL:+79161234567')).toBeNull();
  });

  it('reads a slot back from the documented query line, roles and all', () => {
    const query = { kind: 'slot' as const, slot: 1 };
    expect(parseReadReply('CALLNY-G202', query, 'User ID:001, TEL:+79161234567 (TOP)')).toMatchObject({
      outcome: 'read',
      slots: { 1: NUMBER },
    });
  });

  it('warns the operator that the first number becomes an undeletable super admin, and what role numbers get', () => {
    expect(modelEvidence('CALLNY-G202').operatorNotes.join('\n')).toMatch(
      /super admin \(TOP\), who cannot be deleted/,
    );
    expect(modelEvidence('CALLNY-G202').operatorNotes.join('\n')).toContain('admin user (ADV)');
    expect(modelEvidence('CALLNY-G203').operatorNotes.join('\n')).toContain('can only call to open');
    expect(renderModelsDoc([modelEvidence('CALLNY-G202')])).toContain('- Before Propusk drives such a unit:');
  });

  it('is offered to a new barrier, its guessed empty-slot line marked unverified', () => {
    for (const model of ['CALLNY-G202', 'CALLNY-G203'] as const) {
      expect(isAvailableDeviceModel(model)).toBe(true);
      expect(unverifiedForms(model).map((form) => form.template)).toContain('{slot}:Empty');
      expect(getSheet(model).factoryPassword?.value).toBe('1234');
    }
  });
});

describe('TELL Gate Control BASE 1000 (issue 42 item 7)', () => {
  it('renders the star commands of its manual without a password, numbers with +', () => {
    expect(renderCommand('TELL-BASE1000', add, null)).toBe('*n=+79161234567,+79161234567,U,N,1#');
    expect(renderCommand('TELL-BASE1000', del, null)).toBe('*d=+79161234567#');
    // One SMS holds at most 60 characters (manual p. 49).
    expect(renderCommand('TELL-BASE1000', add, null).length).toBeLessThanOrEqual(60);
    expect(getSheet('TELL-BASE1000').capacity).toBe(1000);
    expect(getSheet('TELL-BASE1000').hasPassword).toBe(false);
    // It obeys only its admins: the operator registers the server's number first.
    expect(modelEvidence('TELL-BASE1000').operatorNotes[0]).toContain('*SUPERADMIN#');
  });

  it('reads its documented confirmations and errors', () => {
    expect(matchReply('TELL-BASE1000', add, 'NEW USER REGISTERED.')).toBe('confirmed');
    expect(matchReply('TELL-BASE1000', add, 'USER ALREADY EXISTS!')).toBe('confirmed');
    expect(matchReply('TELL-BASE1000', add, 'SYNTAX ERROR!')).toBe('format_error');
    expect(matchReply('TELL-BASE1000', add, 'NUMBER ERROR!')).toBe('format_error');
    expect(matchReply('TELL-BASE1000', add, 'MISSING PARAMETER')).toBe('format_error');
    expect(matchReply('TELL-BASE1000', add, 'ERROR: INVALID CHARACTER: "+"!')).toBe('format_error');
    expect(matchReply('TELL-BASE1000', del, 'NEW USER REGISTERED.')).toBeNull();
  });

  it('marks what no source shows: the add (its name field) and the delete reply, whose text the source lost', () => {
    const sheet = getSheet('TELL-BASE1000');
    expect(sheet.lostReplies?.delete).toMatch(/p\. 49/);
    expect(unverifiedForms('TELL-BASE1000').map((form) => [form.side, form.template])).toEqual([
      ['sms', '*n={number},{number},U,N,1#'],
      ['reply', 'USER DELETED'],
    ]);
  });
});

describe('the simulator plays the new sheets, and a conformance run on a conforming unit confirms them', () => {
  const cases: [DeviceModel, string | null][] = [
    ['CALLNY-G202', '1234'],
    ['CALLNY-G203', '1234'],
    ['TELL-BASE1000', null],
  ];
  it.each(cases)('%s', (model, password) => {
    const unit = createDeviceSimulator({ model, password: password ?? '' });
    expect(unit.receive(renderCommand(model, add, password), NOW)).not.toBeNull();
    expect(unit.whitelist(NOW).map((entry) => entry.number)).toEqual([NUMBER]);
    unit.receive(renderCommand(model, del, password), NOW);
    expect(unit.whitelist(NOW)).toEqual([]);

    const plan = planConformance({ model, slot: 900, testNumber: NUMBER, now: NOW, includePassword: false });
    for (const step of plan.steps) {
      const { action } = step;
      const text =
        action.form === 'read'
          ? renderReadQuery(model, action.query, password)
          : action.form === 'password_same'
            ? (() => {
                const rendered = renderSetting(model, action.setting, { new_password: '1234' }, '1234');
                if (!rendered.ok) throw new Error('password step does not render');
                return rendered.text;
              })()
            : renderConformanceWhitelist(model, null, action.command, password, NOW);
      const reply = unit.receive(text, NOW);
      expect(conformanceVerdict(model, null, step, reply, { password: password ?? '' }), step.key).toBe(
        'as_sheet',
      );
    }
    expect(unit.slots()).toEqual([]);
  });
});
