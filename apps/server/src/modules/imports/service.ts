/**
 * Bulk import of residents and their numbers into a barrier (issue 14). One path for the preview and the
 * commit: the file is read (file.ts) and its rows checked (rows.ts); then, under the barrier lock, each row is
 * checked against the database with the rules of phone-changes.ts (duplicates, limits, slots), every row as if
 * it went onto the device, account or not, so that the preview says nothing about accounts (issue 28). The
 * commit (apply.ts) grants numbers without an account and invites those with one (issue 29 item 5). The
 * preview writes nothing: it hands the rows' phones to the outbox's planner as if written
 * (`forecastDeviceSync`), so that its SMS count is the outbox's own plan (at most: invited rows cost nothing
 * until accepted) and the weekly SMS limit the outbox's own check. The commit refuses the whole file (409)
 * while any row has a problem.
 */
import { createHash } from 'node:crypto';
import {
  IMPORT_OUTCOME_TEXTS,
  IMPORT_PROBLEM_TEXTS,
  type ImportOutcomeCode,
  type ImportPreview,
  type ImportProblemCode,
  type ImportResult,
} from '@propusk/contracts/imports';
import type { Executor } from '../../db/database.ts';
import { forecastDeviceSync, loadCommittedSms } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, FieldError } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import { findBlockedNumbers } from '../phones/blocked-numbers.ts';
import { loadPhoneBatchContext, planPhoneBatch } from '../phones/phone-admission.ts';
import { type LockedBarrier, lockLiveBarrier } from '../phones/phone-changes.ts';
import { type ImportAccounts, loadImportAccounts } from './accounts.ts';
import { applyImport, toNewPhone } from './apply.ts';
import { type ImportFormat, importTemplate, readImportFile } from './file.ts';
import { type ImportCandidate, readImportRows } from './rows.ts';
import { estimateSendMinutes } from './send-estimate.ts';

/** The shared error map's words for a missing field (its Russian text is in the contracts). */
const REQUIRED = 'This field is required.';

/** One wording per kind of row, account or not (no account oracle). */
function outcomeOf(row: ImportCandidate): ImportPreview['rows'][number]['outcome'] {
  if (row.problems.length > 0 || row.type === null) return null;
  const code: ImportOutcomeCode = row.type === 'primary' ? 'resident' : 'extra_phone';
  return { code, text: IMPORT_OUTCOME_TEXTS[code] };
}

export const fileDigest = (file: Buffer) => createHash('sha256').update(file).digest('hex');

/**
 * Adds the problems that need the database to `rows` (in place): accounts, then the phones' rules in file
 * order. Residents are counted under a stand-in id (negative: no real user has it).
 */
async function checkAgainstBarrier(
  deps: Dependencies,
  tx: Executor,
  barrier: LockedBarrier,
  rows: ImportCandidate[],
): Promise<{ accounts: ImportAccounts; slots: Map<ImportCandidate, number> }> {
  const accounts = await loadImportAccounts(
    tx,
    barrier,
    rows.filter((row) => row.type !== null && row.problems.length === 0).map((row) => row.phone),
  );
  // Only what the administrator knows already: his own block, a user of this barrier. An account is
  // otherwise invited at the commit, and its row reads like any other (no account oracle, issue 28). An
  // extra number meets the same facts below: the block's number, a number already on the barrier.
  for (const row of rows) {
    const account = row.type === 'primary' && row.problems.length === 0 ? accounts.get(row.phone) : undefined;
    if (!account) continue;
    if (account.blockedByOwner) row.problems.push('user_blocked_by_admin');
    else if (account.hasAccess) row.problems.push('already_has_access');
  }
  // A number the owner blocked comes back in no row, whoever's it is now (blocked-numbers.ts).
  const blocked = await findBlockedNumbers(
    tx,
    barrier.ownerId,
    rows.filter((row) => row.problems.length === 0).map((row) => row.phone),
  );
  for (const row of rows) {
    if (row.problems.length === 0 && blocked.has(row.phone)) row.problems.push('phone_blocked_on_barrier');
  }
  // Every resident under a stand-in id, account or not: he has no phone on the barrier yet either way.
  const ownerId = (row: ImportCandidate, index: number) =>
    -((row.type === 'primary' ? index : (row.resident ?? index)) + 1);
  const context = await loadPhoneBatchContext(tx, barrier, deps.clock.now());
  const checked: { index: number; phone: ReturnType<typeof toNewPhone> }[] = [];
  rows.forEach((row, index) => {
    const resident = row.resident === null ? null : rows[row.resident];
    if (resident && resident.problems.length > 0 && row.problems.length === 0) {
      row.problems.push('resident_has_problems');
    }
    if (row.problems.length > 0 || !row.type) return;
    checked.push({ index, phone: toNewPhone(row, ownerId(row, index)) });
  });
  // In file order, so that a resident's row is checked before his extra numbers.
  const plan = planPhoneBatch(
    context,
    barrier,
    checked.map((entry) => entry.phone),
  );
  const slots = new Map<ImportCandidate, number>();
  for (const [position, entry] of plan.entries()) {
    const { index } = checked[position] as { index: number };
    const row = rows[index] as ImportCandidate;
    const resident = row.resident === null ? null : rows[row.resident];
    if (resident && resident.problems.length > 0 && row.problems.length === 0) {
      row.problems.push('resident_has_problems');
    } else if (entry.problem) row.problems.push(entry.problem);
    else slots.set(row, entry.slot);
  }
  return { accounts, slots };
}

