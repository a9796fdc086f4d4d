/**
 * The SMS gateways device commands go through, and their send rate (issue 15 parts 1 and 4).
 *
 * Each gateway has a token bucket row in `sms_gateway_buckets`, shared by every server process on the
 * database. A send takes one token in ONE statement (`takeSendToken`): it refills the bucket by the time
 * elapsed (`rate_per_minute`, up to `burst`), picks among the allowed gateways the one with the most tokens,
 * and takes a token only if one is there — under the row lock that UPDATE holds, so processes together never
 * exceed a gateway's rate. The same statement refuses an add while a revocation is ready to be sent
 * anywhere: a revocation never waits behind an add for a token (docs/decisions/0020).
 *
 * A gateway that fails is marked down (`down_until`) for every process; its commands go through another.
 */
import { type DeviceModel, getSheet } from '@propusk/devices/models';
import type { SmsGateway } from '@propusk/sms/gateway';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config/config.ts';
import type { Database, Executor } from '../../db/database.ts';
import type { GatewayEntry } from '../../lib/sms-gateway.ts';

export type { GatewayEntry };

/** How long a gateway that failed is left out before it is tried again. */
export const GATEWAY_DOWN_MS = 60_000;

/**
 * The gateways of a process: `deps.smsGateways` when several are configured (main.ts builds them from
 * SMS_GATEWAYS), else the one `deps.sms` at SMS_RATE_PER_MINUTE / SMS_RATE_BURST.
 */
export function gatewaysOf(deps: {
  sms: SmsGateway;
  smsGateways?: GatewayEntry[] | undefined;
  config: Pick<Config, 'SMS_RATE_PER_MINUTE' | 'SMS_RATE_BURST' | 'SMS_PROVIDER'>;
}): GatewayEntry[] {
  if (deps.smsGateways && deps.smsGateways.length > 0) return deps.smsGateways;
  return [
    {
      name: deps.config.SMS_PROVIDER,
      gateway: deps.sms,
      ratePerMinute: deps.config.SMS_RATE_PER_MINUTE,
      burst: deps.config.SMS_RATE_BURST,
    },
  ];
}

/**
 * True when the device only obeys the number it knows (its sender must stay the same). Models without a
 * password authenticate by the caller: Telemetrica (SimPal family) takes commands from the number registered
 * with `#0#` (DEVICE-EVIDENCE.md, Telemetrica; SimPal T40 manual, mcgrp.ru 913418 p. 10 — inferred). The
 * RTU5025/RTU5024 take any sender that knows the password (RTU5025 manual v1.5 pp. 10–11) and answer the
 * number that wrote, which the server matches by the device's number whatever gateway received it.
 */
export function needsKnownSender(model: DeviceModel): boolean {
  return !getSheet(model).hasPassword;
}

const ensured = new WeakMap<object, string>();

/** Writes each gateway's rate and burst into its bucket (a new bucket starts full). Once per database handle. */
export async function ensureBuckets(
  db: Database,
  executor: Executor,
  entries: GatewayEntry[],
  now: Date,
): Promise<void> {
  const signature = entries.map((entry) => `${entry.name}:${entry.ratePerMinute}:${entry.burst}`).join(',');
  if (ensured.get(db) === signature) return;
  for (const entry of entries) {
    await executor.execute(sql`
      insert into sms_gateway_buckets (name, rate_per_minute, burst, tokens, refilled_at)
      values (${entry.name}, ${entry.ratePerMinute}, ${entry.burst}, ${entry.burst}, ${now.toISOString()}::timestamptz)
      on conflict (name) do update
        set rate_per_minute = excluded.rate_per_minute, burst = excluded.burst,
            tokens = least(sms_gateway_buckets.tokens, excluded.burst)`);
  }
  ensured.set(db, signature);
}

export type TakeResult =
  | { ok: true; name: string }
  | {
      ok: false;
      /** When to try again: the next token of an allowed gateway that is up, or the end of its down spell. */
      retryAt: Date;
      reason: 'rate' | 'down' | 'more_urgent_first';
    };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * How urgent a command is for a send token: an emergency hold or its end (issue 16) before everything, then a
 * revocation, then the rest. A command gets no token while a more urgent one of another barrier is ready.
 */
export type SendRank = 'hold' | 'revocation' | 'other';

export const sendRankOf = (kind: string): SendRank =>
  kind === 'relay_hold' || kind === 'relay_release' ? 'hold' : kind === 'delete' ? 'revocation' : 'other';

/**
 * SQL: how many commands more urgent than `rank` are ready to be sent on other barriers: hold commands whose
 * barrier has nothing in flight (holds go before the barrier's queue), and, for the rest, revocations at the
 * head of their barrier's queue. A hold counts none.
 */
