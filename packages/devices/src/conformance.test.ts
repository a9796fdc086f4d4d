import { describe, expect, it } from 'vitest';
import {
  type ConformanceStep,
  conformanceReplyMatch,
  conformanceVerdict,
  freeSlotForRun,
  learnReplyForm,
  planConformance,
  readShows,
  renderConformanceWhitelist,
  withLearntForm,
} from './conformance.ts';
import type { DeviceModel } from './models.ts';
import type { DeviceProfileOverride } from './profile.ts';
import { renderReadQuery } from './readback.ts';
import { renderSetting } from './settings.ts';
import { createDeviceSimulator, type DeviceSimulator } from './simulator.ts';
import { matchWhitelistReply } from './whitelist-reply.ts';

const NOW = new Date('2026-11-28T12:00:00Z');
const TEST = '+79161234567';

function textOf(model: DeviceModel, profile: DeviceProfileOverride | null, step: ConformanceStep): string {
  const { action } = step;
  if (action.form === 'read') return renderReadQuery(model, action.query, '1234', profile);
  if (action.form === 'password_same') {
    const rendered = renderSetting(model, action.setting, { new_password: '1234' }, '1234');
    if (!rendered.ok) throw new Error('password step does not render');
    return rendered.text;
  }
  if (action.form !== 'whitelist') throw new Error('this run has no clock trial nor person step');
  return renderConformanceWhitelist(model, profile, action.command, '1234', NOW);
}

/** A run played against a simulated unit: each step's verdict, the profile learnt along the way. */
function run(model: DeviceModel, unit: DeviceSimulator, includePassword = true) {
  let profile: DeviceProfileOverride | null = null;
  const plan = planConformance({ model, slot: 200, testNumber: TEST, now: NOW, includePassword });
  const verdicts: Record<string, string> = {};
  for (const step of plan.steps) {
    const reply = unit.receive(textOf(model, profile, step), NOW);
    verdicts[step.key] = conformanceVerdict(model, profile, step, reply, { password: '1234' });
    if (verdicts[step.key] === 'different' && reply !== null) {
      const learnt = learnReplyForm(model, profile, step, reply, NOW);
      if (learnt) profile = withLearntForm(profile, learnt);
    }
  }
  return { plan, verdicts, profile };
}

describe('conformance run (issue 42)', () => {
  it('plans every form of an RTU5025 in a safe order, the test number deleted before the last read', () => {
    const plan = planConformance({
      model: 'RTU5025',
      slot: 999,
      testNumber: TEST,
      now: NOW,
      includePassword: false,
    });
    expect(plan.steps.map((step) => step.key)).toEqual([
      'read_before',
      'add',
      'read_added',
      'add_window',
      'set_clock',
      'delete',
      'read_after',
    ]);
    expect(plan.skipped.map((skip) => skip.form)).toEqual([
      'Порядок цифр времени',
      'СМС о питании',
      'Время открытия',
      'Смена пароля',
    ]);
    const hash = planConformance({
      model: 'RTU5024-HASH',
      slot: 200,
      testNumber: TEST,
      now: NOW,
      includePassword: true,
    });
    expect(hash.steps.map((step) => step.key)).toEqual([
      'read_before',
      'add',
      'read_added',
      'password',
      'delete',
      'read_after',
    ]);
    // The hash-style add's text is lost: silence is what the sheet can say.
    expect(hash.steps.find((step) => step.key === 'add')?.expectsReply).toBe(false);
  });

  it('takes the highest free slot, none on a full unit', () => {
    expect(freeSlotForRun('RTU5024', [1, 2, 200])).toBe(199);
    expect(
      freeSlotForRun(
        'RTU5024',
        Array.from({ length: 200 }, (_, index) => index + 1),
      ),
    ).toBeNull();
  });

  it('confirms every form of a unit that answers as its sheet says, and leaves the unit as it began', () => {
    const unit = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: NOW });
    const { verdicts, profile } = run('RTU5025', unit);
    expect(Object.values(verdicts).every((verdict) => verdict === 'as_sheet')).toBe(true);
    expect(Object.keys(verdicts)).toContain('password');
    expect(profile).toBeNull();
    expect(unit.slots()).toEqual([]);
  });

  it('on the hash-style RTU5024, silence to the add and the delete is what the sheet can say; the reads confirm them', () => {
    const unit = createDeviceSimulator({ model: 'RTU5024-HASH', password: '1234', clock: NOW });
    const { verdicts, profile } = run('RTU5024-HASH', unit);
    expect(verdicts).toEqual({
      read_before: 'as_sheet',
      add: 'no_answer',
      read_added: 'as_sheet',
      password: 'as_sheet',
      delete: 'no_answer',
      read_after: 'as_sheet',
    });
    expect(profile).toBeNull();
    expect(unit.slots()).toEqual([]);
  });

  it('finds a unit that answers an add in its own words and is silent to the clock, and learns the text', () => {
    const unit = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: NOW });
    unit.drift({ kind: 'differ', replies: { add: 'User {slot} added: {number}' }, silent: ['setClock'] });
    const { verdicts, profile } = run('RTU5025', unit);
    expect(verdicts).toMatchObject({ add: 'different', set_clock: 'no_answer', delete: 'as_sheet' });
    expect(profile?.replies?.add).toEqual(['User {slot} added: {number}']);
    // From then on the engine's matching confirms an add with the unit's text, naming its slot and number.
    const reply = unit.receive(
      renderConformanceWhitelist(
        'RTU5025',
        profile,
        { kind: 'add', slot: 7, number: '+79035550011' },
        '1234',
        NOW,
      ),
      NOW,
    );
    expect(reply).toBe('User 007 added: 00079035550011');
    expect(
      matchWhitelistReply('RTU5025', { kind: 'add', slot: 7, number: '+79035550011' }, reply ?? '', {
        profile,
      }),
    ).toEqual({ outcome: 'confirmed', strength: 2 });
    // Without the learnt form the same text is no answer to the add.
    expect(
      matchWhitelistReply('RTU5025', { kind: 'add', slot: 7, number: '+79035550011' }, reply ?? ''),
    ).toBeNull();
  });

  it('weighs replies for the engine: errors as errors, the sheet form strongest, any other text the step’s', () => {
    const plan = planConformance({
      model: 'RTU5025',
      slot: 200,
      testNumber: TEST,
      now: NOW,
      includePassword: false,
    });
    const add = plan.steps.find((step) => step.key === 'add')!;
    expect(conformanceReplyMatch('RTU5025', null, add, 'Error password')).toEqual({
      outcome: 'refused',
      strength: 0,
    });
    expect(conformanceReplyMatch('RTU5025', null, add, '200:00079161234567')).toEqual({
      outcome: 'confirmed',
      strength: 2,
    });
    expect(conformanceReplyMatch('RTU5025', null, add, 'Saved')).toEqual({
      outcome: 'confirmed',
      strength: 0,
    });
  });

  it('tells what a read shows in the test slot', () => {
    const query = { kind: 'range', from: 200, to: 200 } as const;
    expect(readShows('RTU5025', null, query, '200:00079161234567', 200, TEST)).toBe('number');
    expect(readShows('RTU5025', null, query, '200:Empty', 200, TEST)).toBe('empty');
  });
});
