/**
 * Driving the relay from the server (issue 16): opening the gate once from the app, and the emergency
 * hold-open (п.71 Правил противопожарного режима, ПП РФ № 1479) and its end. Data and pure functions only:
 * which settings of the model's sheet make up each step, in which order. The forms themselves, with their
 * sources, are the sheet's `open`, `close` and `relay_time` settings (sheets/rtu-family.ts).
 *
 * RTU502x (dialect A), King Pigeon RTU5025 manual v1.5 p. 11:
 * - §6.3.6 `{pwd}CC` "Return SMS: Relay ON", `{pwd}DD` "Return SMS: Relay OFF", and "The relay close timer
 *   according to the before setting 6.3.3": CC closes the relay for the relay time, it is the model's pulse;
 * - §6.3.3 `{pwd}GOT{000–999}#`: 000 = 0.5 s ("use the relay as Latch"), 999 = the relay stays closed "until
 *   the next call in".
 * So: open = CC, followed by DD after a few seconds unless the server knows the relay time is a timed one
 * (a unit left at 999, or one whose time nobody set through us, would otherwise stay open); hold = GOT999
 * then CC; end = DD then GOT back to the relay time the unit had (the one last confirmed through us; 000 when
 * none is known — the manual's "Latch" pulse). NOT verified on hardware: whether a call during a hold (relay
 * time 999) opens the relay again ("until the next call in" suggests it toggles), and whether DD stops a
 * running CC timer.
 *
 * Hash-style RTU5024/RTU5035 firmware (dialect B; manualshive.com/en/manual/langjushan-tech/rtu5024/3550028
 * p. 7): `#ON#`, `#OFF#`, `#KPON#` and `#GOT0#` = stays on. We have no sheet for it, and a barrier whose unit may
 * speak it is refused (`relay_dialect_unknown`, relay-safety.ts) until a device check shows dialect A.
 */
import { type DeviceModel, getSheet } from './models.ts';
import { type DialectEvidence, modelDialect, RELAY_DIALECT_UNKNOWN } from './relay-safety.ts';
import type { SettingEffect } from './sheet-types.ts';

export const RELAY_NOT_SUPPORTED = 'relay_not_supported';

/** The relay time written for a hold: the relay stays closed (RTU5025 manual p. 11, §6.3.3 "999"). */
export const HOLD_RELAY_SECONDS = 999;
/** The relay time restored after a hold when the server never learnt the unit's own: the 0.5 s pulse. */
export const DEFAULT_RESTORED_RELAY_SECONDS = 0;
/** After an opening's CC, the DD follows this many seconds later when the relay time is not known to be timed. */
export const OPENING_OFF_AFTER_SECONDS = 5;

/** One SMS: a setting of the model's sheet and its params. */
export interface RelayStep {
  setting: string;
  params: Record<string, string>;
}

export type RelayAvailability =
  | { ok: true }
  | { ok: false; code: typeof RELAY_DIALECT_UNKNOWN | typeof RELAY_NOT_SUPPORTED };

function settingWith(model: DeviceModel, effect: SettingEffect): string | null {
  const entry = Object.entries(getSheet(model).settings).find(([, setting]) => setting.effect === effect);
  return entry ? entry[0] : null;
}

/**
 * Whether the server may drive this barrier's relay: the model must have relay on and off commands, and its
 * dialect must be known (a documented model, or a device check that the unit answered in the sheet's language).
 */
export function relayAvailability(model: DeviceModel, evidence: DialectEvidence): RelayAvailability {
  if (settingWith(model, 'open') === null || settingWith(model, 'close') === null) {
    return { ok: false, code: RELAY_NOT_SUPPORTED };
  }
  const dialect = modelDialect(model);
  if (dialect.kind === 'documented') return { ok: true };
  if (dialect.kind === 'ambiguous' && evidence.deviceCheckPassed) return { ok: true };
  return { ok: false, code: RELAY_DIALECT_UNKNOWN };
}

function required(model: DeviceModel, effect: SettingEffect): string {
  const id = settingWith(model, effect);
  if (id === null) throw new Error(`${model} has no ${effect} command.`);
  return id;
}

/**
 * An opening: the model's timed relay command, and the OFF that follows it (null when the relay time the
 * server knows is a timed one, 0–998 s: the unit opens the relay by itself).
 */
export function openingSteps(
  model: DeviceModel,
  knownRelaySeconds: number | null,
): { on: RelayStep; off: { step: RelayStep; afterSeconds: number } | null } {
  const on = { setting: required(model, 'open'), params: {} };
  const timed =
    knownRelaySeconds !== null && knownRelaySeconds >= 0 && knownRelaySeconds < HOLD_RELAY_SECONDS;
  if (timed) return { on, off: null };
  return {
    on,
    off: { step: { setting: required(model, 'close'), params: {} }, afterSeconds: OPENING_OFF_AFTER_SECONDS },
  };
}

const seconds = (value: number) => String(value).padStart(3, '0');

/** The hold: relay time "stays on" (when the model has one), then relay on. */
export function holdSteps(model: DeviceModel): RelayStep[] {
  const time = settingWith(model, 'relay_time');
  const on = { setting: required(model, 'open'), params: {} };
  return time ? [{ setting: time, params: { seconds: seconds(HOLD_RELAY_SECONDS) } }, on] : [on];
}

/** The end of a hold: relay off, then the relay time back to what the unit had (or the 0.5 s pulse). */
export function endSteps(
  model: DeviceModel,
  previousRelaySeconds: number | null,
): { steps: RelayStep[]; restoredSeconds: number | null } {
  const off = { setting: required(model, 'close'), params: {} };
  const time = settingWith(model, 'relay_time');
  if (!time) return { steps: [off], restoredSeconds: null };
  const restored =
    previousRelaySeconds !== null && previousRelaySeconds < HOLD_RELAY_SECONDS
      ? previousRelaySeconds
      : DEFAULT_RESTORED_RELAY_SECONDS;
  return {
    steps: [off, { setting: time, params: { seconds: seconds(restored) } }],
    restoredSeconds: restored,
  };
}
