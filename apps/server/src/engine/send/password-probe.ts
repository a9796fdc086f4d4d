/**
 * Password changes cannot strand a unit (issue 30 item 4, docs/decisions/0025). A unit with a wrong password
 * answers nothing (King Pigeon RTU5023–5029 manual v2.5, p. 8, note 7), and some operators never deliver the
 * answer to a password change although the unit made it (note 6): the server then speaks an old password to
 * a unit that holds the new one, and every later command goes unanswered.
 *
 * So the engine keeps both passwords until a change is confirmed (`barriers.device_password_pending_encrypted`)
 * and the previous one for a week after (`device_password_previous_encrypted`, `device_password_changed_at`).
 * When a command goes unanswered while one of those is known, it sends one read with the other password (the
 * model's cheapest read: `passwordProbeQuery`, one SMS) ahead of the queue. An answer proves the unit holds
 * that password: it becomes the stored one, and what waited goes out again with it (settled by the reply:
 * reply/probed-password.ts). No answer: the probe fails, nothing changes, and another probe is sent only after
 * `PROBE_AGAIN_AFTER_MS` or a confirmed reply.
 */

import { commandEntries, commandFromJson, type PlannedCommandJson } from '@propusk/devices/planner';
import { passwordProbeQuery, querySlots } from '@propusk/devices/readback';
import { and, eq, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands } from '../../db/schema.ts';
import type {
  BarrierRow,
  CommandRow,
  PasswordProbePayload,
  QueueDeps,
  ReadCommandPayload,
} from '../plan/index.ts';
import { isProbeKind, isReadKind, isWhitelistKind, PASSWORD_PROBE_KIND } from '../plan/index.ts';
import { REPLY_WINDOW_MS } from '../reply/index.ts';

/** How long after a change took effect the previous password is still tried. */
export const PREVIOUS_PASSWORD_KEPT_MS = 7 * 24 * 60 * 60_000;
/** A probe that got no answer is not sent again before this, unless a reply proved the stored password. */
export const PROBE_AGAIN_AFTER_MS = 6 * 60 * 60_000;

/** The other password the unit may hold now: an unconfirmed change's first, else a recent previous one. */
export function otherPassword(
  barrier: Pick<BarrierRow, 'pendingPasswordEncrypted' | 'previousPasswordEncrypted' | 'passwordChangedAt'>,
  now: Date,
): { which: 'pending' | 'previous'; encrypted: string } | null {
  if (barrier.pendingPasswordEncrypted)
    return { which: 'pending', encrypted: barrier.pendingPasswordEncrypted };
  const changedAt = barrier.passwordChangedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (barrier.previousPasswordEncrypted && now.getTime() - changedAt <= PREVIOUS_PASSWORD_KEPT_MS)
    return { which: 'previous', encrypted: barrier.previousPasswordEncrypted };
  return null;
}

/** The password a probe is written with (null: the barrier no longer knows it; the probe cannot be sent). */
export function probePassword(
  deps: Pick<QueueDeps, 'secrets'>,
  barrier: BarrierRow,
  payload: PasswordProbePayload,
): string | null {
  const encrypted =
    payload.password === 'pending' ? barrier.pendingPasswordEncrypted : barrier.previousPasswordEncrypted;
  return encrypted ? deps.secrets.decrypt(encrypted) : null;
}

/**
 * Called when `command`'s reply is overdue: queues a probe with the other password when one is known and
 * none was tried since the unit last answered (or within `PROBE_AGAIN_AFTER_MS`). True: a probe was queued.
 */
export async function probeIfPasswordInDoubt(
  tx: Executor,
  barrier: BarrierRow,
  command: CommandRow,
  now: Date,
): Promise<boolean> {
  if (isProbeKind(command.kind)) return false;
  const other = otherPassword(barrier, now);
  if (!other) return false;
  const recentlySent = await answerableAbout(tx, barrier.id, now);
  const query = passwordProbeQuery(barrier.model, recentlySent.slots);
  // A list read's answer cannot say which password it was asked with: no probe while one may still come.
  if (!query || (query.kind === 'list' && recentlySent.unansweredList)) return false;
  const lastConfirmed = sql`(select max(c.finished_at) from ${deviceCommands} c
    where c.barrier_id = ${barrier.id} and c.status = 'confirmed')`;
  const [recent] = await tx
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrier.id),
        eq(deviceCommands.kind, PASSWORD_PROBE_KIND),
        or(
          inArray(deviceCommands.status, ['queued', 'sent']),
          and(
            gte(deviceCommands.createdAt, new Date(now.getTime() - PROBE_AGAIN_AFTER_MS)),
            sql`${deviceCommands.createdAt} > coalesce(${lastConfirmed}, '-infinity'::timestamptz)`,
          ),
        ),
      ),
    )
    .limit(1);
  if (recent) return false;
  const payload: PasswordProbePayload = { password: other.which, query };
  await tx
    .insert(deviceCommands)
    .values({ barrierId: barrier.id, kind: PASSWORD_PROBE_KIND, payload, createdAt: now });
  return true;
}

/**
 * What the unit may still answer about (issue 30 item 4; docs/decisions/0025, session audit30): the slots named
 * by the barrier's commands sent within the reply window — a change's slots, a read's range — whatever became
 * of them (a late answer or a second delivery of an answered one may still come), and whether a list read is
 * still unanswered. A probe reads none of those slots, so an answer to one of those commands, written with the
 * stored password, can never be taken for the probe's and adopt the other password.
 */
async function answerableAbout(
  tx: Executor,
  barrierId: number,
  now: Date,
): Promise<{ slots: Set<number>; unansweredList: boolean }> {
  const rows = await tx
    .select({ kind: deviceCommands.kind, status: deviceCommands.status, payload: deviceCommands.payload })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        isNotNull(deviceCommands.sentAt),
        or(
          inArray(deviceCommands.status, ['queued', 'sent']),
          gte(deviceCommands.sentAt, new Date(now.getTime() - REPLY_WINDOW_MS)),
        ),
      ),
    );
  const slots = new Set<number>();
  let unansweredList = false;
  for (const row of rows) {
    if (isWhitelistKind(row.kind)) {
      for (const entry of commandEntries(commandFromJson(row.payload as PlannedCommandJson)))
        slots.add(entry.slot);
    } else if (isReadKind(row.kind) || isProbeKind(row.kind)) {
      const payload = row.payload as ReadCommandPayload | PasswordProbePayload;
      const whole = ('whole' in payload ? payload.whole : undefined) ?? payload.query;
      for (const slot of querySlots(whole)) slots.add(slot);
      if (whole.kind === 'list' && row.status !== 'confirmed') unansweredList = true;
    }
  }
  return { slots, unansweredList };
}
