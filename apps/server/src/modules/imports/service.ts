/**
 * Bulk import of residents and their numbers into a barrier (issue 14). One path for the preview and the
 * commit: the file is read (file.ts) and its rows checked (rows.ts); then, under the barrier lock, each row is
 * checked against the database with the rules of phone-changes.ts (duplicates, limits, slots); then the
 * import is applied: accounts created, access granted, phones added in one batch (`addPhonesLocked`), the
 * device planned once (`syncBarrierDevice`). The preview writes nothing: it hands the rows' phones to the
 * outbox's planner as if written (`forecastDeviceSync`), so that its SMS count is the outbox's own plan and
 * the weekly SMS limit the outbox's own check. The commit refuses the whole file (409) while any row has a
 * problem.
 */
import { createHash } from 'node:crypto';
import {
  IMPORT_PROBLEM_TEXTS,
  type ImportPreview,
  type ImportProblemCode,
  type ImportResult,
} from '@propusk/contracts/imports';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { adminBlocks, barrierAccess, users } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, FieldError } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barriers/policy.ts';
import { forecastDeviceSync, loadCommittedSms, syncBarrierDevice } from '../devices/outbox.ts';
import { findBlockedNumbers } from '../phones/blocked-numbers.ts';
import {
  type Actor,
  addPhonesLocked,
  type LockedBarrier,
  loadPhoneBatchContext,
  lockLiveBarrier,
  type NewPhone,
  planPhoneBatch,
} from '../phones/phone-changes.ts';
import { type ImportFormat, importTemplate, readImportFile } from './file.ts';
import { type ImportCandidate, readImportRows } from './rows.ts';
import { estimateSendMinutes } from './send-estimate.ts';

/** The shared error map's words for a missing field (its Russian text is in the contracts). */
const REQUIRED = 'This field is required.';

/** The accounts of the file's residents that exist already (live), by number. */
type Accounts = Map<
  string,
  { id: number; fullName: string | null; blocked: boolean; blockedByAdmin: boolean }
>;

export const fileDigest = (file: Buffer) => createHash('sha256').update(file).digest('hex');

