/**
 * The relay's command kinds in the device queue (issue 16; docs/decisions/0019-relay.md) as the engine orders
 * and retries them. Four kinds, each a setting of the model's sheet (payload `{setting, params}` like a
 * `setting` command, plus what it belongs to):
 *
 * - `relay_hold` (payload `hold_id`): the emergency hold's GOT999 and CC;
 * - `relay_release` (payload `hold_id`): its end, DD and the relay time restored;
 * - `relay_open` (payload `opening_id`): an opening's CC;
 * - `relay_open_off` (payload `opening_id`, `off_after_seconds`): the DD that follows it, scheduled
 *   (`next_attempt_at`) that many seconds after the CC is settled.
 *
 * Order within a barrier (device-rows.ts `oldestOpenCommand`): the command in flight, then hold and release,
 * then openings that are due, then everything else (revocations and adds in the planner's order), then an
 * opening's OFF that is not due yet. Across barriers (the sweep): a barrier with a hold or release first.
 * What an opening's or a hold's outcome means for the gate is the relay module's (modules/relay/commands.ts,
 * told through hooks.ts).
 */
import { sql } from 'drizzle-orm';
import { deviceCommands } from '../../db/schema.ts';

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

/**
 * The rank of a command in its barrier's queue (lower first; ties by id). A password probe goes with the
 * holds: until it is answered, nothing else the unit is sent can be heard (password-probe.ts).
 */
export function queueRankSql(now: Date) {
  return sql`case
    when ${deviceCommands.status} = 'sent' then 0
    when ${deviceCommands.kind} in ('relay_hold', 'relay_release', 'password_probe') then 1
    when ${deviceCommands.kind} in ('relay_open', 'relay_open_off')
      and coalesce(${deviceCommands.nextAttemptAt}, ${now}) <= ${now} then 2
    when ${deviceCommands.kind} = 'relay_open_off' then 4
    else 3 end`;
}

/** The reason an opening's command failed, as the logs show it. */
export const OPENING_EXPIRED = 'opening not sent in time';
