/**
 * What `npm run bench:resilience`'s load part measures beside the load itself (issue 31 part 8), so that its
 * figures say what limited them: the machine's load average, a plain Fastify server under the same clients
 * (what this machine can serve at all right now), the CPU of the server process and of the whole PostgreSQL
 * cluster per request, what the busy backends were waiting on, and which statements took PostgreSQL's time
 * (pg_stat_statements, preloaded in the bench's private cluster when the server has it).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { formatCount } from './bench-lib.ts';

export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time of a process in µs; `withChildren` adds the children it has waited for (a postmaster's ended backends). */
function cpuMicros(pid: number, withChildren = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const own = (fields[11] ?? 0) + (fields[12] ?? 0);
    const children = withChildren ? (fields[13] ?? 0) + (fields[14] ?? 0) : 0;
    return ((own + children) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The whole cluster: the postmaster, its live children, and the children that already ended. */
function clusterCpuMicros(dataDirectory: string): number {
  const postmaster = Number(readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuMicros(postmaster, true);
  for (const entry of readdirNumbers('/proc')) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === postmaster) total += cpuMicros(entry);
    } catch {}
  }
  return total;
}

function readdirNumbers(directory: string): number[] {
  return readdirSync(directory)
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** CPU of the server process and of the PostgreSQL cluster, between `start()` and `stop()`. */
export function cpuMeter(serverPid: number, dataDirectory: string) {
  let first = { server: 0, database: 0 };
  const read = () => ({ server: cpuMicros(serverPid), database: clusterCpuMicros(dataDirectory) });
  return {
    start: () => {
      first = read();
    },
    /** µs per request, for `requests` requests served in between. */
    stop: (requests: number) => {
      const last = read();
      const served = Math.max(1, requests);
      return {
        server: (last.server - first.server) / served,
        database: (last.database - first.database) / served,
      };
    },
  };
}

/**
 * What the busy backends of `database` wait on, sampled every 250 ms: `CPU` when running, otherwise
 * PostgreSQL's wait event (`Lock:transactionid`, `LWLock:WALWrite`, `Client:ClientRead` for a transaction
 * waiting on the app between two statements…).
 */
export function waitSampler(pool: pg.Pool, database: string) {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const result = await pool.query<{ what: string; backends: number }>(
          `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as what, count(*)::int as backends
             from pg_stat_activity
            where datname = $1 and pid <> pg_backend_pid() and state in ('active', 'idle in transaction')
            group by 1`,
          [database],
        );
        samples += 1;
        for (const row of result.rows) counts.set(row.what, (counts.get(row.what) ?? 0) + row.backends);
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    /** "CPU 6.1, Client:ClientRead 3.2, Lock:transactionid 0.4" (backends on average), busiest first. */
    stop: async (): Promise<string> => {
      running = false;
      await loop;
      if (samples === 0) return 'no samples';
      return [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([what, total]) => `${what} ${(total / samples).toFixed(1)}`)
        .join(', ');
    },
  };
}

/** The postgres `-c` options that preload pg_stat_statements, when this PostgreSQL installation has it. */
export function statementStatsOptions(postgresBinary: string): string {
  // Debian's /usr/bin/pg_ctl is a wrapper: the library folder comes from pg_config, else beside the binary.
  let libraries = path.resolve(path.dirname(postgresBinary), '../lib');
  try {
    libraries = execFileSync('pg_config', ['--pkglibdir']).toString().trim();
  } catch {}
  return existsSync(path.join(libraries, 'pg_stat_statements.so'))
    ? ' -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c pg_stat_statements.track_planning=on'
    : '';
}

/** Resets pg_stat_statements (creating the extension in `pool`'s database); false when it is not there. */
export async function resetStatementStats(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query('create extension if not exists pg_stat_statements');
    await pool.query('select pg_stat_statements_reset()');
    return true;
  } catch {
    return false;
  }
}

/**
 * The statements that took most of PostgreSQL's time since the reset (planning and execution; execution
 * includes lock waits, so a statement that waits on a row lock ranks high without using CPU), one line each,
 * with planning and execution time per call (a named statement is planned once per connection).
 */
export async function topStatements(pool: pg.Pool, limit = 12): Promise<string[]> {
  const result = await pool.query<{
    calls: string;
    plan: number;
    exec: number;
    share: number;
    query: string;
  }>(
    `select calls, total_plan_time / nullif(calls, 0) as plan, mean_exec_time as exec,
            100 * (total_plan_time + total_exec_time)
              / nullif(sum(total_plan_time + total_exec_time) over (), 0) as share,
            regexp_replace(query, '\\s+', ' ', 'g') as query
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
      order by total_plan_time + total_exec_time desc limit $1`,
    [limit],
  );
  return result.rows.map(
    (row) =>
      `${row.share.toFixed(1).padStart(5)} %  ${formatCount(Number(row.calls)).padStart(8)} calls  ` +
      `plan ${row.plan.toFixed(2).padStart(6)} + exec ${row.exec.toFixed(2).padStart(6)} ms  ${row.query.slice(0, 110)}`,
  );
}

/**
 * The statements PostgreSQL ran most often since the reset, one line each with their calls: where the
 * statements a request come from (issue 44 part 5 counts them).
 */
export async function mostCalledStatements(pool: pg.Pool, limit = 25): Promise<string[]> {
  const result = await pool.query<{ calls: string; toplevel: boolean; query: string }>(
    `select calls, toplevel, regexp_replace(query, '\\s+', ' ', 'g') as query
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
      order by calls desc limit $1`,
    [limit],
  );
  return result.rows.map(
    (row) =>
      `${formatCount(Number(row.calls)).padStart(8)} calls  ${row.toplevel ? 'sent  ' : 'nested'}  ${row.query.slice(0, 130)}`,
  );
}

/**
 * Statements PostgreSQL ran since the reset (with pg_stat_statements): `all` counts the nested ones too
 * (`track=all`: a foreign key's check of each inserted row, a trigger's or a function's statements), `sent`
 * only those a client sent (`toplevel`): the round trips of the load.
 */
export async function statementCalls(pool: pg.Pool): Promise<{ all: number; sent: number }> {
  const result = await pool.query<{ calls: string | null; sent: string | null }>(
    `select sum(calls) as calls, sum(calls) filter (where toplevel) as sent from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())`,
  );
  const row = result.rows[0];
  return { all: Number(row?.calls ?? 0), sent: Number(row?.sent ?? 0) };
}

/** A plain Fastify "hello" in its own process: the reference the load is compared with, in the same run. */
export async function startPlainFastify(cwd: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const app = require('fastify')({ logger: false });
       app.get('/hello', async () => ({ hello: 'world' }));
       app.listen({ host: '127.0.0.1', port: 0 }).then(() => process.stdout.write(String(app.server.address().port) + '\\n'));`,
    ],
    { cwd, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', () => reject(new Error('the plain Fastify reference did not start')));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}
