/**
 * A barrier's administrators (issues 14 and 16): the owner lists them, adds an administrator account by phone
 * with a role, changes the role, removes him. Types from @propusk/contracts/barrier-staff.
 */
import type {
  AddStaffBody,
  StaffList,
  StaffMember,
  StaffRole,
  staffListSchema,
  staffMemberSchema,
} from '@propusk/contracts/barrier-staff';
import { api } from '../../../lib/api-client';

export type { StaffList, StaffMember, StaffRole };

export const barrierStaffQueryKey = (barrierId: number) => ['admin', 'staff', barrierId] as const;

export function getBarrierStaff(barrierId: number) {
  return api.get<typeof staffListSchema>(`/api/admin/barriers/${barrierId}/staff/`);
}

export function addBarrierStaff(barrierId: number, body: AddStaffBody) {
  return api.post<typeof staffMemberSchema>(`/api/admin/barriers/${barrierId}/staff/`, body);
}

export function changeStaffRole(barrierId: number, userId: number, role: StaffRole) {
  return api.patch<typeof staffMemberSchema>(`/api/admin/barriers/${barrierId}/staff/${userId}/`, { role });
}

export function removeBarrierStaff(barrierId: number, userId: number) {
  return api.delete(`/api/admin/barriers/${barrierId}/staff/${userId}/`);
}
