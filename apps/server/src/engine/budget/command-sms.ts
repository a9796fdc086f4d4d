/**
 * What a command row has cost in SMS, as every sum of the budget reads it (issue 44 part 1: the cost is stored
 * on the row when it is planned, by @propusk/devices/cost, the only place that decides it).
 */
import { sql } from 'drizzle-orm';
import { deviceCommands } from '../../db/schema.ts';

/**
 * SQL: the SMS a `device_commands` row has cost (or will cost once sent): its attempts (at least one) times the
 * cost per attempt stored when it was planned (@propusk/devices/cost, the only place that decides it).
 */
export function commandSmsSql() {
  return sql`greatest(${deviceCommands.attempts}, 1) * ${deviceCommands.smsPerAttempt}`;
}
