import { describe, expect, it } from 'vitest';
import { renderCommand } from './commands.ts';
import { planSms } from './cost.ts';
import type { PlannedCommand } from './planner.ts';
import { renderReadQuery } from './readback.ts';
import { chooseRepliedCommand } from './reply-choice.ts';
import { createDeviceSimulator } from './simulator.ts';
import { matchWhitelistReply } from './whitelist-reply.ts';

const NOW = new Date('2026-11-27T12:00:00Z');
const GUEST = '+79161112233';
const NEIGHBOUR = '+79164445566';
const add = (slot: number, number: string): PlannedCommand => ({ kind: 'add', slot, number });
const remove = (slot: number, number: string): PlannedCommand => ({ kind: 'delete', slot, number });

describe('a delete whose answer names nothing is confirmed by the list read after it', () => {
  it('TELL: «User removed» only acknowledges; the list decides, "Empty phonebook" included', () => {
    const deletion = remove(1, GUEST);
    expect(matchWhitelistReply('TELL-GC20', deletion, 'User removed')).toEqual({
      outcome: 'acknowledged',
      strength: 0,
    });
    // The unit still lists the number: not an answer to this delete.
    expect(matchWhitelistReply('TELL-GC20', deletion, `${GUEST}\n${NEIGHBOUR}`)).toBeNull();
    expect(matchWhitelistReply('TELL-GC20', deletion, NEIGHBOUR)).toEqual({
      outcome: 'confirmed',
      strength: 1,
    });
    // Its own form for an empty list names the unit's state as well as a list does.
    expect(matchWhitelistReply('TELL-GC20', deletion, 'Empty phonebook')).toEqual({
      outcome: 'confirmed',
      strength: 1,
    });
    expect(matchWhitelistReply('TELL-GC20', deletion, 'Wrong password')).toEqual({
      outcome: 'refused',
      strength: 0,
    });
  });

  it('TELL: a late «User removed» of an earlier delete does not confirm a delete the unit never heard', () => {
    const unit = createDeviceSimulator({ model: 'TELL-GC20', password: '1111' });
    const send = (command: PlannedCommand) => unit.receive(renderCommand('TELL-GC20', command, '1111'), NOW);
    send(add(1, GUEST));
    send(add(2, NEIGHBOUR));
    // The first delete of the neighbour timed out; its answer is held by the network.
    const late = send(remove(2, NEIGHBOUR));
    expect(late).toBe('User removed');
    send(add(2, NEIGHBOUR));
    // The guest's delete is sent but never reaches the unit; the late answer arrives while it is in flight.
    const candidates = [
      {
        name: 'delete guest',
        command: remove(1, GUEST),
        status: 'sent',
        attempts: 1,
        replies: 0,
        sentAt: NOW,
      },
      {
        name: 'add neighbour',
        command: add(2, NEIGHBOUR),
        status: 'confirmed',
        attempts: 1,
        replies: 1,
        sentAt: NOW,
      },
      {
        name: 'delete neighbour',
        command: remove(2, NEIGHBOUR),
        status: 'failed',
        attempts: 3,
        replies: 0,
        sentAt: NOW,
      },
    ];
    const choose = (text: string) =>
      chooseRepliedCommand(candidates, (entry) => matchWhitelistReply('TELL-GC20', entry.command, text), {
        now: NOW,
      });
    const chosen = choose(late ?? '');
    expect(chosen?.command.name).toBe('delete guest');
    expect(chosen?.outcome).toBe('acknowledged');
    // The list read sent with it shows the guest still there: the delete is not confirmed, and is sent again.
    const list = unit.receive(renderReadQuery('TELL-GC20', { kind: 'list' }, '1111'), NOW) ?? '';
    expect(list).toContain(GUEST.slice(2));
    expect(choose(list)).toBeNull();
    // Once the unit heard it, the list without the guest confirms it.
    send(remove(1, GUEST));
    const after = unit.receive(renderReadQuery('TELL-GC20', { kind: 'list' }, '1111'), NOW) ?? '';
    expect(choose(after)).toMatchObject({
      command: { name: 'delete guest' },
      outcome: 'confirmed',
      late: false,
    });
  });

  it('Telemetrica keeps its reply: its empty list has no documented answer to tell from a late "success"', () => {
    expect(matchWhitelistReply('Telemetrica', remove(1, GUEST), 'success')).toEqual({
      outcome: 'confirmed',
      strength: 0,
    });
    expect(matchWhitelistReply('Telemetrica', remove(1, GUEST), NEIGHBOUR)).toBeNull();
  });

  it('costs two SMS a delete on TELL, one elsewhere', () => {
    expect(planSms('TELL-GC20', [add(1, GUEST), remove(2, NEIGHBOUR)])).toBe(3);
    expect(planSms('Telemetrica', [remove(2, NEIGHBOUR)])).toBe(1);
    expect(planSms('RTU5025', [add(1, GUEST), remove(2, NEIGHBOUR)])).toBe(2);
    // The RTU family names slot and number in its delete answer: confirmed by it.
    const rtu = createDeviceSimulator({ model: 'RTU5025', password: '1234' });
    rtu.receive(renderCommand('RTU5025', add(2, NEIGHBOUR), '1234'), NOW);
    const answer = rtu.receive(renderCommand('RTU5025', remove(2, NEIGHBOUR), '1234'), NOW) ?? '';
    expect(matchWhitelistReply('RTU5025', remove(2, NEIGHBOUR), answer)).toEqual({
      outcome: 'confirmed',
      strength: 2,
    });
  });
});
