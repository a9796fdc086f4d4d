/**
 * Co-administrators and dispatchers of a barrier (issues 14 and 16): the owner adds another administrator
 * account by its phone with a role, changes the role, removes him. What each role may do: the server's
 * `ROLE_PERMISSIONS` below.
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
  notAdmin:
    'No administrator you know has this phone: he asks for access to one of your barriers or accepts your invitation first.',
  isOwner: 'The owner already manages this barrier.',
  alreadyStaff: 'This administrator is already on the barrier.',
  notFound: 'This administrator is not on the barrier.',
} as const;

/**
 * What an administrator may do on a barrier (the server checks each route's one permission:
 * `requireBarrierPermission` in apps/server/src/modules/barrier-policy/policy.ts; screens hide what the role lacks).
 */
export const BARRIER_PERMISSIONS = [
  'barrier.view', // the barrier's administrator page and limits (every role)
  'barrier.delete', // delete the barrier (owner only)
  'staff.manage', // add and remove co-administrators and dispatchers (owner only)
  'barrier.edit', // name, address, limits, device number and password, public flag
  'settings.manage', // device settings and device checks
  'users.manage', // users of the barrier, blocks, invitations, import and export of users
  'phones.manage', // phones of the barrier's users
  'requests.manage', // access requests
  'history.view', // history and its export
  'device.health', // the device log and health
  'relay.open', // open the gate once from the app
  'relay.hold', // emergency hold-open and its end
] as const;
export type BarrierPermission = (typeof BARRIER_PERMISSIONS)[number];

const allBut = (...excluded: BarrierPermission[]) =>
  BARRIER_PERMISSIONS.filter((permission) => !excluded.includes(permission));

/**
 * The permissions of each role (pure data). A manager does everything but deleting the barrier and managing
 * its staff. An operator looks after people: users, phones, requests, and the history; he also sees the
 * device's health, since whether a phone reached the device (and why not) is read there. A dispatcher opens
 * the gate, holds it open and watches the device, nothing else.
 */
export const ROLE_PERMISSIONS: Readonly<Record<BarrierRole, readonly BarrierPermission[]>> = {
  owner: BARRIER_PERMISSIONS,
  manager: allBut('barrier.delete', 'staff.manage'),
  operator: [
    'barrier.view',
    'users.manage',
    'phones.manage',
    'requests.manage',
    'history.view',
    'device.health',
  ],
  dispatcher: ['barrier.view', 'relay.open', 'relay.hold', 'device.health'],
};

export const roleHolds = (role: BarrierRole, permission: BarrierPermission) =>
  ROLE_PERMISSIONS[role].includes(permission);

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
