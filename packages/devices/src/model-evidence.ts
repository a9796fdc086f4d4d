/**
 * What is known about each model and from which source (issue 30, "Done when": the note lists per model what
 * is verified from which source and what is not). Everything here is read from the command sheets: the
 * sheets stay the one place the forms and their citations are written, and `docs/devices/MODELS.md` is
 * generated from this (`npm run devices:evidence`; a test fails when the committed file differs).
 */
import type { ConformanceStepKey } from './conformance.ts';
import { DEVICE_MODELS, type DeviceModel, getSheet, modelUnavailableReason } from './models.ts';
import type { BatchForm, ClockOrder, DeviceSheet, SourcedForm } from './sheet-types.ts';

/** Which part of the sheet a form belongs to. */
export type FormGroup = 'whitelist' | 'clock' | 'read-back' | 'batch' | 'reply' | 'setting' | 'alarm';

/** One form of a model: what it does, its text, its citation, and whether the cited source shows it. */
export interface FormEvidence {
  group: FormGroup;
  /** English, for engineers; a setting quotes its Russian screen label. */
  what: string;
  /** `sms`: a text the server sends; `reply`: a text the unit sends. */
  side: 'sms' | 'reply';
  /** The template (`{key}` placeholders), or for an unasked SMS its example and the pattern that recognises it. */
  form: string;
  source: string;
  /** False when the sheet marks the form `unverified` (the screens say «не проверено на устройстве»). */
  verified: boolean;
  /** The conformance run's step that sends this form or judges this reply (null: no step does). */
  step: ConformanceStepKey | null;
  /** A clock form's digit order: a run verifies only the order its unit was set in. */
  clockOrder?: ClockOrder;
}

export interface ModelEvidence {
  model: DeviceModel;
  label: string;
  capacity: number;
  capacitySource: string;
  /** How a whitelist change is confirmed: a documented reply, reading the change back, or not at all. */
  confirmation: DeviceSheet['confirmation'];
  /** A delete is confirmed by the list read sent after it: its answer names nothing (`confirmDeletesByRead`). */
  deletesByRead: boolean;
  /** Whether a new barrier may choose the model, and the Russian reason shown when it may not. */
  offered: boolean;
  unavailableReason: string | null;
  numberFormat: string;
  numberFormatSource: string;
  factoryPassword: { value: string; source: string } | null;
  /** What an operator must know before Propusk drives such a unit (the sheet's `operatorNotes`). */
  operatorNotes: string[];
  /** Who receives the unit's unasked SMS, where the sheet documents it. */
  alarmRecipients: { alarmSlots: number; powerSlot: number; source: string } | null;
  forms: FormEvidence[];
  verifiedCount: number;
  unverifiedCount: number;
}

/** A batch written out with two numbers, e.g. `{pwd}_N:{number}:_{number}:…`. */
function batchTemplate(batch: BatchForm): string {
  return `${batch.prefix}${batch.item}${batch.separator}${batch.item}${batch.separator}…${batch.suffix}`;
}

