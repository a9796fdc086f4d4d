/**
 * Which of a barrier's recent commands a device's reply answers (issue 30 part 1, docs/decisions/0025).
 * Pure: the reply decision (`reply.ts`, the server's one call) passes the commands sent within the reply
 * window, newest attempt first, and how the reply matches each one (`matchReplyToCommand`).
 *
 * - A reply that NAMES a command (its slot and number, a new password, the slots of a read) answers that
 *   command whenever it arrives: an open one (in flight, or timed out and waiting for its retry) is
 *   confirmed; a finished one gets the reply logged as late — a late or repeated answer never confirms the
 *   command sent after it.
 * - An error reply ("Error password", "SMS Format Error") can only answer the command in flight, when its
 *   form is that command's.
 * - A confirming reply that names nothing ("success", «User removed», "Set Success!") answers the command in
 *   flight only when no older command of the same reply form still owes an answer. Each send is answered
 *   at most once (`attempts`, `replies`): an older command whose match is also a nameless confirmation and
 *   with fewer answers than sends, its last send within `DEBT_WINDOW_MS`, is owed one — a unit out of
 *   coverage answers every held SMS when it comes back. The oldest such debtor takes the reply (confirmed if
 *   still open, logged as late if finished), and the command in flight waits for its own answer or is sent
 *   again: one SMS more per lost answer, never a delete believed done that the unit may not have heard. The
 *   answer heard while it was in flight is counted for it too (`paidWhileInFlight`): the debt moves to no
 *   later command; and such a send does not count towards the command's attempts (the server does not fail
 *   it for an older command's debt). Not covered: a debtor's real answer arriving after the command in flight
 *   paid its debt and was confirmed (both count as answered: it confirms the next command in flight), and a
 *   debt older than the window.
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

/**
 * How long after its last send a command is still owed a nameless answer (see above). An hour: a unit that
 * was out of coverage for a short while (the usual case: a lift shaft, a dead SIM balance topped up) answers
 * its held SMS within it, and a debt left by an answer that is lost for good stops delaying later commands
 * once the hour has passed (they are confirmed by their own answers again), instead of for the whole reply
 * window of a day.
 */
export const DEBT_WINDOW_MS = 60 * 60_000;

/**
 * `acknowledged`: the command's own answer where a reading confirms it (a delete of a `confirmDeletesByRead`
 * model, whitelist-reply.ts): heard, logged with the command, confirms nothing; only the command in flight
 * takes it.
 */
export type ReplyOutcome = 'confirmed' | 'refused' | 'format_error' | 'acknowledged';

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
  /** When it was last sent: a command owes a nameless answer only within `DEBT_WINDOW_MS` of it. */
  sentAt: Date | null;
}

export interface ChosenReply<C> {
  command: C;
  outcome: ReplyOutcome;
  /** The command had already finished: the reply is logged as late and changes nothing. */
  late: boolean;
  /**
   * A nameless answer given to an older command that was owed one, while this command was in flight: it may
   * have been this command's own answer, so it counts as an answer heard for this command's send too.
   */
  paidWhileInFlight?: C;
}

export interface ReplyChoiceOptions<C> {
  /** When the reply arrived. */
  now: Date;
  /** Whether two commands write the same thing (the same slot, number and window). */
  sameEffect?: (a: C, b: C) => boolean;
  /** Whether two commands write the same slot. */
  sameSlot?: (a: C, b: C) => boolean;
}

const isOpen = (candidate: ReplyCandidate) => candidate.status === 'queued' || candidate.status === 'sent';

/** The command a reply answers among `candidates` (newest attempt first), or null: see above. */
export function chooseRepliedCommand<C extends ReplyCandidate>(
  candidates: readonly C[],
  match: (command: C) => CommandReplyMatch | null,
  options: ReplyChoiceOptions<C>,
): ChosenReply<C> | null {
  const { now, sameEffect = () => false, sameSlot = () => true } = options;
  let best: { command: C; found: CommandReplyMatch } | null = null;
  for (const command of candidates) {
    const found = match(command);
    if (!found) continue;
    // A reply that names nothing, and an error reply, answer only the command in flight (a nameless
    // confirmation may still go to an older command owed an answer: below).
    if ((found.strength === 0 || found.outcome !== 'confirmed') && command.status !== 'sent') continue;
    if (!best || found.strength > best.found.strength) best = { command, found };
  }
  if (!best) return null;
  if (best.found.outcome === 'confirmed' && best.found.strength === 0) {
    // A confirmation naming nothing: the oldest command sent before the one in flight that is owed an
    // answer of this form takes it.
    const inFlight = best.command;
    const debtor = candidates
      .slice(candidates.indexOf(inFlight) + 1)
      .filter((command) => {
        if (command.replies >= command.attempts || command.sentAt === null) return false;
        if (now.getTime() - command.sentAt.getTime() > DEBT_WINDOW_MS) return false;
        const found = match(command);
        return found?.outcome === 'confirmed' && found.strength === 0;
      })
      .at(-1);
    if (debtor)
      return { command: debtor, outcome: 'confirmed', late: !isOpen(debtor), paidWhileInFlight: inFlight };
  }
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
