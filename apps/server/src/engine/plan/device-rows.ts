/**
 * The engine's view of a barrier's device and of its command rows: the barrier's model, number and password,
 * which kind of command a row is, the secrets a text to or from the device may carry, and the head of a
 * barrier's queue. Shared by the sending, settling and reply files of the engine.
 */
import { type DeviceModel, isDeviceModel } from '@propusk/devices/models';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import { PASSWORD_PROBE_KIND } from '@propusk/devices/reply';
import { changesPasswordTo } from '@propusk/devices/settings';
import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barriers, deviceCommands } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { queueRankSql } from './command-kinds.ts';
import { WHITELIST_COMMAND_KINDS } from './device-state.ts';
import { openSettingPayload, type SettingPayload } from './setting-payload.ts';

export type QueueDeps = Pick<
  Dependencies,
  | 'db'
  | 'sendDb'
  | 'clock'
  | 'config'
  | 'secrets'
  | 'sms'
  | 'smsGateways'
  | 'logger'
  | 'metrics'
  | 'engineHooks'
>;

export type CommandRow = typeof deviceCommands.$inferSelect;

export interface BarrierRow {
  id: number;
  model: DeviceModel;
  devicePhone: string;
  passwordEncrypted: string | null;
  /** The other passwords the unit may hold (password-probe.ts): an unconfirmed change's, the previous one. */
  pendingPasswordEncrypted?: string | null;
  previousPasswordEncrypted?: string | null;
  passwordChangedAt?: Date | null;
  /** The barrier's device profile (number form, extra reply forms). */
  profile?: DeviceProfileOverride | null;
  /** When its unit first confirmed a command (the number is then this barrier's); null: never yet. */
  deviceConfirmedAt?: Date | null;
}

export const barrierColumns = {
  id: barriers.id,
  model: barriers.deviceModel,
  devicePhone: barriers.devicePhone,
  passwordEncrypted: barriers.devicePasswordEncrypted,
  pendingPasswordEncrypted: barriers.devicePasswordPendingEncrypted,
  previousPasswordEncrypted: barriers.devicePasswordPreviousEncrypted,
  passwordChangedAt: barriers.devicePasswordChangedAt,
  profile: barriers.deviceProfile,
  deviceConfirmedAt: barriers.deviceConfirmedAt,
};

export function toBarrierRow(row: {
  id: number;
  model: string;
  devicePhone: string;
  passwordEncrypted: string | null;
  pendingPasswordEncrypted?: string | null;
  previousPasswordEncrypted?: string | null;
  passwordChangedAt?: Date | null;
  profile: unknown;
  deviceConfirmedAt?: Date | null;
}): BarrierRow | null {
  if (!isDeviceModel(row.model)) return null;
  return { ...row, model: row.model, profile: (row.profile as DeviceProfileOverride | null) ?? null };
}

/** The barrier's device; with `lock`, under the barrier's row lock too (lockBarrier and this in one statement). */
export async function loadBarrier(
  executor: Executor,
  barrierId: number,
  options: { lock?: boolean } = {},
): Promise<BarrierRow | null> {
  // Built once per database (db/prepared.ts): it runs in every transaction of the device pipeline.
  const select = () =>
    executor
      .select(barrierColumns)
      .from(barriers)
      .where(eq(barriers.id, sql.placeholder('barrierId')));
  // The barrier lock's mode (lockBarrier, outbox.ts).
  const statement = options.lock
    ? preparedStatement(executor, 'device.barrier.lock', () => select().for('no key update'))
    : preparedStatement(executor, 'device.barrier', select);
  const [row] = await statement.execute({ barrierId });
  return row ? toBarrierRow(row) : null;
}

export const isWhitelistKind = (kind: string) =>
  (WHITELIST_COMMAND_KINDS as readonly string[]).includes(kind);
