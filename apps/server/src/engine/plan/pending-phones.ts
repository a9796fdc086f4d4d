/**
 * Phones waiting for their device (`phones.status = 'pending'`): a pending phone with no open whitelist
 * command for its slot is as its device should have it, and becomes `ok`. The outbox settles them after each
 * plan (outbox.ts), the worker after each reply (settle.ts).
 */
import type { PlannedCommandJson } from '@propusk/devices/planner';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands, phones } from '../../db/schema.ts';

/**
 * The slots open whitelist commands write or clear, as `settlePendingPhones`' `covered` reads them from the
 * stored payloads: a command's own slot, or each entry of a batch; adds, windowed adds and deletes only.
 */
export function slotsCovered(payloads: readonly PlannedCommandJson[]): Set<number> {
  const slots = new Set<number>();
  for (const payload of payloads) {
    const raw = payload as unknown as { kind?: unknown; slot?: unknown; entries?: unknown };
    if (raw.kind !== 'add' && raw.kind !== 'add_window' && raw.kind !== 'delete') continue;
    if (raw.slot !== undefined && raw.slot !== null) slots.add(Number(raw.slot));
    if (Array.isArray(raw.entries))
      for (const entry of raw.entries as { slot?: unknown }[])
        if (entry?.slot !== undefined && entry.slot !== null) slots.add(Number(entry.slot));
  }
  return slots;
}

/**
 * A pending phone with no command on its way for its slot is as the device should have it (e.g. a
 * temporary phone on a model without windows, before its start): it is `ok`. Returns the ids it settled.
 */
export async function settlePendingPhones(
  executor: Executor,
  barrierId: number,
  now: Date,
  /** Phones whose command was queued just now: marked pending in the same statement, never settled by it. */
  markPending: readonly number[] = [],
): Promise<number[]> {
  // The slots the barrier's open whitelist commands write or clear (a batch: each of its entries), once per
  // statement, then one anti-join with its pending phones. Checked per phone (each pending phone against every
  // open command's payload) it grew with pending phones × open commands: 15 ms a call under the mixed load,
  // half of PostgreSQL's time, when a queue had a few hundred commands waiting. The phones to mark pending are
  // updated by a data-modifying CTE of the same statement (one round trip less under the barrier lock); the
  // settle leaves them out, so no row is updated twice.
  const marked = markPending.length > 0 ? [...markPending] : [0];
  const result = (await executor.execute(sql`
    with covered as materialized (
      select (c.payload->>'slot')::int as slot from ${deviceCommands} c
      where c.barrier_id = ${barrierId} and c.status in ('queued', 'sent')
        and c.kind in ('add', 'add_window', 'delete') and c.payload ? 'slot'
      union
      select (e.value->>'slot')::int from ${deviceCommands} c
      cross join lateral jsonb_array_elements(case when jsonb_typeof(c.payload->'entries') = 'array'
        then c.payload->'entries' else '[]'::jsonb end) e
      where c.barrier_id = ${barrierId} and c.status in ('queued', 'sent')
        and c.kind in ('add', 'add_window', 'delete')
    ),
    marked as (
      update ${phones} set status = 'pending', updated_at = ${now}
      where ${phones.id} = any(${sql.param(marked)}::int[]) returning 1
    )
    update ${phones} set status = 'ok', updated_at = ${now}
    where ${phones.barrierId} = ${barrierId} and ${phones.isActive} and ${phones.status} = 'pending'
      and ${phones.id} <> all(${sql.param(marked)}::int[])
      and not exists (select 1 from covered where covered.slot = ${phones.slot})
    returning ${phones.id} as id`)) as unknown as { rows: { id: number | string }[] };
  return result.rows.map((row) => Number(row.id));
}

/** SQL: command row `c` (alias) writes or clears `slot`: its own slot, or one of a batch's entries. */
export function commandCoversSlot(c: ReturnType<typeof sql>, slot: unknown) {
  return sql`((${c}.payload->>'slot')::int = ${slot} or exists (
    select 1 from jsonb_array_elements(case when jsonb_typeof(${c}.payload->'entries') = 'array'
      then ${c}.payload->'entries' else '[]'::jsonb end) ce where (ce.value->>'slot')::int = ${slot}))`;
}
