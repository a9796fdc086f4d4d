/**
 * What a device command costs in SMS: the one home of that rule (issue 44 part 1). The server stores each
 * planned command's cost per attempt on its row (`device_commands.sms_per_attempt`, written by the outbox from
 * `smsPerAttempt`), so every SQL sum of SMS reads a column instead of rebuilding the rule from model lists; the
 * plan, the batcher, the weekly forecast, the budget and the residents' shares all count through here.
 */
import type { DeviceModel } from './models.ts';
import type { PlannedCommand } from './planner.ts';
import { confirmationQuery } from './readback.ts';

/**
 * SMS one attempt of a planned command costs: 1, or 2 on a model that confirms the change by reading it back
 * (the change and its read, `confirmationQuery`: every change on a `read_back` sheet, the deletes of a
 * `confirmDeletesByRead` sheet). A batch is one SMS whatever the numbers it carries.
 */
export function smsPerAttempt(model: DeviceModel, command: PlannedCommand): number {
  return confirmationQuery(model, command) === null ? 1 : 2;
}

/** SMS a plan costs, each command sent once (`smsPerAttempt` summed). */
export function planSms(model: DeviceModel, commands: readonly PlannedCommand[]): number {
  return commands.reduce((sum, command) => sum + smsPerAttempt(model, command), 0);
}

/** SMS a stored command has cost (or will cost once sent): its cost per attempt times its attempts, at least one. */
export function commandSms(smsPerAttemptOfRow: number, attempts: number): number {
  return Math.max(attempts, 1) * smsPerAttemptOfRow;
}

/** Characters of the GSM 7-bit default alphabet counted one each (a conservative subset: the rest is UCS-2). */
const GSM_BASIC = /^[A-Za-z0-9 \n\r@£$¥!"#%&'()*+,\-./:;<=>?_]*$/;

/**
 * SMS parts a text sent to a person costs (3GPP TS 23.040: 160 characters in one GSM 7-bit SMS, 153 per part
 * of a longer one; 70 and 67 in UCS-2, which any Cyrillic letter needs, counted in UTF-16 units). The power
 * notices to administrators are counted in the weekly limit by this (docs/decisions/0035).
 */
export function messageSmsParts(text: string): number {
  const [single, perPart] = GSM_BASIC.test(text) ? [160, 153] : [70, 67];
  return text.length <= single ? 1 : Math.ceil(text.length / perPart);
}
