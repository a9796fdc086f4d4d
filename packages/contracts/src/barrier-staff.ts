/**
 * Co-administrators and dispatchers of a barrier (issues 14 and 16): the owner adds another administrator
 * account by its phone with a role, changes the role, removes him. What each role may do: the server's
 * `ROLE_PERMISSIONS` (modules/barriers/policy.ts).
 */
import { z } from 'zod';
import { idSchema, phoneLenientSchema } from './common.ts';

export const STAFF_ROLES = ['manager', 'operator', 'dispatcher'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** The caller's role on a barrier in the administrator's list and page. */
export const BARRIER_ROLES = ['owner', ...STAFF_ROLES] as const;
export type BarrierRole = (typeof BARRIER_ROLES)[number];

export const STAFF_MESSAGES = {
  role: `Role must be one of: ${STAFF_ROLES.join(', ')}.`,
  permissionDenied: 'Your role on this barrier does not allow this action.',
  notAdmin: 'No administrator account has this phone.',
  isOwner: 'The owner already manages this barrier.',
  alreadyStaff: 'This administrator is already on the barrier.',
  notFound: 'This administrator is not on the barrier.',
} as const;

const roleSchema = z.enum(STAFF_ROLES, { error: STAFF_MESSAGES.role });

export const addStaffBodySchema = z.object({ phone: phoneLenientSchema, role: roleSchema });
export type AddStaffBody = z.infer<typeof addStaffBodySchema>;

export const updateStaffBodySchema = z.object({ role: roleSchema });
export type UpdateStaffBody = z.infer<typeof updateStaffBodySchema>;

export const staffParamsSchema = z.object({ id: idSchema, userId: idSchema });

export const staffMemberSchema = z.object({
  /** The administrator's user id. */
  id: z.number().int(),
  full_name: z.string().nullable(),
  phone: z.string(),
  role: z.enum(STAFF_ROLES),
  created_at: z.string(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffListSchema = z.object({ staff: z.array(staffMemberSchema) });
export type StaffList = z.infer<typeof staffListSchema>;