export function createImportService(deps: Dependencies) {
  const { db } = deps;

  async function loadAccounts(tx: Executor, barrier: LockedBarrier, ownerId: number, numbers: string[]) {
    const accounts: Accounts = new Map();
    const withAccess = new Set<number>();
    for (let start = 0; start < numbers.length; start += 1000) {
      const chunk = numbers.slice(start, start + 1000);
      const rows = await tx
        .select({
          id: users.id,
          phone: users.phone,
          fullName: users.fullName,
          isActive: users.isActive,
          blockedByAdmin: adminBlocks.userId,
          access: barrierAccess.userId,
        })
        .from(users)
        .leftJoin(adminBlocks, and(eq(adminBlocks.userId, users.id), eq(adminBlocks.adminId, ownerId)))
        .leftJoin(
          barrierAccess,
          and(eq(barrierAccess.userId, users.id), eq(barrierAccess.barrierId, barrier.id)),
        )
        .where(and(inArray(users.phone, chunk), isNull(users.deletedAt)));
      for (const row of rows) {
        accounts.set(row.phone, {
          id: row.id,
          fullName: row.fullName,
          blocked: !row.isActive,
          blockedByAdmin: row.blockedByAdmin !== null,
        });
        if (row.access !== null) withAccess.add(row.id);
      }
    }
    return { accounts, withAccess };
  }

  /**
   * Adds the problems that need the database to `rows` (in place): accounts, then the phones' rules in file
   * order. Residents without an account are counted under a stand-in id (negative: no real user has it).
   */
  async function checkAgainstBarrier(
    tx: Executor,
    barrier: LockedBarrier,
    rows: ImportCandidate[],
  ): Promise<{ accounts: Accounts; slots: Map<ImportCandidate, number> }> {
    const primaries = rows.filter((row) => row.type === 'primary' && row.problems.length === 0);
    const { accounts, withAccess } = await loadAccounts(
      tx,
      barrier,
      barrier.ownerId,
      primaries.map((row) => row.phone),
    );
    for (const row of primaries) {
      const account = accounts.get(row.phone);
      if (!account) continue;
      if (account.blocked) row.problems.push('user_blocked');
      else if (account.blockedByAdmin) row.problems.push('user_blocked_by_admin');
      else if (withAccess.has(account.id)) row.problems.push('already_has_access');
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
    const ownerId = (row: ImportCandidate, index: number) => {
      const residentIndex = row.type === 'primary' ? index : (row.resident ?? index);
      const resident = rows[residentIndex];
      return (resident && accounts.get(resident.phone)?.id) ?? -(residentIndex + 1);
    };
    const context = await loadPhoneBatchContext(tx, barrier, deps.clock.now());
    const checked: { index: number; phone: NewPhone }[] = [];
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

  function toNewPhone(row: ImportCandidate, userId: number): NewPhone {
    return {
      userId,
      number: row.phone,
      name: row.phoneName,
      type: row.type ?? 'permanent',
      startTime: row.startTime,
      endTime: row.endTime,
      schedule: row.schedule,
    };
  }

  /**
   * Writes `rows` (chosen from `all`, all without problems): accounts for new residents, their access, every
   * phone in one batch, then the device plan. Returns what it did; 409 from the outbox over the weekly SMS
   * limit.
   */
  async function apply(
    tx: Executor,
    barrier: LockedBarrier,
    admin: AuthenticatedUser,
    all: ImportCandidate[],
    rows: ImportCandidate[],
    accounts: Accounts,
    committedBefore: number | undefined,
  ): Promise<{ phones: number; residents: number; sms: number }> {
    const now = deps.clock.now();
    const primaries = rows.filter((row) => row.type === 'primary');
    const fresh = primaries.filter((row) => !accounts.has(row.phone));
    const ids = new Map<string, number>();
    for (const [phone, account] of accounts) ids.set(phone, account.id);
    for (let start = 0; start < fresh.length; start += 500) {
      // The same row a first login makes (auth repository `insertUserIfMissing`), with the file's name.
      const created = await tx
        .insert(users)
        .values(
          fresh.slice(start, start + 500).map((row) => ({
            phone: row.phone,
            fullName: row.name === '' ? null : row.name,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ id: users.id, phone: users.phone });
      for (const row of created) ids.set(row.phone, row.id);
    }
    for (let start = 0; start < primaries.length; start += 1000) {
      const values = primaries.slice(start, start + 1000).map((row) => ({
        barrierId: barrier.id,
        userId: ids.get(row.phone) as number,
        createdAt: now,
      }));
      const inserted = await tx.insert(barrierAccess).values(values).onConflictDoNothing().returning();
      if (inserted.length !== values.length) throw conflict('already_has_access');
    }
    const batch = rows.map((row) => {
      const resident = row.type === 'primary' ? row : all[row.resident ?? -1];
      const userId = resident ? ids.get(resident.phone) : undefined;
      if (userId === undefined) throw new Error('import row without its resident');
      return {
        ...toNewPhone(row, userId),
        reason: row.type === 'primary' ? ('access_granted' as const) : ('manual' as const),
      };
    });
    const actor: Actor = { author: 'admin', userId: admin.id };
    const added = await addPhonesLocked(tx, deps, barrier, batch, actor);
    const sms = await syncBarrierDevice(tx, deps, barrier.id, { committedBefore });
    return { phones: added.length, residents: primaries.length, sms };
  }

  async function committedSmsBefore(tx: Executor, barrier: LockedBarrier) {
    if (barrier.limits.smsWeeklyLimit === null) return undefined;
    return loadCommittedSms(tx, deps, barrier.id, deps.clock.now());
  }

  async function readRows(file: Buffer) {
    const { rows } = await readImportFile(file);
    return readImportRows(rows, deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES, deps.clock.now());
  }

  return {
    async template(admin: AuthenticatedUser, barrierId: number, format: ImportFormat) {
      await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
      return importTemplate(format);
    },

    /** `upload` reads the request's file: only once the barrier is known to be the administrator's. */
    async preview(
      admin: AuthenticatedUser,
      barrierId: number,
      upload: () => Promise<Buffer>,
    ): Promise<ImportPreview> {
      await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
      const file = await upload();
      const rows = await readRows(file);
      // Read only: the rows' phones are handed to the outbox's planner as if written (their slots as the
      // batch would take them), so the SMS count and the weekly limit are the outbox's own.
      const { sms } = await db.transaction(async (tx) => {
        const barrier = await lockLiveBarrier(tx, barrierId);
        const committedBefore = await committedSmsBefore(tx, barrier);
        const checked = await checkAgainstBarrier(tx, barrier, rows);
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
    },

    async commit(
      admin: AuthenticatedUser,
      barrierId: number,
      upload: () => Promise<Buffer>,
      digest: string | undefined,
    ): Promise<ImportResult> {
      await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
      if (digest === undefined) throw new FieldError({ digest: [REQUIRED] });
      const file = await upload();
      if (fileDigest(file) !== digest) throw conflict('import_file_changed');
      const rows = await readRows(file);
      const result = await db.transaction(async (tx) => {
        const barrier = await lockLiveBarrier(tx, barrierId);
        const committedBefore = await committedSmsBefore(tx, barrier);
        const { accounts } = await checkAgainstBarrier(tx, barrier, rows);
        const withProblems = rows.filter((row) => row.problems.length > 0).length;
        if (withProblems > 0)
          throw conflict('import_has_problems', undefined, { rows_with_problems: withProblems });
        return apply(tx, barrier, admin, rows, rows, accounts, committedBefore);
      });
      deps.notifyDeviceCommands([barrierId]);
      return {
        phones: result.phones,
        residents: result.residents,
        sms: result.sms,
        send_minutes: estimateSendMinutes(result.sms, deps.config),
      };
    },
  };
}
