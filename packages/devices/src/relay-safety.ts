/**
 * When a relay setting (relay time, relay on/off) may be sent: only to a barrier whose command dialect is
 * known. The same value means different things in the two languages sold under these names:
 *
 * - dialect A (King Pigeon RTU502x firmware, our RTU sheets): `{pwd}GOT{000–999}`, "000 = 0.5 s pulse, 999 =
 *   relay stays on until the next call" (RTU5025 manual v1.5 p. 11, §6.3.3); relay on/off `{pwd}CC`/`{pwd}DD`
 *   (p. 11, §6.3.6);
 * - dialect B (hash-style RTU5024/RTU5035 firmware): `#GOT60#` up to 2000 s, where `GOT0` keeps the relay on,
 *   and `#ON#`/`#OFF#`/`#KPON#` (hash-style manual p. 7).
 *
 * A relay time meant as a pulse in one can hold the gate open in the other (docs/decisions/0006).
 */
import { type BuiltInModel, type DeviceModel, getSheet, isBuiltInModel } from './models.ts';
import type { SettingEffect } from './sheet-types.ts';
import { cite } from './sheets/sources.ts';

/** Settings that drive the relay: a value of one dialect sent to the other can leave a barrier open. */
export const RELAY_EFFECTS: readonly SettingEffect[] = ['relay_time', 'open', 'close'];

export const RELAY_DIALECT_UNKNOWN = 'relay_dialect_unknown';

/**
 * What the model name tells of its relay dialect:
 * `documented`: one firmware is documented under this name, the one the sheet is written from;
 * `ambiguous`: units of this name are sold with either firmware, so only the unit itself can tell;
 * `none`: the sheet has no relay settings.
 */
export type ModelDialect = { kind: 'documented' | 'ambiguous' | 'none'; source: string };

export const MODEL_DIALECTS: Record<BuiltInModel, ModelDialect> = {
  RTU5025: {
    kind: 'documented',
    source: cite(
      'rtu5025Manual',
      'p. 11, §6.3.3 "000 = 0.5 s pulse, 999 = stays on"; no other firmware found',
    ),
  },
  RTU5024: {
    kind: 'ambiguous',
    source: `${cite('gateOpenerCommands', 'RTU502x language')}; ${cite('rtu5024HashManual', 'p. 7, #GOT0 keeps the relay on')}`,
  },
  Telemetrica: { kind: 'none', source: cite('telemetricaT80', 'no relay-time or relay command') },
  'RTU5024-HASH': {
    kind: 'none',
    source: `${cite('rtu5024HashManual', 'p. 7, #GOT0 keeps the relay on')}: its sheet leaves the relay settings out`,
  },
  G200: {
    kind: 'documented',
    source: cite('badodoG200', 'p. 4, 1234GOT010# "The relay will close after 10s", "Relay time: 000 - 900"'),
  },
  ESIM120: { kind: 'none', source: 'The ELDES sheet has no relay settings' },
  ESIM320: { kind: 'none', source: 'The ELDES sheet has no relay settings' },
  'TELL-GC20': { kind: 'none', source: 'The TELL sheet has no relay settings' },
  'CALLNY-G202': {
    kind: 'none',
    source: 'The Callny sheet has no relay settings (its GOT and KPON are left out)',
  },
  'CALLNY-G203': {
    kind: 'none',
    source: 'The Callny sheet has no relay settings (its GOT and KPON are left out)',
  },
  'TELL-BASE1000': { kind: 'none', source: 'The TELL BASE sheet has no relay settings' },
};

/** A defined model's forms are the operator's own words for his unit: one dialect, the one he wrote. */
const DEFINED_DIALECT: ModelDialect = {
  kind: 'documented',
  source: 'The operator wrote the forms of his unit',
};

export function modelDialect(model: DeviceModel): ModelDialect {
  return isBuiltInModel(model) ? MODEL_DIALECTS[model] : DEFINED_DIALECT;
}

/** What the server knows of the unit on the wall. */
export interface DialectEvidence {
  /**
   * A device check of this barrier finished (ready or repaired): the unit answered the sheet's own read-back
   * query (`{pwd}AL001#010#`, dialect A) with the sheet's reply lines. A hash-style unit answers that query
   * "Command error, please resend command" (hash-style manual p. 7), which fails the check.
   */
  deviceCheckPassed: boolean;
}

export type RelayDialectDecision =
  | { known: true; basis: 'model' | 'device_check' | 'not_relay' }
  | { known: false; code: typeof RELAY_DIALECT_UNKNOWN };

export function isRelaySetting(model: DeviceModel, settingId: string): boolean {
  const settings = getSheet(model).settings;
  return Object.hasOwn(settings, settingId) && RELAY_EFFECTS.includes(settings[settingId]!.effect);
}

/**
 * Whether a setting may be sent as far as the relay dialect goes. Not a relay setting: always. A relay
 * setting: when the model documents one dialect, or when a device check showed the unit speaks the sheet's.
 */
export function relaySettingDecision(
  model: DeviceModel,
  settingId: string,
  evidence: DialectEvidence,
): RelayDialectDecision {
  if (!isRelaySetting(model, settingId)) return { known: true, basis: 'not_relay' };
  const dialect = modelDialect(model);
  if (dialect.kind === 'documented') return { known: true, basis: 'model' };
  if (evidence.deviceCheckPassed) return { known: true, basis: 'device_check' };
  return { known: false, code: RELAY_DIALECT_UNKNOWN };
}

/** The relay settings of a model that may not be sent yet (ids), for the settings screen. */
export function blockedRelaySettings(model: DeviceModel, evidence: DialectEvidence): string[] {
  return Object.keys(getSheet(model).settings).filter(
    (id) => !relaySettingDecision(model, id, evidence).known,
  );
}
