/**
 * A command's SMS text, rendered at the moment of sending with the device password decrypted in memory only,
 * and the attempt it becomes (its idempotency key, the masked text the log keeps).
 */
import { renderCommand } from '@propusk/devices/commands';
import { renderConformanceWhitelist } from '@propusk/devices/conformance';
import { renderClockTrial } from '@propusk/devices/conformance-clock-steps';
import { maskSecrets } from '@propusk/devices/mask';
import type { DeviceModel } from '@propusk/devices/models';
import { commandFromJson, type PlannedCommandJson } from '@propusk/devices/planner';
import { confirmationQuery, joinReadAnswer, renderReadQuery } from '@propusk/devices/readback';
import { renderSetting } from '@propusk/devices/settings';
import type { ConformancePayload, PasswordProbePayload, ReadCommandPayload } from '../plan/index.ts';
import {
  type BarrierRow,
  type CommandRow,
  devicePassword,
  deviceSecrets,
  isConformanceKind,
  isProbeKind,
  isReadKind,
  isWhitelistKind,
  openSettingPayload,
  type QueueDeps,
  type SettingPayload,
} from '../plan/index.ts';
import { probePassword } from './password-probe.ts';

/**
 * The idempotency key of a command's attempt: the same attempt handed over twice is one message to a gateway
 * that deduplicates. The creation instant keeps keys apart across databases that reuse ids (a demo reset
 * with SMS_FILE kept). At most 36 characters (the Android gateway's limit on a message id).
 */
export function handOffKey(command: { id: number; createdAt: Date }, attempt: number): string {
  return `c${command.id}a${attempt}t${command.createdAt.getTime().toString(36)}`;
}

export type ProcessResult =
  | { state: 'idle' }
  | { state: 'sent'; commandId: number; replyDueAt: Date }
  | { state: 'waiting'; until: Date }
  | { state: 'gateway_failed'; commandId: number; retryAt: Date }
  /** No send token (the gateways' rate, a revocation first, or every allowed gateway down) until `until`. */
  | { state: 'throttled'; until: Date };

export function renderText(deps: QueueDeps, barrier: BarrierRow, command: CommandRow, now: Date): string {
  const password = devicePassword(deps, barrier);
  if (isWhitelistKind(command.kind)) {
    return renderCommand(barrier.model, commandFromJson(command.payload as PlannedCommandJson), password, {
      now,
      utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
      profile: barrier.profile,
    });
  }
  if (isReadKind(command.kind)) {
    const payload = command.payload as ReadCommandPayload;
    return renderReadQuery(barrier.model, payload.query, password, barrier.profile);
  }
  if (isProbeKind(command.kind)) {
    // The one command written with another password than the stored one (password-probe.ts).
    const payload = command.payload as PasswordProbePayload;
    const other = probePassword(deps, barrier, payload);
    if (other === null) throw new Error('The password to probe with is no longer known.');
    return renderReadQuery(barrier.model, payload.query, other, barrier.profile);
  }
  if (isConformanceKind(command.kind)) return renderConformanceStep(deps, barrier, command, password, now);
  const payload = command.payload as SettingPayload;
  const rendered = renderSetting(
    barrier.model,
    payload.setting,
    openSettingPayload(deps.secrets, payload),
    password,
  );
  if (!rendered.ok) throw new Error(`Setting ${payload.setting} no longer renders.`);
  return rendered.text;
}

