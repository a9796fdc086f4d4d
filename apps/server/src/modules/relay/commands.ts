/**
 * What the relay's commands (engine/plan/command-kinds.ts) mean for the gate (issue 16; docs/decisions/0019-relay.md):
 * an opening confirmed or failed, its OFF scheduled or cancelled, openings cancelled when a hold starts. The
 * engine tells this module of a settled command through its hook `relayCommandSettled` (src/domain-hooks.ts).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands, gateOpenings } from '../../db/schema.ts';
import { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from '../../engine/log/index.ts';
import { OPENING_EXPIRED, OPENING_KINDS, type RelayPayload } from '../../engine/plan/index.ts';

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

/** Told by the engine (hooks.ts), in its transaction, when a command is confirmed or failed. */
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
