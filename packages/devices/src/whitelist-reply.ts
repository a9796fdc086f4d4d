/**
 * How a device's reply relates to one whitelist change (add, add with a window, delete), as the reply
 * chooser (`reply-choice.ts`) weighs it: the reply decision (`reply.ts`) and the convergence property test call
 * this one function, so that what the test proves is what the server does.
 */
import { matchReplyDetail } from './commands.ts';
import type { DeviceModel } from './models.ts';
import type { PlannedCommand } from './planner.ts';
import type { DeviceProfileOverride } from './profile.ts';
import { resolveSheet } from './profile.ts';
import { confirmationQuery, parseReadReply, readingConfirms } from './readback.ts';
import type { CommandReplyMatch } from './reply-choice.ts';

export interface WhitelistReplyOptions {
  utcOffsetMinutes?: number;
  profile?: DeviceProfileOverride | null;
}

/**
 * What `text` says about `command`, or null when it is not an answer to it.
 *
 * - A change confirmed by reading it back (`confirmationQuery`: every change of a `read_back` model, a delete
 *   of a `confirmDeletesByRead` model) is confirmed only by the reading sent after it, and only when the
 *   reading shows what the change wrote. A list that names numbers names the unit's state (strength 1, as
 *   any one-slot read's answer: the text cannot tell this read from a device check's read); an empty list
 *   names something only when the model has its own form for it (TELL's "Empty phonebook"), else it is the
 *   generic "success" any command gets (strength 0: an older command owed such an answer takes it first).
 *   The change's own documented answer ("User removed") confirms nothing: `acknowledged`, logged with it.
 * - Any other change: its documented reply (`matchReplyDetail`), strength 2 when it carries the command's slot
 *   and number, 0 when it names nothing.
 */
export function matchWhitelistReply(
  model: DeviceModel,
  command: PlannedCommand,
  text: string,
  options: WhitelistReplyOptions = {},
): CommandReplyMatch | null {
  const query = confirmationQuery(model, command);
  if (query === null) {
    const found = matchReplyDetail(model, command, text, options);
    return found ? { outcome: found.outcome, strength: found.names ? 2 : 0 } : null;
  }
  const reading = parseReadReply(model, query, text, options.profile);
  if (reading?.outcome === 'refused' || reading?.outcome === 'format_error')
    return { outcome: reading.outcome, strength: 0 };
  if (reading && readingConfirms(command, reading)) {
    const namesState =
      reading.outcome !== 'read_list' ||
      reading.numbers.length > 0 ||
      resolveSheet(model, options.profile).readBack?.emptyList !== undefined;
    return { outcome: 'confirmed', strength: namesState ? 1 : 0 };
  }
  // Not the reading that confirms it: the change's own answer, where the model sends one, acknowledges it.
  const own = matchReplyDetail(model, command, text, options);
  return own?.outcome === 'confirmed' ? { outcome: 'acknowledged', strength: 0 } : null;
}
