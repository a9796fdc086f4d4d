/**
 * What a conformance run would do on a barrier (issue 42): the context it starts from (the free slot, the test
 * number, the number the clock call comes from and whether the barrier holds it), the plan of steps for the
 * person's ticks, why it cannot start, and the plan as the screen shows it.
 */
import type { ConformancePlanView } from '@propusk/contracts/conformance';
import { type ConformancePlan, freeSlotForRun, planConformance } from '@propusk/devices/conformance';
import { type DeviceModel, getSheet, isDeviceModel } from '@propusk/devices/models';
import { parseDeviceNumber } from '@propusk/devices/numbers';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import * as repository from './repository.ts';

export type Deps = Pick<Dependencies, 'db' | 'clock' | 'config'>;

export interface Context {
  model: DeviceModel;
  /** The number the clock call comes from (named, else the test number); null: none. */
  callNumber: string | null;
  /** It is on the barrier (a resident's phone, or a number the unit holds): it opens whatever the window. */
  callNumberInUse: boolean;
  /** The person named it himself. */
  callNumberNamed: boolean;
  profile: DeviceProfileOverride | null;
  hasPassword: boolean;
  slot: number | null;
  testNumber: string | null;
  testNumberInUse: boolean;
  running: boolean;
}

export async function loadContext(
  executor: Executor,
  user: AuthenticatedUser,
  barrierId: number,
  namedCallNumber?: string,
): Promise<Context> {
  const barrier = await requireBarrierPermission(executor, user.id, barrierId, 'settings.manage');
  if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_model_unknown');
  const profile = (barrier.deviceProfile as DeviceProfileOverride | null) ?? null;
  const personPhone = await repository.personPhone(executor, user.id);
  const running = await repository.hasRunningRun(executor, barrierId);
  const model = barrier.deviceModel;
  const number = personPhone && /^\+7\d{10}$/.test(personPhone) ? personPhone : null;
  // A unit that holds numbers, not slots, deletes the test number by its number: never one a resident uses.
  const inUse =
    number !== null &&
    getSheet(model).addressing === 'number' &&
    (await repository.hasActivePhoneNumber(executor, barrierId, number));
  const callNumber = namedCallNumber ?? number;
  return {
    model,
    callNumber,
    callNumberInUse: callNumber !== null && (await numberOnBarrier(executor, barrierId, callNumber)),
    callNumberNamed: namedCallNumber !== undefined,
    profile,
    hasPassword: !getSheet(model).hasPassword || barrier.devicePasswordEncrypted !== null,
    slot: freeSlotForRun(model, await repository.usedSlots(executor, barrierId), profile),
    testNumber: number,
    testNumberInUse: inUse,
    running,
  };
}

/** Whether the number opens this barrier's unit anyway: an active phone of it, or a number the unit holds. */
async function numberOnBarrier(executor: Executor, barrierId: number, number: string): Promise<boolean> {
  if (await repository.hasActivePhoneNumber(executor, barrierId, number)) return true;
  const held = await repository.heldNumbers(executor, barrierId);
  return held.some((heldNumber) => parseDeviceNumber(heldNumber) === number);
}

const CALL_NUMBER_IN_USE =
  'Ваш номер уже записан на шлагбауме и открывает его при любом окне: чтобы проверить порядок цифр звонком, укажите другой номер.';

interface PlanChoices {
  includePassword: boolean;
  includeCall: boolean;
  includePower: boolean;
}

export function planOf(context: Context, now: Date, choices: PlanChoices): ConformancePlan {
  const callable = context.callNumber !== null && !context.callNumberInUse;
  return planConformance({
    model: context.model,
    profile: context.profile,
    slot: context.slot ?? 1,
    testNumber: context.testNumber ?? '+70000000000',
    now,
    includePassword: choices.includePassword,
    callNumber: choices.includeCall && callable ? context.callNumber : null,
    callRefused: !choices.includeCall
      ? 'Не отмечено: звонить на устройство не будем.'
      : callable
        ? null
        : CALL_NUMBER_IN_USE,
    includePower: choices.includePower,
  });
}

/** The steps that send an SMS (a step that asks the person sends none). */
export const smsSteps = (plan: ConformancePlan) =>
  plan.steps.filter((step) => step.action.form !== 'ask').length;

type Unavailable =
  | 'conformance_running'
  | 'conformance_no_read_back'
  | 'device_password_not_set'
  | 'conformance_no_free_slot'
  | 'conformance_no_test_number'
  | 'conformance_test_number_in_use';

/** Why a run cannot start now (an error code), or null. */
export function unavailable(context: Context): Unavailable | null {
  if (context.running) return 'conformance_running';
  if (!getSheet(context.model).readBack) return 'conformance_no_read_back';
  if (!context.hasPassword) return 'device_password_not_set';
  if (context.slot === null) return 'conformance_no_free_slot';
  if (context.testNumber === null) return 'conformance_no_test_number';
  if (context.testNumberInUse) return 'conformance_test_number_in_use';
  return null;
}

export function planView(deps: Deps, context: Context, now: Date): ConformancePlanView {
  const without = planOf(context, now, { includePassword: false, includeCall: false, includePower: false });
  const withPassword = planOf(context, now, {
    includePassword: true,
    includeCall: false,
    includePower: false,
  });
  const callable = context.callNumber !== null && !context.callNumberInUse;
  // Every step the model has, as if the call could be made (the screen lists what the ticks add).
  const everything = planOf(
    { ...context, callNumber: context.callNumber ?? '+70000000000', callNumberInUse: false },
    now,
    { includePassword: true, includeCall: true, includePower: true },
  );
  const callSms = everything.steps.filter((step) => step.action.form === 'clock_trial').length;
  const reason = unavailable(context);
  const stepMinutes = deps.config.DEVICE_REPLY_TIMEOUT_MS / 60_000;
  return {
    available: reason === null,
    reason,
    model: context.model,
    model_label: getSheet(context.model).label,
    slot: context.slot,
    test_number: context.testNumber,
    sms: smsSteps(without),
    sms_with_password: smsSteps(withPassword),
    has_password_step: withPassword.steps.length > without.steps.length,
    has_call_step: callSms > 0,
    call_sms: callSms,
    call_refused: callable ? null : CALL_NUMBER_IN_USE,
    has_power_step: everything.steps.some((step) => step.key === 'power_cut'),
    max_minutes: Math.ceil(smsSteps(withPassword) * stepMinutes),
    steps: everything.steps.map((step) => ({ key: step.key, label: step.label })),
    skipped: without.skipped.filter(
      (skip) => !['Смена пароля', 'Порядок цифр времени', 'СМС о питании'].includes(skip.form),
    ),
  };
}
