/**
 * The relay's commands in the device queue (issue 16; docs/decisions/0019-relay.md). Four kinds, each a setting
 * of the model's sheet (payload `{setting, params}` like a `setting` command, plus what it belongs to):
 *
 * - `relay_hold` (payload `hold_id`): the emergency hold's GOT999 and CC;
 * - `relay_release` (payload `hold_id`): its end, DD and the relay time restored;
 * - `relay_open` (payload `opening_id`): an opening's CC;
 * - `relay_open_off` (payload `opening_id`, `off_after_seconds`): the DD that follows it, scheduled
 *   (`next_attempt_at`) that many seconds after the CC is settled.
 *
 * Order within a barrier (queue.ts `oldestOpenCommand`): the command in flight, then hold and release, then
 * openings that are due, then everything else (revocations and adds in the planner's order), then an
 * opening's OFF that is not due yet. Across barriers (the sweep): a barrier with a hold or release first.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands, gateOpenings } from '../../db/schema.ts';
import { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from '../devices/device-log.ts';

export const HOLD_KINDS = ['relay_hold', 'relay_release'] as const;
export const OPENING_KINDS = ['relay_open', 'relay_open_off'] as const;
export const RELAY_KINDS = [...HOLD_KINDS, ...OPENING_KINDS] as const;

/** An opening not handed to the gateway within this time is failed, never sent late: a gate opening 20 minutes after the tap is dangerous. */
export const OPENING_SEND_WINDOW_MS = 2 * 60_000;
/** Longest wait between two attempts of a hold's command: it is retried until confirmed or the hold ends. */
export const HOLD_RETRY_MAX_MS = 2 * 60_000;

export interface RelayPayload {
  setting: string;
  params: Record<string, string>;
  hold_id?: number;
  opening_id?: number;
  off_after_seconds?: number;
}

export const isRelayKind = (kind: string) => (RELAY_KINDS as readonly string[]).includes(kind);

/** The rank of a command in its barrier's queue (lower first; ties by id). */
export function queueRankSql(now: Date) {
  return sql`case
    when ${deviceCommands.status} = 'sent' then 0
    when ${deviceCommands.kind} in ('relay_hold', 'relay_release') then 1
    when ${deviceCommands.kind} in ('relay_open', 'relay_open_off')
      and coalesce(${deviceCommands.nextAttemptAt}, ${now}) <= ${now} then 2
    when ${deviceCommands.kind} = 'relay_open_off' then 4
    else 3 end`;
}

/** The reason an opening's command failed, as the logs show it. */
export const OPENING_EXPIRED = 'opening not sent in time';

function failureOf(reason: string): string {
  if (reason === OPENING_EXPIRED) return 'expired';
  if (reason === DEVICE_REFUSED_PASSWORD) return 'wrong_password';
  if (reason === DEVICE_NOT_UNDERSTOOD) return 'not_understood';
  return 'no_reply';
}

/** The OFF of an opening: due `off_after_seconds` from now (the CC is settled), or cancelled (it never left). */
async function scheduleOpeningOff(tx: Executor, openingId: number, now: Date, cancel: boolean) {
  const offs = await tx
    .select({ id: deviceCommands.id, payload: deviceCommands.payload })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.kind, 'relay_open_off'),
        eq(deviceCommands.status, 'queued'),
        sql`(${deviceCommands.payload}->>'opening_id')::int = ${openingId}`,
      ),
    );
  for (const off of offs) {
    const after = (off.payload as RelayPayload).off_after_seconds ?? 0;
    await tx
      .update(deviceCommands)
      .set(
        cancel
          ? { status: 'cancelled', finishedAt: now, nextAttemptAt: null }
          : { nextAttemptAt: new Date(now.getTime() + after * 1000) },
      )
      .where(eq(deviceCommands.id, off.id));
  }
}

/** Called by the queue, in its transaction, when a relay command is confirmed or failed. */
export async function relayCommandSettled(
  tx: Executor,
  command: { id: number; kind: string; payload: unknown; attempts: number },
  outcome: { confirmed: true } | { confirmed: false; reason: string },
  now: Date,
): Promise<void> {
  if (command.kind !== 'relay_open') return;
  const payload = command.payload as RelayPayload;
  if (payload.opening_id === undefined) return;
  await tx
    .update(gateOpenings)
    .set(
      outcome.confirmed
        ? { status: 'confirmed', confirmedAt: now, failure: null }
        : { status: 'failed', failure: failureOf(outcome.reason) },
    )
    .where(eq(gateOpenings.id, payload.opening_id));
  // The device may have heard a CC whose answer was lost: its OFF still follows. One never sent: no OFF.
  await scheduleOpeningOff(tx, payload.opening_id, now, !outcome.confirmed && command.attempts === 0);
}

/**
 * Cancels a barrier's openings that have not left (a hold starts: an opening's DD would close the held gate).
 * The command in flight is left to finish.
 */
export async function cancelPendingOpenings(tx: Executor, barrierId: number, now: Date): Promise<void> {
  const pending = await tx
    .update(deviceCommands)
    .set({ status: 'cancelled', finishedAt: now, nextAttemptAt: null, lastError: 'cancelled' })
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        inArray(deviceCommands.kind, [...OPENING_KINDS]),
        eq(deviceCommands.status, 'queued'),
      ),
    )
    .returning({ kind: deviceCommands.kind, payload: deviceCommands.payload });
  const openingIds = pending
    .filter((row) => row.kind === 'relay_open')
    .map((row) => (row.payload as RelayPayload).opening_id)
    .filter((id): id is number => id !== undefined);
  if (openingIds.length > 0)
    await tx
      .update(gateOpenings)
      .set({ status: 'failed', failure: 'cancelled' })
      .where(and(inArray(gateOpenings.id, openingIds), eq(gateOpenings.status, 'sent')));
}