function moreUrgentWaiting(rank: SendRank, barrierId: number, at: string) {
  if (rank === 'hold') return sql`0`;
  const holds = sql`(select count(*) from device_commands d
    where d.status = 'queued' and d.kind in ('relay_hold', 'relay_release') and d.barrier_id <> ${barrierId}
      and (d.next_attempt_at is null or d.next_attempt_at <= ${at}::timestamptz)
      and not exists (select 1 from device_commands e where e.barrier_id = d.barrier_id and e.status = 'sent'))`;
  if (rank === 'revocation') return holds;
  return sql`(${holds} + (select count(*) from device_commands d
    where d.status = 'queued' and d.kind = 'delete' and d.barrier_id <> ${barrierId}
      and (d.next_attempt_at is null or d.next_attempt_at <= ${at}::timestamptz)
      and not exists (
        select 1 from device_commands e
        where e.barrier_id = d.barrier_id and e.status in ('queued', 'sent') and e.id < d.id)))`;
}

/**
 * Takes one send token from the allowed gateway (by name) that has the most, in one statement. The tokens
 * there are kept for the more urgent commands ready on other barriers (`moreUrgentWaiting`): a command takes
 * one only when one is left over for each of them, so none of them ever waits behind it.
 */
export async function takeSendToken(
  executor: Executor,
  options: { names: string[]; now: Date; rank: SendRank; barrierId: number },
): Promise<TakeResult> {
  const { names, now, rank, barrierId } = options;
  const at = now.toISOString();
  const namesLiteral = `{${names.map((name) => `"${name}"`).join(',')}}`;
  for (let round = 0; round < 3; round++) {
    const taken = rowsOf<{ name: string }>(
      await executor.execute(sql`
        with pick as (
          select name,
            least(burst, tokens + greatest(0, extract(epoch from (${at}::timestamptz - refilled_at)))
              * rate_per_minute / 60.0) as available
          from sms_gateway_buckets
          where name = any(${namesLiteral}::text[]) and (down_until is null or down_until <= ${at}::timestamptz)
          order by available desc, sent, name
          limit 1
          for update
        )
        update sms_gateway_buckets b
        set tokens = pick.available - 1, refilled_at = greatest(b.refilled_at, ${at}::timestamptz),
            sent = b.sent + 1
        from pick
        where b.name = pick.name and pick.available >= 1 + ${moreUrgentWaiting(rank, barrierId, at)}
        returning b.name`),
    );
    if (taken[0]) return { ok: true, name: taken[0].name };
    // Why not: read the buckets (a refusal only; a take is the one statement above).
    const buckets = rowsOf<{
      name: string;
      available: number;
      rate: number;
      down_until: string | Date | null;
    }>(
      await executor.execute(sql`
        select name, rate_per_minute as rate, down_until,
          least(burst, tokens + greatest(0, extract(epoch from (${at}::timestamptz - refilled_at)))
            * rate_per_minute / 60.0) as available
        from sms_gateway_buckets where name = any(${namesLiteral}::text[])`),
    );
    if (buckets.length === 0) {
      // Its bucket is not there for this transaction yet (another one wrote it and has not committed).
      return { ok: false, reason: 'rate', retryAt: new Date(now.getTime() + 1000) };
    }
    const up = buckets.filter((row) => row.down_until === null || new Date(row.down_until) <= now);
    if (up.length === 0) {
      const ends = buckets.map((row) => new Date(row.down_until ?? now).getTime());
      return {
        ok: false,
        reason: 'down',
        retryAt: new Date(ends.length > 0 ? Math.min(...ends) : now.getTime() + GATEWAY_DOWN_MS),
      };
    }
    if (up.some((row) => Number(row.available) >= 1)) {
      // Tokens are there: held back for a more urgent command, or another process took the one we aimed at.
      const [waiting] = rowsOf<{ urgent: number }>(
        await executor.execute(sql`select ${moreUrgentWaiting(rank, barrierId, at)} as urgent`),
      );
      if (Number(waiting?.urgent ?? 0) > 0)
        return { ok: false, reason: 'more_urgent_first', retryAt: new Date(now.getTime() + 1000) };
      continue;
    }
    const waits = up.map((row) => ((1 - Number(row.available)) * 60_000) / Number(row.rate));
    return {
      ok: false,
      reason: 'rate',
      retryAt: new Date(now.getTime() + Math.max(1, Math.ceil(Math.min(...waits)))),
    };
  }
  return { ok: false, reason: 'rate', retryAt: new Date(now.getTime() + 100) };
}

/** Leaves the gateway out of every process's choice until `until`. */
export async function markGatewayDown(executor: Executor, name: string, until: Date): Promise<void> {
  await executor.execute(
    sql`update sms_gateway_buckets set down_until = ${until.toISOString()}::timestamptz where name = ${name}`,
  );
}

/** The gateway that last handed a command to this barrier's device (null: none yet). */
export async function lastSenderOf(executor: Executor, barrierId: number): Promise<string | null> {
  const rows = rowsOf<{ gateway: string }>(
    await executor.execute(sql`
      select gateway from device_commands
      where barrier_id = ${barrierId} and gateway is not null and handed_over_at is not null
      order by handed_over_at desc, id desc limit 1`),
  );
  return rows[0]?.gateway ?? null;
}
