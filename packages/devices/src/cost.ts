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

/** The GSM 03.38 basic alphabet: one 7-bit character each. */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The GSM 03.38 extension table: two 7-bit characters each (escape and the character). */
const GSM_EXTENDED = '^{}\\[~]|€';

/**
 * Whether a text is one SMS: 160 characters of the GSM 7-bit alphabet (an extension character counts 2), or,
 * with any other character (Cyrillic), 70 UCS-2 characters (a character past the BMP counts 2).
 */
export function smsTextFits(text: string): { units: number; limit: number; fits: boolean } {
  let gsmUnits = 0;
  let isGsm = true;
  for (const char of text) {
    if (GSM_BASIC.includes(char)) gsmUnits += 1;
    else if (GSM_EXTENDED.includes(char)) gsmUnits += 2;
    else {
      isGsm = false;
      break;
    }
  }
  if (isGsm) return { units: gsmUnits, limit: 160, fits: gsmUnits <= 160 };
  const units = text.length;
  return { units, limit: 70, fits: units <= 70 };
}
