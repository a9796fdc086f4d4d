/**
 * A barrier's staff (issues 14 and 16): the owner adds another administrator account by its phone with a role
 * (manager, operator, dispatcher), changes the role, removes him. Only the owner (`staff.manage`). A change
 * takes effect on the staff member's next request: every administrator-side call reads his role afresh
 * (`requireBarrierPermission`). Each change is written to the barrier's history.
 */
import type { AddStaffBody, StaffMember } from '@propusk/contracts/barrier-staff';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission, type StaffRole } from '../barrier-policy/policy.ts';
import { limitLookup } from '../barrier-users/lookup-limit.ts';
import { isRelatedUser } from '../barrier-users/repository.ts';
import * as repository from './repository.ts';

type MemberRow = NonNullable<Awaited<ReturnType<typeof repository.findStaffMember>>>;

const toMember = (row: MemberRow): StaffMember => ({
  id: row.id,
  full_name: row.fullName,
  phone: row.phone,
  role: row.role,
  created_at: apiDateTime(row.createdAt),
});

const staffNotFound = () => notFound('staff_not_found');

const staffValue = (member: MemberRow, role: StaffRole) => ({
  staff_user: member.id,
  staff_name: member.fullName,
  role,
});

export async function listStaff(deps: Pick<Dependencies, 'db'>, admin: AuthenticatedUser, barrierId: number) {
  const { db } = deps;
  await requireBarrierPermission(db, admin.id, barrierId, 'staff.manage');
  return { staff: (await repository.listStaff(db, barrierId)).map(toMember) };
}

/**
 * Staff are administrator accounts (platform administrators are made by the operator's CLI). A number is
 * no oracle (issue 28 part 2, docs/decisions/0021): only an administrator the owner already knows is found,
 * one who uses or asked for one of his barriers, accepted his invitation, or is staff on another of them.
 * A number with no account, with a user's account or with a stranger's is the same 404 `staff_not_admin`.
 */
export async function addStaff(
  deps: Dependencies,
  admin: AuthenticatedUser,
  barrierId: number,
  body: AddStaffBody,
): Promise<StaffMember> {
  const { db } = deps;
  const barrier = await requireBarrierPermission(db, admin.id, barrierId, 'staff.manage');
  await limitLookup(deps, admin.id);
  const account = await repository.findLiveUserByPhone(db, body.phone);
  const isKnown =
    account?.role === 'admin' &&
    account.isActive &&
    account.id !== barrier.ownerId &&
    ((await isRelatedUser(db, barrier.ownerId, account.id, 'owned')) ||
      (await repository.isStaffOfOwner(db, barrier.ownerId, account.id)));
  if (account?.id === barrier.ownerId) throw conflict('staff_is_owner');
  if (!account || !isKnown) throw notFound('staff_not_admin');
  const now = deps.clock.now();
  const member = await db.transaction(async (tx) => {
    const inserted = await repository.insertStaff(tx, {
      barrierId,
      userId: account.id,
      role: body.role,
      addedBy: admin.id,
      createdAt: now,
    });
    if (!inserted) throw conflict('staff_already_added');
    const row = await repository.findStaffMember(tx, barrierId, account.id);
    if (!row) throw staffNotFound();
    await repository.insertStaffAction(tx, {
      barrierId,
      authorUserId: admin.id,
      newValue: { setting: 'staff_added', ...staffValue(row, body.role) },
      createdAt: now,
    });
    return row;
  });
  return toMember(member);
}

export async function changeStaffRole(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  admin: AuthenticatedUser,
  barrierId: number,
  userId: number,
  role: StaffRole,
): Promise<StaffMember> {
  const { db } = deps;
  await requireBarrierPermission(db, admin.id, barrierId, 'staff.manage');
  const now = deps.clock.now();
  const member = await db.transaction(async (tx) => {
    const before = await repository.findStaffMember(tx, barrierId, userId);
    if (!before) throw staffNotFound();
    if (before.role === role) return before;
    await repository.updateStaffRole(tx, barrierId, userId, role);
    await repository.insertStaffAction(tx, {
      barrierId,
      authorUserId: admin.id,
      oldValue: { role: before.role },
      newValue: { setting: 'staff_role', ...staffValue(before, role) },
      createdAt: now,
    });
    return { ...before, role };
  });
  return toMember(member);
}

export async function removeStaff(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  admin: AuthenticatedUser,
  barrierId: number,
  userId: number,
): Promise<void> {
  const { db } = deps;
  await requireBarrierPermission(db, admin.id, barrierId, 'staff.manage');
  await db.transaction(async (tx) => {
    const before = await repository.findStaffMember(tx, barrierId, userId);
    if (!before || !(await repository.deleteStaff(tx, barrierId, userId))) throw staffNotFound();
    await repository.insertStaffAction(tx, {
      barrierId,
      authorUserId: admin.id,
      oldValue: { role: before.role },
      newValue: { setting: 'staff_removed', ...staffValue(before, before.role) },
      createdAt: deps.clock.now(),
    });
  });
}
