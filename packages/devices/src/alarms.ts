/**
 * The unit's unasked SMS and the slots that receive them (issue 30 item 5, docs/decisions/0025 "Power
 * alarms"). RTU-family units send their alarms to slots 1–6 and the power-failure SMS to slot 1 only
 * (`AlarmSheet`, cited in the sheet): so on a barrier that keeps them, slot 1 holds the number of the gateway
 * that talks to the unit, and residents live above slot 6 wherever the unit has room for them.
 * Pure: the server's slot allocator, the move offered in «Проверить устройство» and the simulator use it.
 */
import { type DeviceModel, getSheet } from './models.ts';
import { type DeviceProfileOverride, POWER_ALARM_KINDS } from './profile.ts';
import type { AlarmForm, DeviceAlarmKind } from './sheet-types.ts';

export type { DeviceAlarmKind };

/** Whether the model sends unasked SMS the server can receive (it has an alarm sheet). */
export function hasAlarms(model: DeviceModel): boolean {
  return getSheet(model).alarms !== undefined;
}

/**
 * What an SMS from the unit's number says, when it is one of the model's unasked forms; null otherwise (a
 * reply, or a text no form recognises). A power form wins over the generic alarm form ("Power failure alarm"
 * is a power failure); a text that reads as both a failure and a restoration is not recognised.
 */
export function recogniseAlarm(
  model: DeviceModel,
  text: string,
  profile?: DeviceProfileOverride | null,
): { kind: DeviceAlarmKind; form: AlarmForm } | null {
  const sheet = getSheet(model).alarms;
  if (!sheet) return null;
  // A unit's own power texts, learnt by a conformance run (issue 42 item 3): those exactly, and no word rule
  // for power any more (a resident's reply that says "power" is no alarm); other alarms keep their rule.
  const learnt = profile?.alarms;
  if (learnt && (learnt.power_failure?.length || learnt.power_restored?.length)) {
    const same = normalise(text);
    for (const kind of POWER_ALARM_KINDS) {
      const form = learnt[kind]?.find((candidate) => normalise(candidate) === same);
      if (form !== undefined)
        return {
          kind,
          form: { kind, pattern: exactPattern(form), example: form, source: OVERRIDE_SOURCE_LEARNT },
        };
    }
    const alarm = sheet.forms.find((form) => form.kind === 'alarm' && form.pattern.test(text));
    return alarm ? { kind: 'alarm', form: alarm } : null;
  }
  const matched = sheet.forms.filter((form) => form.pattern.test(text));
  const power = matched.filter((form) => form.kind !== 'alarm');
  const kinds = new Set(power.map((form) => form.kind));
  if (kinds.size > 1) return null;
  const form = power[0] ?? matched[0];
  return form ? { kind: form.kind, form } : null;
}

const OVERRIDE_SOURCE_LEARNT = 'Профиль шлагбаума: текст устройства, полученный при проверке по модели';

/** Spaces collapsed, ends trimmed: the same SMS delivered by another gateway compares equal. */
const normalise = (text: string) => text.trim().replace(/\s+/g, ' ');

const exactPattern = (text: string) =>
  new RegExp(
    `^\\s*${normalise(text)
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/ /g, '\\s+')}\\s*$`,
  );

/** The text the simulator sends for an alarm of this kind (the form's example), or null without a form. */
export function alarmExample(model: DeviceModel, kind: DeviceAlarmKind): string | null {
  return getSheet(model).alarms?.forms.find((form) => form.kind === kind)?.example ?? null;
}

/** The slots that receive an alarm of this kind (the power-failure SMS: one slot; other alarms: 1..6). */
export function alarmRecipientSlots(model: DeviceModel, kind: DeviceAlarmKind): number[] {
  const sheet = getSheet(model).alarms;
  if (!sheet) return [];
  if (kind === 'alarm') return Array.from({ length: sheet.alarmSlots }, (_, index) => index + 1);
  // The restoration is documented nowhere: it is taken to go where the failure went.
  return [sheet.powerSlot];
}

/** The gateway's slot on a barrier that keeps the unit's alarms (the power-failure SMS goes there only). */
export function gatewaySlot(model: DeviceModel): number | null {
  return getSheet(model).alarms?.powerSlot ?? null;
}

/**
 * The slots residents may hold, `first..last`. Without the gateway in slot 1 (a model without alarms, or a
 * barrier that keeps the old layout): 1..amount. With it: slot 1 is the gateway's, and slots 2..6 (the other
 * alarm recipients) stay free of residents as far as the unit has room — residents start at 7 when
 * `slotCount - 6 >= amount`, else as low as needed, never below 2. So a unit whose every slot is wanted
 * (amount = slotCount) holds one resident fewer: the gateway's.
 */
export function residentSlotRange(
  model: DeviceModel,
  amount: number,
  hasGatewaySlot: boolean,
): { first: number; last: number } {
  const sheet = getSheet(model);
  const slotCount = sheet.slotCount;
  const alarms = sheet.alarms;
  if (!hasGatewaySlot || !alarms) return { first: 1, last: Math.min(amount, slotCount) };
  const reserved = Math.max(alarms.alarmSlots, alarms.powerSlot);
  const first =
    slotCount - reserved >= amount ? reserved + 1 : Math.max(alarms.powerSlot + 1, slotCount - amount + 1);
  return { first, last: Math.min(slotCount, first + amount - 1) };
}

/** One resident's move out of the alarm slots. */
export interface SlotMove {
  phoneId: number;
  from: number;
  to: number;
}

/**
 * The move of an existing barrier to the alarm layout: the gateway into slot 1, residents out of the slots
 * below the resident range into its free slots (lowest first), as far as there is room. `complete` is false
 * when some resident below the range could not move (no free slot): slot 1 must be freed, so the plan is
 * refused (`possible` false) when its resident cannot move; residents left in 2..6 are only a cost (they get
 * the unit's alarms), listed in `staying`.
 */
export function planAlarmLayoutMove(input: {
  model: DeviceModel;
  amount: number;
  phones: readonly { id: number; slot: number }[];
}): { possible: boolean; moves: SlotMove[]; staying: number[]; range: { first: number; last: number } } {
  const range = residentSlotRange(input.model, input.amount, true);
  const taken = new Set(input.phones.map((phone) => phone.slot));
  const free: number[] = [];
  for (let slot = range.first; slot <= range.last; slot += 1) if (!taken.has(slot)) free.push(slot);
  const below = input.phones.filter((phone) => phone.slot < range.first).sort((a, b) => a.slot - b.slot);
  const moves: SlotMove[] = [];
  const staying: number[] = [];
  for (const phone of below) {
    const to = free.shift();
    if (to === undefined) staying.push(phone.slot);
    else moves.push({ phoneId: phone.id, from: phone.slot, to });
  }
  const slotOfGateway = gatewaySlot(input.model);
  const possible = hasAlarms(input.model) && slotOfGateway !== null && !staying.includes(slotOfGateway);
  return { possible, moves, staying, range };
}