async function committedSmsBefore(deps: Dependencies, tx: Executor, barrier: LockedBarrier) {
  if (barrier.limits.smsWeeklyLimit === null) return undefined;
  return loadCommittedSms(tx, deps, barrier.id, deps.clock.now());
}

async function readRows(deps: Dependencies, file: Buffer) {
  const { rows } = await readImportFile(file);
  return readImportRows(rows, deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES, deps.clock.now());
}

export async function importTemplateFile(
  deps: Pick<Dependencies, 'db'>,
  admin: AuthenticatedUser,
  barrierId: number,
  format: ImportFormat,
) {
  const { db } = deps;
  await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
  return importTemplate(format);
}

/** `upload` reads the request's file: only once the barrier is known to be the administrator's. */
export async function previewImport(
  deps: Dependencies,
  admin: AuthenticatedUser,
  barrierId: number,
  upload: () => Promise<Buffer>,
): Promise<ImportPreview> {
  const { db } = deps;
  await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
  const file = await upload();
  const rows = await readRows(deps, file);
  // Read only: the rows' phones are handed to the outbox's planner as if written (their slots as the
  // batch would take them), so the SMS count and the weekly limit are the outbox's own.
  const { sms } = await db.transaction(async (tx) => {
    const barrier = await lockLiveBarrier(tx, barrierId);
    const committedBefore = await committedSmsBefore(deps, tx, barrier);
    const checked = await checkAgainstBarrier(deps, tx, barrier, rows);
    const valid = rows.filter((row) => row.problems.length === 0);
    const forecast = (count: number) =>
      forecastDeviceSync(
        tx,
        deps,
        barrier.id,
        valid.slice(0, count).map((row, index) => ({
          id: -(index + 1),
          slot: checked.slots.get(row) as number,
          number: row.phone,
          kind: row.type ?? 'permanent',
          start: row.startTime,
          end: row.endTime,
          schedule: row.schedule,
        })),
        { committedBefore },
      );
    const whole = await forecast(valid.length);
    if (!whole.overWeeklyLimit) return { accounts: checked.accounts, sms: whole.sms };
    // Over the weekly SMS limit: the longest run of rows (in file order) that the limit allows.
    let fits = 0;
    let over = valid.length;
    let sms = (await forecast(0)).sms;
    while (over - fits > 1) {
      const middle = Math.floor((fits + over) / 2);
      const result = await forecast(middle);
      if (result.overWeeklyLimit) over = middle;
      else {
        fits = middle;
        sms = result.sms;
      }
    }
    for (const row of valid.slice(fits)) row.problems.push('sms_weekly_limit');
    return { accounts: checked.accounts, sms };
  });
  const clean = rows.filter((row) => row.problems.length === 0);
  return {
    digest: fileDigest(file),
    rows: rows.map((row) => ({
      line: row.line,
      phone: row.phone,
      name: row.name,
      note: row.note,
      type: row.type,
      problems: row.problems.map((code: ImportProblemCode) => ({
        code,
        text: IMPORT_PROBLEM_TEXTS[code],
      })),
      outcome: outcomeOf(row),
    })),
    totals: {
      rows: rows.length,
      rows_with_problems: rows.length - clean.length,
      residents: clean.filter((row) => row.type === 'primary').length,
      phones: clean.length,
      sms,
      send_minutes: estimateSendMinutes(sms, deps.config),
    },
  };
}

export async function commitImport(
  deps: Dependencies,
  admin: AuthenticatedUser,
  barrierId: number,
  upload: () => Promise<Buffer>,
  digest: string | undefined,
): Promise<ImportResult> {
  const { db } = deps;
  await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
  if (digest === undefined) throw new FieldError({ digest: [REQUIRED] });
  const file = await upload();
  if (fileDigest(file) !== digest) throw conflict('import_file_changed');
  const rows = await readRows(deps, file);
  const result = await db.transaction(async (tx) => {
    const barrier = await lockLiveBarrier(tx, barrierId);
    const committedBefore = await committedSmsBefore(deps, tx, barrier);
    const { accounts } = await checkAgainstBarrier(deps, tx, barrier, rows);
    const withProblems = rows.filter((row) => row.problems.length > 0).length;
    if (withProblems > 0)
      throw conflict('import_has_problems', undefined, { rows_with_problems: withProblems });
    return applyImport(tx, deps, barrier, admin.id, rows, accounts, committedBefore);
  });
  deps.notifyDeviceCommands([barrierId]);
  return {
    phones: result.phones,
    residents: result.residents,
    invitations: result.invitations,
    sms: result.sms,
    send_minutes: estimateSendMinutes(result.sms, deps.config),
  };
}
