/**
 * The SMS gateways device commands go through, and their send rate (issue 15 parts 1 and 4).
 *
 * Each gateway has a token bucket row in `sms_gateway_buckets`, shared by every server process on the
 * database. Sends take tokens in the sending transaction (`takeSendTokens`, for one command or a batch):
 * the buckets are locked in name order and read in one statement (refilled by the time elapsed at
 * `rate_per_minute`, up to `burst`), the tokens are handed out, and one statement writes the buckets back
 * and records each granted attempt — so processes together never exceed a gateway's rate. Holds go first,
 * then revocations: a token is kept for each more urgent command ready elsewhere, so a revocation never
 * waits behind an add (docs/decisions/0020).
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
 * SQL: how many commands of each rank are ready to be sent on barriers other than `exclude`: hold commands
 * whose barrier has nothing in flight (holds go before the barrier's queue), and revocations at the head of
 * their barrier's queue. Partial indexes keep both counts cheap.
 */
function readyElsewhere(exclude: number[], at: string) {
  const excluded = arrayLiteral(exclude);
  return sql`select
    (select count(*) from device_commands d
      where d.status = 'queued' and d.kind in ('relay_hold', 'relay_release')
        and d.barrier_id <> all(${excluded}::int[])
        and (d.next_attempt_at is null or d.next_attempt_at <= ${at}::timestamptz)
        and not exists (select 1 from device_commands e where e.barrier_id = d.barrier_id and e.status = 'sent')
    )::int as holds,
    (select count(*) from device_commands d
      where d.status = 'queued' and d.kind = 'delete' and d.barrier_id <> all(${excluded}::int[])
        and (d.next_attempt_at is null or d.next_attempt_at <= ${at}::timestamptz)
        and not exists (
          select 1 from device_commands e
          where e.barrier_id = d.barrier_id and e.status in ('queued', 'sent') and e.id < d.id)
    )::int as revocations`;
}

/** One command's request for a send token, and the attempt the token is for. */
export interface TokenRequest {
  barrierId: number;
  commandId: number;
  /** The attempt number the token records on the command. */
  attempt: number;
  rank: SendRank;
  /** The gateways it may go through. */
  names: string[];
  /** Tried first when it is up (a same-key hand-over goes back to the gateway that had the key). */
  preferred?: string | null;
}

interface Bucket {
  name: string;
  rate: number;
  available: number;
  sent: number;
  downUntil: Date | null;
  taken: number;
}

const RANK_ORDER: Record<SendRank, number> = { hold: 0, revocation: 1, other: 2 };

/** A Postgres array literal of plain values (numbers, or names of [a-z0-9_-] quoted). */
export const arrayLiteral = (values: (string | number)[]) =>
  `{${values.map((value) => (typeof value === 'number' ? String(value) : `"${value}"`)).join(',')}}`;

/**
 * Takes send tokens for a batch of commands (one is a batch of one), and records each granted attempt on its
 * command (`sent`, attempt number, the gateway). The buckets of every gateway named are locked in name order
 * and read in one statement, so the processes take them one after the other: together they never hand over
 * more than `burst + rate × t`, and two batches never wait for each other's locks in a cycle.
 *
 * Requests are served hold first, then revocations, then the rest. A request takes a token from the allowed
 * gateway that is up and has the most (then the fewest sent, then the name) only when one is left over for
 * each more urgent command ready elsewhere — on another barrier, or refused earlier in this batch — so none
 * of them ever waits behind it. Results are in the order of `requests`.
 */