/** A read-back query of "Проверить устройство" (modules/device-checks). */
export const isReadKind = (kind: string) => kind === 'read';
/** A read with the other password the unit may hold (password-probe.ts); the kind's name is the package's. */
export { PASSWORD_PROBE_KIND };
export const isProbeKind = (kind: string) => kind === PASSWORD_PROBE_KIND;
/**
 * A step of a conformance run (modules/conformance, issue 42): one form of the model sent once, its payload
 * `ConformancePayload`; any reply while it is in flight is its answer, none after one attempt is its verdict.
 */
export const CONFORMANCE_KIND = 'conformance';
export const isConformanceKind = (kind: string) => kind === CONFORMANCE_KIND;
/** A setting (a relay command included): neither a whitelist change, nor a read, nor a probe, nor a run's step. */
export const isSettingKind = (kind: string) =>
  !isWhitelistKind(kind) && !isReadKind(kind) && !isProbeKind(kind) && !isConformanceKind(kind);

export function devicePassword(deps: Pick<QueueDeps, 'secrets'>, barrier: BarrierRow): string | null {
  return barrier.passwordEncrypted ? deps.secrets.decrypt(barrier.passwordEncrypted) : null;
}

/**
 * The secrets a text to or from the device may carry: its password, the other passwords it may hold (an
 * unconfirmed change's, the previous one: a probe carries them), and the new password of a password change
 * (in the command, and in the device's confirmation).
 */
export function deviceSecrets(
  deps: Pick<QueueDeps, 'secrets'>,
  barrier: BarrierRow,
  command?: CommandRow,
): string[] {
  const secrets: string[] = [];
  const password = devicePassword(deps, barrier);
  if (password) secrets.push(password);
  for (const other of [barrier.pendingPasswordEncrypted, barrier.previousPasswordEncrypted])
    if (other) secrets.push(deps.secrets.decrypt(other));
  if (command && isSettingKind(command.kind)) {
    const payload = command.payload as SettingPayload;
    try {
      const newPassword = changesPasswordTo(
        barrier.model,
        payload.setting,
        openSettingPayload(deps.secrets, payload),
      );
      if (newPassword) secrets.push(newPassword);
    } catch {
      // A payload that no longer opens carries nothing to mask.
    }
  }
  return secrets;
}

/**
 * The command in flight, or the next to send: an emergency hold's (or its end's) first, then a due opening,
 * then the rest in the order stored (command-kinds.ts `queueRankSql`). A hold's command waits for at most
 * the one command already in flight.
 */
export async function oldestOpenCommand(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<CommandRow | undefined> {
  const [row] = await executor
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.barrierId, barrierId), inArray(deviceCommands.status, ['queued', 'sent'])))
    .orderBy(queueRankSql(now), asc(deviceCommands.id))
    .limit(1);
  return row;
}

/** The slot a command writes (null: none, as a setting). */
export const slotOf = (command: CommandRow): number | null =>
  isWhitelistKind(command.kind) ? ((command.payload as { slot?: number }).slot ?? null) : null;

/**
 * A barrier never confirmed by its unit whose device number a unit confirmed on another live barrier: the
 * first confirmed wins, this one's commands are not sent (issue 40 item 4, docs/decisions/0030).
 */
export async function displacedByConfirmedUnit(executor: Executor, barrier: BarrierRow): Promise<boolean> {
  if (barrier.deviceConfirmedAt != null) return false;
  const [row] = await executor
    .select({ id: barriers.id })
    .from(barriers)
    .where(
      and(
        eq(barriers.devicePhone, barrier.devicePhone),
        ne(barriers.id, barrier.id),
        isNull(barriers.deletedAt),
        isNotNull(barriers.deviceConfirmedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Marks the barrier's number as its unit's on the first confirmed command (`displacedByConfirmedUnit`). */
export async function markDeviceConfirmed(executor: Executor, barrier: BarrierRow, now: Date): Promise<void> {
  if (barrier.deviceConfirmedAt != null) return;
  await executor
    .update(barriers)
    .set({ deviceConfirmedAt: now })
    .where(and(eq(barriers.id, barrier.id), isNull(barriers.deviceConfirmedAt)));
}
