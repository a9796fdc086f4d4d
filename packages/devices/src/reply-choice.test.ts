import { describe, expect, it } from 'vitest';
import { type CommandReplyMatch, chooseRepliedCommand, DEBT_WINDOW_MS } from './reply-choice.ts';

const NOW = new Date('2026-11-27T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

/** A command as the server passes it: what it wrote (`number`) and how the unit answers it. */
interface Candidate {
  name: string;
  status: string;
  attempts: number;
  replies: number;
  sentAt: Date | null;
  /** Telemetrica-like: add and delete are both answered "success", which names nothing. */
  number: string;
}

const command = (
  name: string,
  status: string,
  sentMinutesAgo: number,
  counts: { attempts?: number; replies?: number } = {},
): Candidate => ({
  name,
  status,
  attempts: counts.attempts ?? 1,
  replies: counts.replies ?? 0,
  sentAt: minutesAgo(sentMinutesAgo),
  number: `+7916000000${name.length}`,
});

/** "success" names nothing; "Error" is an error reply; a number names the command that wrote it. */
const matchText =
  (text: string) =>
  (candidate: Candidate): CommandReplyMatch | null => {
    if (text === 'success') return { outcome: 'confirmed', strength: 0 };
    if (text === 'Error') return { outcome: 'format_error', strength: 0 };
    return text === candidate.number ? { outcome: 'confirmed', strength: 2 } : null;
  };

/** The server's step: the reply chosen, and the answers counted as heard. */
function answer(candidates: Candidate[], text: string) {
  const chosen = chooseRepliedCommand(candidates, matchText(text), { now: NOW });
  if (chosen) {
    chosen.command.replies += 1;
    if (chosen.paidWhileInFlight) chosen.paidWhileInFlight.replies += 1;
    if (!chosen.late && chosen.outcome === 'confirmed') chosen.command.status = 'confirmed';
  }
  return chosen && { name: chosen.command.name, outcome: chosen.outcome, late: chosen.late };
}

describe('a confirmation that names nothing ("success")', () => {
  it('goes to an older command still waiting for its retry, not to the delete in flight', () => {
    // The add timed out (its answer held by the SMS centre) and waits to be sent again; the delete is in
    // flight and the unit never heard it.
    const remove = command('delete', 'sent', 1);
    const add = command('add', 'queued', 4);
    expect(answer([remove, add], 'success')).toEqual({ name: 'add', outcome: 'confirmed', late: false });
    expect(remove).toMatchObject({ status: 'sent' });
  });

  it('is logged as a late answer of an older command that failed unanswered, and leaves the one in flight open', () => {
    const remove = command('delete', 'sent', 1);
    const add = command('add', 'failed', 10);
    expect(answer([remove, add], 'success')).toEqual({ name: 'add', outcome: 'confirmed', late: true });
    expect(remove).toMatchObject({ status: 'sent' });
  });

  it('goes to the oldest command owed an answer first', () => {
    const inFlight = command('delete', 'sent', 1);
    const newer = command('add-2', 'failed', 8);
    const older = command('add-1', 'failed', 20);
    expect(answer([inFlight, newer, older], 'success')).toMatchObject({ name: 'add-1', late: true });
    expect(answer([inFlight, newer, older], 'success')).toMatchObject({ name: 'add-2', late: true });
  });

  it('confirms the command in flight when the older command was last sent before the debt window', () => {
    const remove = command('delete', 'sent', 1);
    const add = command('add', 'failed', DEBT_WINDOW_MS / 60_000 + 1);
    expect(answer([remove, add], 'success')).toEqual({ name: 'delete', outcome: 'confirmed', late: false });
  });

  it('pays a debt once: the next answer confirms the command in flight', () => {
    const remove = command('delete', 'sent', 1);
    const add = command('add', 'failed', 10);
    expect(answer([remove, add], 'success')).toMatchObject({ name: 'add', late: true });
    // The delete was sent again and answered.
    remove.attempts = 2;
    expect(answer([remove, add], 'success')).toEqual({ name: 'delete', outcome: 'confirmed', late: false });
  });

  it('moves no debt to the command in flight: the answer heard while it was in flight counts for it too', () => {
    // The add's answer was lost for good; the delete's first answer paid it, the delete was sent again and
    // confirmed by its second answer. The next command is not kept waiting for the lost answer.
    const remove = command('delete', 'sent', 3);
    const add = command('add', 'failed', 10);
    expect(answer([remove, add], 'success')).toMatchObject({ name: 'add', late: true });
    remove.attempts = 2;
    expect(answer([remove, add], 'success')).toMatchObject({ name: 'delete', late: false });
    const next = command('add-2', 'sent', 1);
    expect(answer([next, remove, add], 'success')).toEqual({
      name: 'add-2',
      outcome: 'confirmed',
      late: false,
    });
  });

  it('confirms the command in flight when every older command had its answers', () => {
    const remove = command('delete', 'sent', 1);
    const add = command('add', 'confirmed', 10, { attempts: 2, replies: 2 });
    expect(answer([remove, add], 'success')).toMatchObject({ name: 'delete', late: false });
  });

  it('is not owed by an older command of another reply form', () => {
    const remove = command('delete', 'sent', 1);
    const setting = command('relay', 'failed', 10);
    const chosen = chooseRepliedCommand(
      [remove, setting],
      (candidate) => (candidate === remove ? { outcome: 'confirmed', strength: 0 } : null),
      { now: NOW },
    );
    expect(chosen).toMatchObject({ command: remove, late: false });
  });

  it('answers nothing with no command in flight, even one owed', () => {
    const add = command('add', 'failed', 10);
    expect(answer([add], 'success')).toBeNull();
  });
});

describe('the other replies keep their rules', () => {
  it('a reply naming its command answers it, open or finished, whatever is owed', () => {
    const remove = command('delete', 'sent', 1);
    const add = command('add', 'failed', 10);
    const older = command('add-older', 'queued', 12);
    expect(answer([remove, add, older], add.number)).toEqual({
      name: 'add',
      outcome: 'confirmed',
      late: true,
    });
    expect(answer([remove, older], older.number)).toEqual({
      name: 'add-older',
      outcome: 'confirmed',
      late: false,
    });
    expect(remove).toMatchObject({ status: 'sent', replies: 0 });
  });

  it('an error reply answers only the command in flight, even when an older one is owed', () => {
    const remove = command('delete', 'sent', 1);
    const add = command('add', 'failed', 10);
    expect(answer([remove, add], 'Error')).toEqual({ name: 'delete', outcome: 'format_error', late: false });
    expect(add.replies).toBe(0);
  });
});