/** A conformance run's step (issue 42): the model's own form, rendered as the engine renders it elsewhere. */
function renderConformanceStep(
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  password: string | null,
  now: Date,
): string {
  const { action } = (command.payload as ConformancePayload).step;
  if (action.form === 'read') return renderReadQuery(barrier.model, action.query, password, barrier.profile);
  if (action.form === 'ask') throw new Error('A step that asks the person sends nothing.');
  if (action.form === 'clock_trial') {
    const text = renderClockTrial(
      barrier.model,
      barrier.profile,
      action,
      password,
      now,
      deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
    );
    if (text === null) throw new Error('No trial window tells the two clock orders apart today.');
    return text;
  }
  if (action.form === 'whitelist')
    return renderConformanceWhitelist(
      barrier.model,
      barrier.profile,
      action.command,
      password,
      now,
      deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
    );
  // The password set to itself: the unit answers as to any change, and keeps the password it has.
  const rendered = renderSetting(barrier.model, action.setting, { new_password: password ?? '' }, password);
  if (!rendered.ok) throw new Error(`Setting ${action.setting} no longer renders.`);
  return rendered.text;
}

/**
 * A read that timed out with part of its range answered asks again for the missing slots only (issue 30
 * part 2): the span from the first to the last missing slot, the answered parts kept in `reply`.
 */
export function narrowedRead(barrier: BarrierRow, command: CommandRow): { payload?: ReadCommandPayload } {
  if (!isReadKind(command.kind) || !command.reply) return {};
  const payload = command.payload as ReadCommandPayload;
  const whole = payload.whole ?? payload.query;
  const { missing } = joinReadAnswer(barrier.model, payload, command.reply, '', barrier.profile);
  const first = missing[0];
  const last = missing.at(-1);
  if (whole.kind !== 'range' || first === undefined || last === undefined) return {};
  return { payload: { ...payload, whole, query: { kind: 'range', from: first, to: last } } };
}

/** An opening whose CC can no longer leave in time (`OPENING_SEND_WINDOW_MS` after the tap). */

export interface Step {
  result: ProcessResult;
  send?: PreparedSend['send'];
}

export interface PreparedSend {
  result: ProcessResult;
  send: {
    to: string;
    text: string;
    loggedText: string;
    key: string;
    commandId: number;
    /** The request that stored the command (its X-Request-Id), for the log lines of its sending. */
    requestId: string | null;
    attempts: number;
    storedAt: Date;
    /** The gateway (config name) whose token this attempt took. */
    gateway: string;
    model: DeviceModel;
    /**
     * A model that confirms a change by reading it back (`confirmation: 'read_back'`): the read of the changed
     * slot, sent right after the change as part of the same attempt (its answer confirms the command).
     */
    confirmRead?: { text: string; loggedText: string; key: string };
  };
}

/** The read that confirms a whitelist change on a `read_back` model, rendered (null: the model answers). */
function confirmReadOf(
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  attempt: number,
): PreparedSend['send']['confirmRead'] {
  if (!isWhitelistKind(command.kind)) return undefined;
  const query = confirmationQuery(barrier.model, commandFromJson(command.payload as PlannedCommandJson));
  if (query === null) return undefined;
  const text = renderReadQuery(barrier.model, query, devicePassword(deps, barrier), barrier.profile);
  return {
    text,
    loggedText: maskSecrets(text, deviceSecrets(deps, barrier, command)),
    key: `${handOffKey(command, attempt)}r`,
  };
}

export function renderAttempt(
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  attempt: number,
  now: Date,
): PreparedSend | null {
  let text: string;
  let confirmRead: PreparedSend['send']['confirmRead'];
  try {
    text = renderText(deps, barrier, command, now);
    confirmRead = confirmReadOf(deps, barrier, command, attempt);
  } catch (error) {
    deps.logger.error({ err: error, commandId: command.id }, 'device command cannot be rendered');
    return null;
  }
  return {
    result: {
      state: 'sent',
      commandId: command.id,
      replyDueAt: new Date(now.getTime() + deps.config.DEVICE_REPLY_TIMEOUT_MS),
    },
    send: {
      to: barrier.devicePhone,
      text,
      loggedText: maskSecrets(text, deviceSecrets(deps, barrier, command)),
      key: handOffKey(command, attempt),
      commandId: command.id,
      requestId: command.requestId,
      attempts: attempt,
      storedAt: command.createdAt,
      gateway: '',
      model: barrier.model,
      ...(confirmRead ? { confirmRead } : {}),
    },
  };
}
