/**
 * Per model, for `docs/devices/MODELS.md` (issue 42, "Done when"): what a conformance run would verify on a
 * unit of the model, and what only a real unit can tell. Read from the sheet and the run's plan, so the note
 * follows the sheets; pure.
 */
import { planConformance } from './conformance.ts';
import type { DeviceModel } from './models.ts';
import { getSheet } from './models.ts';

const RUN_AT = new Date('2026-01-01T09:00:00Z');
const TEST_NUMBER = '+79990000000';

/** «Запись тестового номера», … — the steps a run with the password ticked sends, and what it skips. */
export function runWouldVerify(model: DeviceModel): string {
  const sheet = getSheet(model);
  // The server refuses a run on such a model (`conformance_no_read_back`): the run must see its test slot
  // empty before it writes, and the unit as it began after.
  if (!sheet.readBack)
    return "nothing: a run cannot start on this model, which documents no way to read its numbers back (the run must see the test number absent before it writes and gone after). Its replies show in the device log; a text of its own is set in the barrier's device profile by hand.";
  const last = sheet.addressing === 'slot' ? sheet.capacity : 1;
  const plan = planConformance({
    model,
    slot: last,
    testNumber: TEST_NUMBER,
    now: RUN_AT,
    includePassword: true,
  });
  const steps = plan.steps.map((step) =>
    step.key === 'password' ? `«${step.label}» (only if ticked)` : `«${step.label}»`,
  );
  const skipped = plan.skipped.map((skip) => `«${skip.form}» (${skip.reason})`);
  return `${steps.join(', ')}: one SMS each, its reply judged against the sheet and a different text learnt.${
    skipped.length > 0 ? ` Not sent: ${skipped.join('; ')}` : ''
  }`;
}

/** What the sheet cannot settle and only a unit on the wall can (each a sentence, English, Russian quoted). */
export function onlyUnitCanTell(model: DeviceModel): string[] {
  const sheet = getSheet(model);
  const notes: string[] = [];
  if (!sheet.hasPassword)
    notes.push(
      'that it takes commands from the number the server sends from (it authenticates the sender, not a password: the installer registers that number on the unit first)',
    );
  if (sheet.clockForms.length > 1)
    notes.push(
      `the clock's digit order (${sheet.clockForms.map((form) => form.order).join(' or ')}): the reply cannot tell them apart; the call step settles it (a call from the test number while a window is open in one order and closed in the other, «Открылось?»)`,
    );
  notes.push(
    sheet.readBack
      ? 'the form it stores numbers in (`+7`, `8`, `007`, `0007`): the read-back after the add shows it'
      : 'the form it stores numbers in: no read-back is documented, so only its answers and a call from the test number show it',
  );
  for (const [kind, where] of Object.entries(sheet.lostReplies ?? {}))
    notes.push(
      `the text of its reply to ${kind === 'add' ? 'an add' : 'a delete'}, which the source lost (${where})`,
    );
  if (sheet.hasPassword && sheet.replies.refused.length === 0)
    notes.push('what it answers to a wrong password (no source says; silence is likely)');
  if (sheet.commands.addWindow?.minFirmware)
    notes.push(
      `whether its firmware takes a number's time window (only from firmware ${sheet.commands.addWindow.minFirmware}): the window step's answer tells`,
    );
  if (sheet.alarms)
    notes.push(
      "the texts of its power-failure, restoration and alarm SMS (no source quotes them): the optional step «отключите питание устройства на минуту» captures them as this profile's alarm forms",
    );
  notes.push(
    `how many numbers it really holds (the sheet says ${sheet.capacity}): a unit that takes fewer shows it only when it is filled`,
  );
  return notes;
}
