/**
 * A password probe answered (send/password-probe.ts sends it, docs/decisions/0025): the unit holds the probe's
 * password, which becomes the stored one; the probes not sent yet are moot once the password is settled, and
 * the phones that failed meanwhile go again. Settled here, with the reply that proves it (settle.ts), and by a
 * declared factory reset (modules/device-checks).
 */

import { getSheet } from '@propusk/devices/models';
import { and, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, deviceCommands, phones } from '../../db/schema.ts';
import type { BarrierRow, CommandRow, PasswordProbePayload, QueueDeps } from '../plan/index.ts';
import { PASSWORD_PROBE_KIND, syncBarrierDevice } from '../plan/index.ts';

/** A probe not sent yet is moot once the password is settled another way (a change confirmed, a reset declared). */
export async function cancelQueuedProbes(tx: Executor, barrierId: number, now: Date): Promise<void> {
  await tx
    .update(deviceCommands)
    .set({ status: 'cancelled', finishedAt: now, nextAttemptAt: null })
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        eq(deviceCommands.kind, PASSWORD_PROBE_KIND),
        eq(deviceCommands.status, 'queued'),
      ),
    );
}

/** The model's settings that change the password (their open commands are settled when a probe adopts one). */
const passwordSettingIds = (barrier: BarrierRow) =>
  Object.entries(getSheet(barrier.model).settings)
    .filter(([, setting]) => setting.effect === 'change_password')
    .map(([id]) => id);

/**
 * The unit answered the probe: it holds the probe's password. That password becomes the stored one (the one it
 * replaces kept as the previous one); a password change still open, or failed within the last day, is settled
 * as confirmed (the unit made it); the commands waiting for a retry go out now; phones whose command failed
 * meanwhile are retried.
 */
export async function adoptProbedPassword(
  tx: Executor,
  deps: Pick<QueueDeps, 'clock' | 'config'>,
  barrier: BarrierRow,
  command: CommandRow,
  now: Date,
): Promise<void> {
  const payload = command.payload as PasswordProbePayload;
  const adopted =
    payload.password === 'pending' ? barrier.pendingPasswordEncrypted : barrier.previousPasswordEncrypted;
  if (!adopted) return;
  await tx
    .update(barriers)
    .set({
      devicePasswordEncrypted: adopted,
      devicePasswordPendingEncrypted: null,
      devicePasswordPreviousEncrypted: barrier.passwordEncrypted,
      devicePasswordChangedAt: now,
      updatedAt: now,
    })
    .where(eq(barriers.id, barrier.id));
  const settings = passwordSettingIds(barrier);
  if (payload.password === 'pending' && settings.length > 0) {
    await tx
      .update(deviceCommands)
      .set({ status: 'confirmed', finishedAt: now, nextAttemptAt: null, lastError: null })
      .where(
        and(
          eq(deviceCommands.barrierId, barrier.id),
          eq(deviceCommands.kind, 'setting'),
          sql`${deviceCommands.payload}->>'setting' in (${sql.join(
            settings.map((id) => sql`${id}`),
            sql`, `,
          )})`,
          or(
            inArray(deviceCommands.status, ['queued', 'sent']),
            and(
              eq(deviceCommands.status, 'failed'),
              gt(deviceCommands.finishedAt, new Date(now.getTime() - 24 * 60 * 60_000)),
            ),
          ),
        ),
      );
  }
  await tx
    .update(deviceCommands)
    .set({ nextAttemptAt: null })
    .where(and(eq(deviceCommands.barrierId, barrier.id), eq(deviceCommands.status, 'queued')));
  await retryPhonesInError(tx, deps, barrier.id, now);
}

/**
 * Phones whose command failed while the unit and the server disagreed on the password go again (as the
 * administrator's «Повторить» would): the barrier is planned again with their slots retried. Returns the
 * commands queued.
 */
export async function retryPhonesInError(
  tx: Executor,
  deps: Pick<QueueDeps, 'clock' | 'config'>,
  barrierId: number,
  now: Date,
): Promise<number> {
  const retried = await tx
    .update(phones)
    .set({ status: 'pending', updatedAt: now })
    .where(
      and(
        eq(phones.barrierId, barrierId),
        eq(phones.isActive, true),
        eq(phones.status, 'error'),
        isNotNull(phones.slot),
      ),
    )
    .returning({ slot: phones.slot });
  const retrySlots = retried.flatMap((row) => (row.slot === null ? [] : [row.slot]));
  return syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: false, retrySlots });
}
