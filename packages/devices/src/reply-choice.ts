/**
 * Which of a barrier's recent commands a device's reply answers (issue 30 part 1, docs/decisions/0025).
 * Pure: the server passes the commands sent within its reply window, newest attempt first, and how the
 * reply matches each one (`matchReplyDetail`, `matchSettingReplyDetail`, a read's parse).
 *
 * - A reply that NAMES a command (its slot and number, a new password, the slots of a read) answers that
 *   command whenever it arrives: an open one (in flight, or timed out and waiting for its retry) is
 *   confirmed; a finished one gets the reply logged as late — a late or repeated answer never confirms the
 *   command sent after it.
 * - A reply that names nothing ("Set Time OK", "Relay ON", "Set Success!") and an error reply ("Error
 *   password", "SMS Format Error") can only answer the command in flight, when its form is that command's.
 * - A reply that names its command is ambiguous while an earlier command it names equally well but that
 *   wrote something else (the same slot and number with another window, as when windows are written ahead
 *   for the same phone) failed with no answer at all:
 *   it is taken as that command's late answer, and the open command waits for its own (or is sent again).
 *   This costs a retry when an answer was lost. Not covered: a second answer to a command already
 *   answered (a gateway delivering one SMS twice, or an earlier attempt's answer after a retry was
 *   confirmed) arriving while the same slot and number is written again.
 * - The strongest match wins, ties to the newest attempt: several lines of a read's range (3) over a reply
 *   naming a command's slot and number (2) over one line of a read's range (1) over nothing (0). So an add's
 *   answer `002:7…` delivered again is the add's, not a line of a range read sent after it.
 */

export type ReplyOutcome = 'confirmed' | 'refused' | 'format_error';

/** How a reply relates to one command: what it says, and how strongly it points at that command. */
export interface CommandReplyMatch {
  outcome: ReplyOutcome;
  /**
   * 3: several lines of a read's range; 2: the reply carries the command's own values (slot and number, a
   * new password); 1: one line of a read's range; 0: it names nothing (a generic form, an error reply).
   */
  strength: 0 | 1 | 2 | 3;
}

/** A command as the chooser sees it: `sent` is the one in flight; `queued` (after a send) waits to retry. */
export interface ReplyCandidate {
  status: 'queued' | 'sent' | 'confirmed' | 'failed' | 'cancelled' | string;
  /** How many times it was sent, and how many answers it has had: each send is answered at most once. */
  attempts: number;
  replies: number;
}

export interface ChosenReply<C> {
  command: C;
  outcome: ReplyOutcome;
  /** The command had already finished: the reply is logged as late and changes nothing. */
  late: boolean;
}

const isOpen = (candidate: ReplyCandidate) => candidate.status === 'queued' || candidate.status === 'sent';

/** The command a reply answers among `candidates` (newest attempt first), or null: see above. */
export function chooseRepliedCommand<C extends ReplyCandidate>(
  candidates: readonly C[],
  match: (command: C) => CommandReplyMatch | null,
  /** Whether two commands write the same thing (the same slot, number and window). */
  sameEffect: (a: C, b: C) => boolean = () => false,
  /** Whether two commands write the same slot. */
  sameSlot: (a: C, b: C) => boolean = () => true,
): ChosenReply<C> | null {
  let best: { command: C; found: CommandReplyMatch } | null = null;
  for (const command of candidates) {
    const found = match(command);
    if (!found) continue;
    // A reply that names nothing, and an error reply, answer only the command in flight.
    if ((found.strength === 0 || found.outcome !== 'confirmed') && command.status !== 'sent') continue;
    if (!best || found.strength > best.found.strength) best = { command, found };
  }
  if (!best) return null;
  // A reply naming nothing ("success") answers the command in flight: with such forms a lost SMS would
  // otherwise take every later answer; those models are guarded by reading back (docs/decisions/0025).
  if (best.found.outcome === 'confirmed' && best.found.strength > 0) {
    // The oldest command that failed with no answer at all and that this reply answers as well as the chosen
    // one takes it, as late: it may well be that command's answer.
    const strength = best.found.strength;
    const chosen = best.command;
    const waiting = candidates.filter((command) => {
      if (command === chosen || command.status !== 'failed' || command.replies > 0) return false;
      // Its answer would prove the same state as the chosen one's, nothing else having written that slot
      // in between: no harm in taking it for the chosen.
      if (sameEffect(command, chosen)) {
        const between = candidates.slice(candidates.indexOf(chosen) + 1, candidates.indexOf(command));
        if (!between.some((other) => sameSlot(other, chosen) && !sameEffect(other, chosen))) return false;
      }
      const found = match(command);
      return found?.outcome === 'confirmed' && found.strength === strength;
    });
    const oldest = waiting.at(-1);
    if (oldest) return { command: oldest, outcome: 'confirmed', late: true };
  }
  return { command: best.command, outcome: best.found.outcome, late: !isOpen(best.command) };
}
