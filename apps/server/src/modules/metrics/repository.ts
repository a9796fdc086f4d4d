/**
 * What GET /metrics reads from the database at each scrape: the device command backlog (the outbox) and the
 * pg-boss queues. Read at scrape, not counted in memory, so that they are right whichever process wrote the
 * rows and after a restart.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands } from '../../db/schema.ts';

export interface DeviceCommandBacklog {
  queued: number;
  sent: number;
  /** Seconds since the oldest unfinished command was stored (0 when none waits). */
  oldestAgeSeconds: number;
}

/** Unfinished device commands: queued (to be sent) and sent (waiting for the device's reply). */
export async function readDeviceCommandBacklog(executor: Executor, now: Date): Promise<DeviceCommandBacklog> {
  const result = (await executor.execute(sql`
    select
      count(*) filter (where ${deviceCommands.status} = 'queued')::int as queued,
      count(*) filter (where ${deviceCommands.status} = 'sent')::int as sent,
      coalesce(extract(epoch from (${now.toISOString()}::timestamptz - min(${deviceCommands.createdAt}))), 0)::float8
        as oldest_age_seconds
    from ${deviceCommands}
    where ${deviceCommands.status} in ('queued', 'sent')`)) as unknown as {
    rows: { queued: number | string; sent: number | string; oldest_age_seconds: number | string }[];
  };
  const row = result.rows[0];
  return {
    queued: Number(row?.queued ?? 0),
    sent: Number(row?.sent ?? 0),
    oldestAgeSeconds: Math.max(0, Number(row?.oldest_age_seconds ?? 0)),
  };
}

export interface JobQueueSize {
  queue: string;
  /** queued: due now; deferred: due later (a reply timeout, a window edge); active: being handled. */
  state: 'queued' | 'deferred' | 'active';
  jobs: number;
}

/**
 * Unfinished pg-boss jobs by queue (every queue pg-boss knows, at zero when empty). Read from pg-boss's own
 * tables (`<schema>.queue`, `<schema>.job`, as pg-boss 12 lays them out; the version is pinned): its
 * `getQueues()` serves counts cached by its monitor, up to a minute old. Empty before pg-boss has started.
 */
export async function readJobQueueSizes(executor: Executor, schema = 'pgboss'): Promise<JobQueueSize[]> {
  const exists = (await executor.execute(
    sql`select to_regclass(${`${schema}.job`}) is not null and to_regclass(${`${schema}.queue`}) is not null as ready`,
  )) as unknown as { rows: { ready: boolean }[] };
  if (!exists.rows[0]?.ready) return [];
  const pgboss = sql.identifier(schema);
  const result = (await executor.execute(sql`
    select q.name as queue, s.state, coalesce(c.jobs, 0)::int as jobs
    from ${pgboss}.queue q
    cross join (values ('queued'), ('deferred'), ('active')) as s(state)
    left join (
      select name,
        case when state = 'active' then 'active'
             when start_after > now() then 'deferred'
             else 'queued' end as state,
        count(*) as jobs
      from ${pgboss}.job
      where state in ('created', 'retry', 'active')
      group by 1, 2
    ) c on c.name = q.name and c.state = s.state
    order by q.name, s.state`)) as unknown as {
    rows: { queue: string; state: JobQueueSize['state']; jobs: number | string }[];
  };
  return result.rows.map((row) => ({ queue: row.queue, state: row.state, jobs: Number(row.jobs) }));
}
