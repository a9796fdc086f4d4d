/**
 * The commit of an import (issue 14; issue 29 item 5, docs/decisions/0023), in the caller's transaction, every
 * row already checked. Two outcomes, decided by whether the number logs in to Propusk:
 * - no account: the account is made (the row a first login makes, with the file's name), access granted, the
 *   number and the resident's extra numbers put on the barrier in one batch and planned for the device;
 * - an account (an administrator's included): nothing is granted and nothing reaches the device. The number
 *   gets a waiting invitation (phone_invitations, no SMS), claimed at its next login or read of its requests
 *   like any invitation by number; the resident's extra numbers wait with it (`extra_phones`) and are added
 *   when he accepts (access-requests/invitation-extras.ts). An extra number that is itself an account's gets
 *   an invitation of its own: nobody holds another account's number without its consent (item 2).
 */
import { and, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barrierAccess, type InvitationExtraPhone, phoneInvitations, users } from '../../db/schema.ts';
import { syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import { addPhonesLocked, type LockedBarrier, type NewPhone } from '../phones/phone-changes.ts';
import type { ImportAccounts } from './accounts.ts';
import type { ImportCandidate } from './rows.ts';

export function toNewPhone(row: ImportCandidate, userId: number): NewPhone {
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

function toExtraPhone(row: ImportCandidate): InvitationExtraPhone {
  return {
    number: row.phone,
    name: row.phoneName,
    type: row.type === 'temporary' || row.type === 'schedule' ? row.type : 'permanent',
    start_time: row.startTime?.toISOString() ?? null,
    end_time: row.endTime?.toISOString() ?? null,
    schedule: row.schedule,
  };
}

export interface ImportOutcome {
  phones: number;
  residents: number;
  invitations: number;
  sms: number;
}

/** Splits the rows: what is granted now, and the invitations (by number) with the extra numbers they keep. */
export function splitImport(rows: readonly ImportCandidate[], accounts: ImportAccounts) {
  const granted: ImportCandidate[] = [];
  const invitations = new Map<string, InvitationExtraPhone[]>();
  for (const row of rows) {
    if (accounts.has(row.phone)) {
      // His own number (a «Основной» row), or an extra number that is someone's account: he is invited.
      if (!invitations.has(row.phone)) invitations.set(row.phone, []);
      continue;
    }
    const resident = row.type === 'primary' ? row : rows[row.resident ?? -1];
    if (!resident) throw new Error('import row without its resident');
    if (row.type !== 'primary' && accounts.has(resident.phone)) {
      const kept = invitations.get(resident.phone) ?? [];
      kept.push(toExtraPhone(row));
      invitations.set(resident.phone, kept);
    } else granted.push(row);
  }
  return { granted, invitations };
}

export async function applyImport(
  tx: Executor,
  deps: Dependencies,
  barrier: LockedBarrier,
  adminId: number,
  rows: readonly ImportCandidate[],
  accounts: ImportAccounts,
  committedBefore: number | undefined,
): Promise<ImportOutcome> {
  const now = deps.clock.now();
  const { granted, invitations } = splitImport(rows, accounts);

  const primaries = granted.filter((row) => row.type === 'primary');
  const ids = new Map<string, number>();
  for (let start = 0; start < primaries.length; start += 500) {
    // The same row a first login makes (auth repository `insertUserIfMissing`), with the file's name.
    const created = await tx
      .insert(users)
      .values(
        primaries.slice(start, start + 500).map((row) => ({
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
  const batch = granted.map((row) => {
    const resident = row.type === 'primary' ? row : rows[row.resident ?? -1];
    const userId = resident ? ids.get(resident.phone) : undefined;
    if (userId === undefined) throw new Error('import row without its resident');
    return {
      ...toNewPhone(row, userId),
      reason: row.type === 'primary' ? ('access_granted' as const) : ('manual' as const),
    };
  });
  const added = await addPhonesLocked(tx, deps, barrier, batch, { author: 'admin', userId: adminId });

  // One waiting invitation per number; one already waiting (made by hand) takes the file's extra numbers.
  // `extra_phones` is an array (maybe empty) on every invitation an import makes: such invitations send no
  // SMS and do not count in the administrator's hourly invitations (phone-invitation-repository.ts).
  await assertImportInvitationsLeft(tx, deps, adminId, invitations.size, now);
  const values = [...invitations].map(([phone, extras]) => ({
    barrierId: barrier.id,
    phone,
    invitedBy: adminId,
    extraPhones: extras,
    createdAt: now,
    updatedAt: now,
  }));
  for (let start = 0; start < values.length; start += 500) {
    await tx
      .insert(phoneInvitations)
      .values(values.slice(start, start + 500))
      .onConflictDoUpdate({
        target: [phoneInvitations.barrierId, phoneInvitations.phone],
        targetWhere: sql`${phoneInvitations.status} = 'waiting'`,
        set: { extraPhones: sql`excluded.extra_phones`, updatedAt: now },
      });
  }

  const sms = await syncBarrierDevice(tx, deps, barrier.id, { committedBefore });
  // The barrier's other administrators hear of it (issue 43); he who imported sees the result on his screen.
  await recordNotification(tx, { kind: 'import_finished', barrierId: barrier.id, actorUserId: adminId });
  return { phones: added.length, residents: primaries.length, invitations: invitations.size, sms };
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * 409 `import_invitations_limit` (with what is `left`) when `count` more invitations would take the
 * administrator's imports over IMPORT_INVITATIONS_PER_ADMIN_PER_DAY in the last 24 hours (issue 40 item 4,
 * docs/decisions/0030). His imports are serialised by a transaction lock on his id, so two commits cannot
 * both pass at the cap.
 */
async function assertImportInvitationsLeft(
  tx: Executor,
  deps: Dependencies,
  adminId: number,
  count: number,
  now: Date,
): Promise<void> {
  if (count === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-invitations:${adminId}`}))`);
  const [row] = await tx
    .select({ made: sql<number>`count(*)::int` })
    .from(phoneInvitations)
    .where(
      and(
        eq(phoneInvitations.invitedBy, adminId),
        isNotNull(phoneInvitations.extraPhones),
        gt(phoneInvitations.createdAt, new Date(now.getTime() - DAY_MS)),
      ),
    );
  const left = Math.max(0, deps.config.IMPORT_INVITATIONS_PER_ADMIN_PER_DAY - Number(row?.made ?? 0));
  if (count > left) throw conflict('import_invitations_limit', undefined, { left });
}