export async function takeSendTokens(
  executor: Executor,
  requests: TokenRequest[],
  now: Date,
): Promise<TakeResult[]> {
  if (requests.length === 0) return [];
  const at = now.toISOString();
  const allNames = [...new Set(requests.flatMap((request) => request.names))].sort();
  const needsCounts = requests.some((request) => request.rank !== 'hold');
  // The buckets locked and read, and the more urgent commands ready elsewhere counted, in one statement. The
  // counts are as of the statement's start (a wait for a bucket another process holds does not refresh them),
  // the bucket's tokens as of its lock; a count is a moment's picture either way.
  const counts = needsCounts
    ? readyElsewhere(
        requests.map((request) => request.barrierId),
        at,
      )
    : sql`select null::int as holds, null::int as revocations`;
  const rows = rowsOf<{
    name: string;
    rate: number | string;
    sent: number | string;
    down_until: string | Date | null;
    available: number | string;
    holds: number | string | null;
    revocations: number | string | null;
  }>(
    await executor.execute(sql`
      select name, rate_per_minute as rate, sent, down_until,
        least(burst, tokens + greatest(0, extract(epoch from (${at}::timestamptz - refilled_at)))
          * rate_per_minute / 60.0) as available,
        ready.holds, ready.revocations
      from sms_gateway_buckets cross join (${counts}) ready
      where name = any(${arrayLiteral(allNames)}::text[])
      order by name for update of sms_gateway_buckets`),
  );
  const buckets = new Map<string, Bucket>(
    rows.map((row) => [
      row.name,
      {
        name: row.name,
        rate: Number(row.rate),
        available: Number(row.available),
        sent: Number(row.sent),
        downUntil: row.down_until === null ? null : new Date(row.down_until),
        taken: 0,
      },
    ]),
  );
  const ready = rows[0];
  // More urgent commands still waiting: elsewhere, plus those of this batch that got no token.
  const waiting = { holds: Number(ready?.holds ?? 0), revocations: Number(ready?.revocations ?? 0) };
  const isUp = (bucket: Bucket) => bucket.downUntil === null || bucket.downUntil <= now;

  const attempt = (request: TokenRequest, names: string[]): TakeResult => {
    const allowed = names.flatMap((name) => buckets.get(name) ?? []);
    // Its bucket is not there for this transaction yet (another one wrote it and has not committed).
    if (allowed.length === 0) return { ok: false, reason: 'rate', retryAt: new Date(now.getTime() + 1000) };
    const up = allowed.filter(isUp);
    if (up.length === 0) {
      const ends = allowed.map((bucket) => (bucket.downUntil ?? now).getTime());
      return { ok: false, reason: 'down', retryAt: new Date(Math.min(...ends)) };
    }
    const best = [...up].sort(
      (a, b) => b.available - a.available || a.sent - b.sent || a.name.localeCompare(b.name),
    )[0]!;
    const urgent =
      request.rank === 'hold'
        ? 0
        : request.rank === 'revocation'
          ? waiting.holds
          : waiting.holds + waiting.revocations;
    if (best.available >= 1 + urgent) {
      best.available -= 1;
      best.sent += 1;
      best.taken += 1;
      return { ok: true, name: best.name };
    }
    // Tokens are there, kept for the more urgent.
    if (best.available >= 1)
      return { ok: false, reason: 'more_urgent_first', retryAt: new Date(now.getTime() + 1000) };
    const waits = up.map((bucket) => ((1 - bucket.available) * 60_000) / bucket.rate);
    return {
      ok: false,
      reason: 'rate',
      retryAt: new Date(now.getTime() + Math.max(1, Math.ceil(Math.min(...waits)))),
    };
  };

  const results: TakeResult[] = new Array(requests.length);
  const granted: { commandId: number; attempt: number; name: string }[] = [];
  const order = requests
    .map((request, index) => ({ request, index }))
    .sort((a, b) => RANK_ORDER[a.request.rank] - RANK_ORDER[b.request.rank] || a.index - b.index);
  for (const { request, index } of order) {
    let result: TakeResult | null = null;
    const preferred = request.preferred ?? null;
    if (preferred !== null && request.names.length > 1 && request.names.includes(preferred)) {
      const first = attempt(request, [preferred]);
      if (first.ok || first.reason !== 'down') result = first;
    }
    result ??= attempt(request, request.names);
    results[index] = result;
    if (result.ok)
      granted.push({ commandId: request.commandId, attempt: request.attempt, name: result.name });
    else if (request.rank === 'hold') waiting.holds += 1;
    else if (request.rank === 'revocation') waiting.revocations += 1;
  }

  const touched = [...buckets.values()].filter((bucket) => bucket.taken > 0);
  if (touched.length > 0) {
    await executor.execute(sql`
      with spent as (
        update sms_gateway_buckets b
        set tokens = v.tokens, refilled_at = greatest(b.refilled_at, ${at}::timestamptz), sent = b.sent + v.taken
        from unnest(${arrayLiteral(touched.map((bucket) => bucket.name))}::text[],
          ${arrayLiteral(touched.map((bucket) => bucket.available))}::float8[],
          ${arrayLiteral(touched.map((bucket) => bucket.taken))}::int[]) as v(name, tokens, taken)
        where b.name = v.name
      )
      update device_commands c
      set status = 'sent', attempts = v.attempt, sent_at = ${at}::timestamptz, handed_over_at = null,
        next_attempt_at = null, gateway = v.gateway
      from unnest(${arrayLiteral(granted.map((grant) => grant.commandId))}::int[],
        ${arrayLiteral(granted.map((grant) => grant.attempt))}::int[],
        ${arrayLiteral(granted.map((grant) => grant.name))}::text[]) as v(id, attempt, gateway)
      -- By its key: status compared as text, so that the planner cannot take the open commands' partial index
      -- for it (analyzed at a quiet moment it looks empty, and the update then reads every open command).
      where c.id = v.id and c.status::text in ('queued', 'sent')`);
  }
  return results;
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