/** The evidence of one sheet; `offeredReason` is the model list's reason a new barrier cannot choose it. */
export function sheetEvidence(
  model: DeviceModel,
  sheet: DeviceSheet,
  offeredReason: string | null,
): ModelEvidence {
  const forms: FormEvidence[] = [];
  const push = (
    group: FormGroup,
    what: string,
    side: FormEvidence['side'],
    form: SourcedForm | null | undefined,
    step: ConformanceStepKey | null = null,
    clockOrder?: ClockOrder,
  ) => {
    if (form)
      forms.push({
        group,
        what,
        side,
        form: form.template,
        source: form.source,
        verified: !form.unverified,
        step,
        ...(clockOrder ? { clockOrder } : {}),
      });
  };
  const replies = (
    group: FormGroup,
    what: string,
    list: readonly SourcedForm[],
    step: ConformanceStepKey | null = null,
    clockOrder?: ClockOrder,
  ) => {
    for (const reply of list) push(group, what, 'reply', reply, step, clockOrder);
  };

  const noReply = (list: readonly SourcedForm[], lost?: string) =>
    list.length > 0
      ? ''
      : lost
        ? `; the unit replies, but the source's reply text is lost (${lost})`
        : '; no reply documented';
  const firmware = (form: SourcedForm | null) =>
    form?.minFirmware ? ` (firmware ${form.minFirmware} and later)` : '';
  push(
    'whitelist',
    `Add a number${noReply(sheet.replies.add, sheet.lostReplies?.add)}`,
    'sms',
    sheet.commands.add,
    'add',
  );
  replies('reply', 'Reply to an add', sheet.replies.add, 'add');
  const { addWindow } = sheet.commands;
  push(
    'whitelist',
    `Add a number with a time window${firmware(addWindow)}${noReply(sheet.replies.addWindow)}`,
    'sms',
    addWindow,
    'add_window',
  );
  replies('reply', 'Reply to a windowed add', sheet.replies.addWindow, 'add_window');
  push(
    'whitelist',
    `Delete a number${noReply(sheet.replies.delete, sheet.lostReplies?.delete)}`,
    'sms',
    sheet.commands.delete,
    'delete',
  );
  replies('reply', 'Reply to a delete', sheet.replies.delete, 'delete');

  sheet.clockForms.forEach((clock, index) => {
    const which = `${index === 0 ? 'default' : 'alternative'}, digits ${clock.order}`;
    push('clock', `Set the clock (${which})`, 'sms', clock.command, 'set_clock', clock.order);
    replies('clock', `Reply to the clock (${clock.order})`, clock.replies, 'set_clock', clock.order);
  });
  // A clock command outside the documented clock forms (none today) is still listed.
  if (
    sheet.commands.setClock &&
    !sheet.clockForms.some((clock) => clock.command === sheet.commands.setClock)
  ) {
    push('clock', 'Set the clock', 'sms', sheet.commands.setClock, 'set_clock');
    replies('clock', 'Reply to the clock', sheet.replies.setClock, 'set_clock');
  }

  if (sheet.readBack) {
    const { readBack } = sheet;
    // The run reads its test slot before and after (empty) and once the test number is in it.
    push(
      'read-back',
      `Read the whitelist back (${readBack.mode} mode)`,
      'sms',
      readBack.command,
      'read_added',
    );
    replies('read-back', 'Read-back line of a number', readBack.line, 'read_added');
    replies('read-back', 'Read-back line of an empty slot', readBack.empty, 'read_after');
    replies('read-back', 'Read-back reply of an empty unit', readBack.emptyList ?? []);
  }

  for (const [kind, batch] of Object.entries(sheet.batch ?? {}) as [string, BatchForm | undefined][]) {
    if (!batch) continue;
    const action = kind === 'add' ? 'Add' : 'Delete';
    forms.push({
      group: 'batch',
      what: `${action} several numbers in one SMS (up to ${batch.maxItems}, ${batch.maxLength} characters)`,
      side: 'sms',
      form: batchTemplate(batch),
      source: batch.source,
      verified: !batch.unverified,
      step: null,
    });
    replies('batch', `Reply to a batch ${kind}`, batch.replies);
  }

  replies('reply', 'Wrong password', sheet.replies.refused);
  replies('reply', 'Command not understood', sheet.replies.formatError);
  push(
    'reply',
    'Simulator’s answer to a setting with no documented reply',
    'reply',
    sheet.replies.genericSuccess,
  );

  for (const [id, setting] of Object.entries(sheet.settings)) {
    // The run sets the password to itself (when the person ticks it): the model's password setting.
    const step = setting.effect === 'change_password' ? 'password' : null;
    push('setting', `Setting «${setting.name}» (\`${id}\`)${noReply(setting.replies)}`, 'sms', setting, step);
    replies('setting', `Reply to «${setting.name}»`, setting.replies, step);
  }

  for (const alarm of sheet.alarms?.forms ?? [])
    forms.push({
      group: 'alarm',
      what: `Unasked SMS: ${alarm.kind.replace('_', ' ')}`,
      side: 'reply',
      form: `${alarm.example} (recognised by /${alarm.pattern.source}/i)`,
      source: alarm.source,
      verified: !alarm.unverified,
      step: null,
    });

  const verifiedCount = forms.filter((form) => form.verified).length;
  return {
    model,
    label: sheet.label,
    capacity: sheet.capacity,
    capacitySource: sheet.capacitySource,
    confirmation: sheet.confirmation,
    deletesByRead: sheet.confirmDeletesByRead === true,
    offered: offeredReason === null,
    unavailableReason: offeredReason,
    numberFormat: sheet.numberFormat,
    numberFormatSource: sheet.numberFormatSource,
    factoryPassword: sheet.factoryPassword ?? null,
    operatorNotes: sheet.operatorNotes ?? [],
    alarmRecipients: sheet.alarms
      ? {
          alarmSlots: sheet.alarms.alarmSlots,
          powerSlot: sheet.alarms.powerSlot,
          source: sheet.alarms.recipientsSource,
        }
      : null,
    forms,
    verifiedCount,
    unverifiedCount: forms.length - verifiedCount,
  };
}

/** The evidence of one model, as its sheet and the model list say. */
export function modelEvidence(model: DeviceModel): ModelEvidence {
  return sheetEvidence(model, getSheet(model), modelUnavailableReason(model));
}

/** Every model, in the model list's order. */
export function allModelEvidence(): ModelEvidence[] {
  return DEVICE_MODELS.map(modelEvidence);
}
