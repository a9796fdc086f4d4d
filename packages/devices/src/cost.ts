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
  const gsmUnits = gsmSeptets(text);
  if (gsmUnits !== null) return { units: gsmUnits, limit: 160, fits: gsmUnits <= 160 };
  const units = text.length;
  return { units, limit: 70, fits: units <= 70 };
}

/** 7-bit characters a text takes in the GSM alphabet (an extension character 2), or null when it needs UCS-2. */
function gsmSeptets(text: string): number | null {
  let units = 0;
  for (const char of text) {
    if (GSM_BASIC.includes(char)) units += 1;
    else if (GSM_EXTENDED.includes(char)) units += 2;
    else return null;
  }
  return units;
}

/**
 * SMS parts a text sent to a person costs (3GPP TS 23.040: 160 septets in one GSM 7-bit SMS, 153 per part of a
 * longer one; 70 and 67 in UCS-2, which any Cyrillic letter needs, counted in UTF-16 units). The power notices
 * to administrators are counted in the weekly limit by this (docs/decisions/0035).
 */
export function messageSmsParts(text: string): number {
  const septets = gsmSeptets(text);
  if (septets !== null) return septets <= 160 ? 1 : Math.ceil(septets / 153);
  return text.length <= 70 ? 1 : Math.ceil(text.length / 67);
}
