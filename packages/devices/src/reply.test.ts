/** The one reply decision (issue 44 part 1): for each kind of command, what a unit's answer settles. */
import { describe, expect, it } from 'vitest';
import { renderCommand } from './commands.ts';
import { planConformance } from './conformance.ts';
import type { PlannedCommand } from './planner.ts';
import { renderReadQuery } from './readback.ts';
import { decideInbound, decideReply, type ReplyCommand } from './reply.ts';
import { renderSetting } from './settings.ts';
import { createDeviceSimulator } from './simulator.ts';

const NOW = new Date('2026-11-29T10:00:00Z');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const GUEST = '+79161234567';

let nextId = 1;
const candidate = (kind: string, payload: unknown, overrides: Partial<ReplyCommand> = {}): ReplyCommand => ({
  id: nextId++,
  kind,
  payload,
  status: 'sent',
  attempts: 1,
  replies: 0,
  sentAt: minutesAgo(1),
  reply: null,
  ...overrides,
});

/** An RTU5025 with password 1234 (a guest in slot 2 where `texts` wrote it): what it answers to the last text. */
function rtuAnswer(...texts: string[]): string {
  const unit = createDeviceSimulator({ model: 'RTU5025', password: '1234' });
  let answer = '';
  for (const text of texts) answer = unit.receive(text, NOW) ?? '';
  return answer;
}

/** The open "add" step of a conformance run on an RTU5025: a command that takes any text. */
function openStep(): ReplyCommand {
  const plan = planConformance({
    model: 'RTU5025',
    slot: 200,
    testNumber: GUEST,
    now: NOW,
    includePassword: false,
  });
  return candidate('conformance', {
    run_id: 1,
    index: 1,
    step: plan.steps.find((each) => each.key === 'add'),
  });
}

const decide = (text: string, candidates: ReplyCommand[], model: 'RTU5025' | 'TELL-GC20' = 'RTU5025') =>
  decideReply({ model, text, now: NOW, candidates, secrets: ['1234'] });

describe('decideReply', () => {
  it('confirms a whitelist change by its documented reply, and only the change it names', () => {
    const add: PlannedCommand = { kind: 'add', slot: 2, number: GUEST };
    const reply = rtuAnswer(renderCommand('RTU5025', add, '1234'));
    const other = candidate('add', { kind: 'add', slot: 3, number: '+79035550011' });
    const mine = candidate('add', add, { sentAt: minutesAgo(2) });
    const decision = decide(reply, [other, mine]);
    expect(decision?.command).toBe(mine);
    expect(decision?.settle).toEqual({ as: 'confirm', text: reply, planned: add });
    expect(decision?.answered).toEqual([mine]);
    expect(decide(reply, [other])).toBeNull();
  });

  it('confirms a setting by its reply, with the password it wrote, hidden in the log', () => {
    const params = { new_password: '5678' };
    const rendered = renderSetting('RTU5025', 'change_password', params, '1234');
    if (!rendered.ok) throw new Error('render failed');
    const reply = rtuAnswer(rendered.text);
    const change = candidate('setting', { setting: 'change_password', params });
    const decision = decide(reply, [change]);
    expect(decision?.settle).toEqual({ as: 'confirm', text: reply, newPassword: '5678' });
    expect(decision?.outcome).toBe('confirmed');
    expect(decision?.loggedText).not.toContain('5678');
    // The same answer is no answer to a change to another password, nor to one whose payload did not open.
    expect(
      decide(reply, [candidate('setting', { setting: 'change_password', params: { new_password: '9999' } })]),
    ).toBeNull();
    expect(decide(reply, [candidate('setting', null)])).toBeNull();
  });

  it('fails the command in flight on an error reply, and no command that is not in flight', () => {
    const open = candidate('relay_open', { setting: 'open', params: {} });
    expect(decide('Error password', [open])?.settle).toEqual({ as: 'fail', reason: 'refused' });
    expect(decide('Error password', [open])?.answered).toEqual([open]);
    expect(decide('Error password', [{ ...open, status: 'queued' }])).toBeNull();
  });

  it('keeps a read’s parts until its range is answered, then confirms it with the reading', () => {
    const query = { kind: 'range', from: 1, to: 3 } as const;
    const whole = rtuAnswer(
      renderCommand('RTU5025', { kind: 'add', slot: 2, number: GUEST }, '1234'),
      renderReadQuery('RTU5025', query, '1234'),
    );
    const [first, second, third] = whole.split('\n');
    const read = candidate('read', { check_id: 1, query });
    const part = decide(`${first}\n${second}`, [read]);
    expect(part?.settle).toEqual({ as: 'read_part', text: `${first}\n${second}` });
    expect(part?.answered).toEqual([]);
    const rest = decide(third ?? '', [{ ...read, reply: `${first}\n${second}` }]);
    expect(rest?.settle).toMatchObject({
      as: 'confirm',
      text: whole,
      reading: { outcome: 'read', slots: { 1: null, 2: GUEST, 3: null } },
    });
  });

  it('gives a range’s answer to the read rather than to the add of one of its lines sent after it', () => {
    const query = { kind: 'range', from: 1, to: 3 } as const;
    const add: PlannedCommand = { kind: 'add', slot: 2, number: GUEST };
    const whole = rtuAnswer(renderCommand('RTU5025', add, '1234'), renderReadQuery('RTU5025', query, '1234'));
    const newer = candidate('add', add, { status: 'confirmed', replies: 1, sentAt: minutesAgo(1) });
    const read = candidate('read', { check_id: 1, query }, { status: 'queued', sentAt: minutesAgo(2) });
    expect(decide(whole, [newer, read])?.command).toBe(read);
    // Its answer to one line alone is the add's (delivered again: late).
    expect(decide(whole.split('\n')[1] ?? '', [newer, read])?.command).toBe(newer);
  });

  it('takes as a password probe’s answer only a text naming its own slots', () => {
    const probe = candidate('password_probe', {
      password: 'pending',
      query: { kind: 'range', from: 1, to: 2 },
    });
    const own = '001:Empty\n002:Empty';
    expect(decide(own, [probe])?.settle).toEqual({ as: 'confirm', text: own });
    expect(decide('001:Empty\n002:Empty\n003:Empty\n004:Empty', [probe])).toBeNull();
  });

  it('gives any text to a conformance run’s open step, none to a finished one', () => {
    const open = openStep();
    expect(decide('Saved', [open])?.settle).toEqual({ as: 'confirm', text: 'Saved' });
    expect(decide('Saved', [{ ...open, status: 'confirmed' }])).toBeNull();
  });

  it('acknowledges a delete confirmed by reading, without counting the answer', () => {
    const deletion = candidate('delete', { kind: 'delete', slot: 1, number: GUEST });
    const decision = decide('User removed', [deletion], 'TELL-GC20');
    expect(decision?.settle).toEqual({ as: 'acknowledge' });
    expect(decision?.outcome).toBe('acknowledged');
    expect(decision?.answered).toEqual([]);
  });

  it('logs an answer to a finished command as late, counting one answered before the column existed', () => {
    const add: PlannedCommand = { kind: 'add', slot: 2, number: GUEST };
    const reply = rtuAnswer(renderCommand('RTU5025', add, '1234'));
    const done = candidate('add', add, { status: 'confirmed', reply, replies: 0 });
    const decision = decide(reply, [done]);
    expect(decision?.outcome).toBe('late');
    expect(decision?.settle).toEqual({ as: 'late' });
  });

  it('pays an older command’s debt with a nameless answer, counting it for the command in flight too', () => {
    const payload = { setting: 'access_all', params: {} };
    const inFlight = candidate('setting', payload);
    const owed = candidate('setting', payload, { status: 'queued', sentAt: minutesAgo(20) });
    const decision = decide('Set Success!', [inFlight, owed]);
    expect(decision?.command).toBe(owed);
    expect(decision?.settle).toEqual({ as: 'confirm', text: 'Set Success!' });
    expect(decision?.answered).toEqual([owed, inFlight]);
    // A reply counted in `reply` before `replies` was: no debt left, the command in flight takes it.
    expect(decide('Set Success!', [inFlight, { ...owed, reply: 'Set Success!' }])?.command).toBe(inFlight);
  });

  it('hides the barrier’s password in the text kept for the log', () => {
    const open = candidate('relay_open', { setting: 'open', params: {} });
    expect(decide('1234CC Error password', [open])?.loggedText).not.toContain('1234');
  });
});

