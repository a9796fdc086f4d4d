/**
 * The bench's plan probe (issue 31 part 9): explains a captured query the way the server runs it, as a
 * prepared statement, once with the plan PostgreSQL makes knowing the values (custom) and once with the plan
 * it makes without them (generic), and says which of the two the server's connection would use.
 *
 * Why both: a named statement (db/prepared.ts) is planned without its values once PostgreSQL decides so
 * (always under `plan_cache_mode = force_generic_plan`; under `auto`, after five custom plans, when the
 * generic plan's estimated cost is not above theirs). A plain `explain <query>` with the values written in
 * shows only the custom plan, which is how a generic plan of 30–80 ms (JIT compiled at every execution,
 * its LIMIT/OFFSET estimated at 10 % of the table) hid behind a probe that printed 0.26 ms.
 *
 * Everything runs in a transaction that is rolled back (an explained write leaves nothing), with
 * `set local plan_cache_mode`, so the pool connection keeps the server's settings afterwards.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';

export interface CapturedQuery {
  text: string;
  values: unknown[];
  /** node-postgres's statement name; empty for an unnamed statement (planned once, with its values). */
  name: string;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Total Cost': number;
  Plans?: PlanNode[];
}
interface ExplainedPlan {
  Plan: PlanNode;
  'Execution Time'?: number;
  JIT?: { Timing?: { Total?: number } };
}

/** One plan of the statement: its scans, estimated cost, execution time (JIT included) and JIT time. */
interface PlanFigures {
  scans: string[];
  cost: number;
  ms: number;
  jitMs: number;
}

export interface PlanVerdict {
  /** What to print under the query (one or more lines, without indentation). */
  lines: string[];
  /** The server would run a generic plan far worse than the custom one. */
  isBad: boolean;
}

/** "Far worse": both at once, so that 0.02 against 0.3 ms is not a finding. */
export const BAD_PLAN_RATIO = 10;
export const BAD_PLAN_EXTRA_MS = 5;

/** node-postgres's own conversion of a value to its text form (arrays, dates, JSON), as it sends parameters. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue: (value: unknown) => unknown;
};

function literal(client: pg.ClientBase, value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) return 'NULL';
  // An untyped literal, like an untyped parameter: PostgreSQL reads it as the statement's parameter type.
  return client.escapeLiteral(
    Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : String(prepared),
  );
}

function figuresOf(explained: ExplainedPlan): PlanFigures {
  const scans: string[] = [];
  const walk = (node: PlanNode) => {
    const what = node['Index Name'] ?? node['Relation Name'];
    if (node['Node Type'].includes('Scan') && what) {
      scans.push(`${node['Node Type'].replace(' Scan', '')}:${what}`);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(explained.Plan);
  return {
    scans: [...new Set(scans)],
    cost: explained.Plan['Total Cost'],
    ms: explained['Execution Time'] ?? 0,
    jitMs: explained.JIT?.Timing?.Total ?? 0,
  };
}

/** The server connection's plan cache mode (the probe's client comes from the server's pool). */
export async function serverPlanCacheMode(client: pg.ClientBase): Promise<string> {
  const result = await client.query<{ plan_cache_mode: string }>('show plan_cache_mode');
  return result.rows[0]?.plan_cache_mode ?? 'auto';
}

/**
 * Whether PostgreSQL would run the statement with its generic plan. Under `auto` (plancache.c,
 * choose_custom_plan): never for an unnamed statement (it runs once, and the first five runs are custom);
 * for a named one, once the generic plan's cost is below the custom plans' cost plus their planning, which
 * PostgreSQL reckons as 1000 × cpu_operator_cost (0.0025) per relation of the query, plus one.
 */
function runsGeneric(mode: string, query: CapturedQuery, custom: PlanFigures, generic: PlanFigures) {
  if (mode === 'force_generic_plan') return true;
  if (mode === 'force_custom_plan' || !query.name) return false;
  const planning = 2.5 * (custom.scans.length + 1);
  return generic.cost < custom.cost + planning;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const cost = (value: number) => Math.round(value).toLocaleString('en-US');

async function explainOnce(client: pg.ClientBase, mode: string, execute: string): Promise<PlanFigures> {
  await client.query(`set local plan_cache_mode = ${mode}`);
  // Twice, the faster kept: the first run of a plan pays for cold caches, the server's runs do not.
  let best: PlanFigures | undefined;
  for (let run = 0; run < 2; run += 1) {
    const result = await client.query<{ 'QUERY PLAN': ExplainedPlan[] }>(
      `explain (analyze, format json) ${execute}`,
    );
    const explained = result.rows[0]?.['QUERY PLAN']?.[0];
    if (!explained) throw new Error('no plan');
    const figures = figuresOf(explained);
    if (!best || figures.ms < best.ms) best = figures;
  }
  if (!best) throw new Error('no plan');
  return best;
}

/**
 * Explains `query` as a prepared statement with the custom and the generic plan, and judges the generic one
 * against the plan the server's connection (`mode`, its plan_cache_mode) would use.
 */
export async function comparePlans(
  client: pg.ClientBase,
  query: CapturedQuery,
  mode: string,
): Promise<PlanVerdict> {
  if (/^\s*(begin|commit|rollback|set|savepoint|release)\b/i.test(query.text)) {
    return { lines: ['(transaction control: not a query)'], isBad: false };
  }
  const execute = `execute bench_probe${
    query.values.length > 0 ? `(${query.values.map((value) => literal(client, value)).join(', ')})` : ''
  }`;
  await client.query('begin');
  try {
    await client.query(`prepare bench_probe as ${query.text}`);
    const custom = await explainOnce(client, 'force_custom_plan', execute);
    const generic = await explainOnce(client, 'force_generic_plan', execute);
    const isGeneric = runsGeneric(mode, query, custom, generic);
    const worse = generic.ms > custom.ms * BAD_PLAN_RATIO && generic.ms - custom.ms > BAD_PLAN_EXTRA_MS;
    const used = isGeneric ? generic : custom;
    const jit = (figures: PlanFigures) => (figures.jitMs > 0 ? `, JIT ${ms(figures.jitMs)}` : '');
    const lines = [
      `${ms(used.ms)}  ${used.scans.length > 0 ? used.scans.join(', ') : 'no table scan'}`,
      `custom ${ms(custom.ms)} (cost ${cost(custom.cost)}${jit(custom)}), generic ${ms(generic.ms)} ` +
        `(cost ${cost(generic.cost)}${jit(generic)}); the server plans it ${isGeneric ? 'generic' : 'custom'} ` +
        `(${query.name ? 'named statement' : 'unnamed'}, plan_cache_mode ${mode})`,
    ];
    if (worse && isGeneric) {
      lines.push(
        `BAD PLAN: the generic plan is ${Math.round(generic.ms / Math.max(custom.ms, 0.001))}× slower than ` +
          'the custom one and the server would run it',
      );
    } else if (worse) {
      lines.push('(the generic plan is far worse, but the server does not use it)');
    }
    return { lines, isBad: worse && isGeneric };
  } catch (error) {
    return { lines: [`explain failed: ${(error as Error).message}`], isBad: false };
  } finally {
    await client.query('rollback').catch(() => {});
    await client.query('deallocate bench_probe').catch(() => {});
  }
}
