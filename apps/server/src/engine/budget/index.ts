/**
 * The engine's budget (docs/ARCHITECTURE.md, src/engine/): the weekly SMS limit of a barrier and a resident's
 * share of it (docs/decisions/0023).
 * What the rest of the server uses of it; the files beside this one are the engine's own.
 */

export { commandSmsSql } from './command-sms.ts';
export { assertResidentSmsShare, smsShareSummary, smsSpender, usedAgainstLimit } from './sms-shares.ts';
export {
  assertWeeklySmsBudget,
  type CommittedSms,
  committedSms,
  countCommandsThisWeek,
  fitsWeeklySmsBudget,
  loadWeeklyLimit,
} from './weekly-budget.ts';