describe('decideInbound', () => {
  const inbound = (
    text: string,
    candidates: ReplyCommand[],
    unit: Parameters<typeof decideInbound>[0]['unit'],
  ) => decideInbound({ model: 'RTU5025', text, now: NOW, candidates, secrets: ['1234'], unit });

  it('takes the live unit’s own SMS for what it is, before any command that would take any text', () => {
    const open = openStep();
    const unit = { model: 'RTU5025', secrets: ['1234'] };
    expect(inbound('External Power Goes OFF', [open], unit)).toEqual({
      as: 'alarm',
      kind: 'power_failure',
      loggedText: 'External Power Goes OFF',
    });
    expect(inbound('External Power Goes ON', [], unit)).toMatchObject({
      as: 'alarm',
      kind: 'power_restored',
    });
    // The same text heard from a deleted barrier's unit with no live barrier on it is an answer like any other.
    expect(inbound('External Power Goes OFF', [open], null)).toMatchObject({
      as: 'reply',
      decision: { command: open, settle: { as: 'confirm', text: 'External Power Goes OFF' } },
    });
  });

  it('decides the reply as decideReply does when the text is no alarm of the unit', () => {
    const add: PlannedCommand = { kind: 'add', slot: 2, number: GUEST };
    const reply = rtuAnswer(renderCommand('RTU5025', add, '1234'));
    const mine = candidate('add', add);
    const unit = { model: 'RTU5025', secrets: ['1234'] };
    expect(inbound(reply, [mine], unit)).toEqual({ as: 'reply', decision: decide(reply, [mine]) });
    expect(inbound('nothing of the kind', [mine], unit)).toBeNull();
  });

  it('recognises nothing as an alarm for a model it does not know, and hides the unit’s password in the log', () => {
    const open = openStep();
    expect(inbound('External Power Goes OFF', [open], { model: 'NO-SUCH-UNIT' })?.as).toBe('reply');
    // The unit's own power texts learnt by a conformance run are those exactly; its password stays hidden.
    const learnt = { alarms: { power_failure: ['AC OFF 4321'] } };
    expect(inbound('AC OFF 4321', [], { model: 'RTU5025', profile: learnt, secrets: ['4321'] })).toEqual({
      as: 'alarm',
      kind: 'power_failure',
      loggedText: 'AC OFF ****',
    });
  });
});
