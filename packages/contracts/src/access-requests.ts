/**
 * Access requests (spec.md sections 3, 4, 7; DESIGN.md sections 2, 4). A user asks for a public barrier
 * (initiator `user`), or a barrier's owner invites a user (initiator `admin`). For each side, requests it
 * started are `outgoing` and the others `incoming`.
 */
import { z } from 'zod';
import { idField, idSchema, pageQuerySchema, paginated, phoneLenientSchema } from './common.ts';

export const ACCESS_REQUEST_STATUSES = ['pending', 'accepted', 'rejected', 'cancelled'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];
export const ACCESS_REQUEST_FINAL_STATUSES = ['accepted', 'rejected', 'cancelled'] as const;
export const ACCESS_REQUEST_TYPES = ['incoming', 'outgoing'] as const;
export const ACCESS_REQUEST_INITIATORS = ['user', 'admin'] as const;

export const ACCESS_REQUEST_MESSAGES = {
  alreadyHasAccess: 'This user already has access to the barrier.',
  alreadyPending: 'A pending request for this barrier already exists.',
  onlyForSelf: 'You can only request access for yourself.',
  blocked: 'This user is blocked by the administrator of this barrier.',
  alreadyProcessed: 'This request has already been processed.',
  onlyReceiver: 'Only the receiving side can accept or reject a request.',
  onlySender: 'Only the sender can cancel a request.',
  nothingToUpdate: 'Provide status or hidden_for_user.',
  status: 'Status must be one of: accepted, rejected, cancelled.',
  userNotFound: 'User not found.',
} as const;

export const createAccessRequestBodySchema = z.object({
  user: idField('User must be a user id.'),
  barrier: idField('Barrier must be a barrier id.'),
});
export type CreateAccessRequestBody = z.infer<typeof createAccessRequestBodySchema>;

export const updateAccessRequestBodySchema = z
  .object({
    status: z.enum(ACCESS_REQUEST_FINAL_STATUSES, { error: ACCESS_REQUEST_MESSAGES.status }).optional(),
    /** Hides the request from the caller's side only (the user's lists or the administrator's). */
    hidden_for_user: z.boolean({ error: 'Must be true or false.' }).optional(),
  })
  .refine((body) => body.status !== undefined || body.hidden_for_user !== undefined, {
    error: ACCESS_REQUEST_MESSAGES.nothingToUpdate,
    path: ['non_field_errors'],
  });
export type UpdateAccessRequestBody = z.infer<typeof updateAccessRequestBodySchema>;

export const accessRequestListQuerySchema = pageQuerySchema.extend({
  /** Absent: both. */
  type: z.enum(ACCESS_REQUEST_TYPES, { error: 'Type must be incoming or outgoing.' }).optional(),
  status: z.enum(ACCESS_REQUEST_STATUSES, { error: 'Unknown status.' }).optional(),
});
export type AccessRequestListQuery = z.infer<typeof accessRequestListQuerySchema>;

export const accessRequestSchema = z.object({
  id: z.number().int(),
  /** Ids, as spec.md section 3 names them (the spec's client builds /api/barriers/{barrier}/ from them). */
  user: z.number().int(),
  barrier: z.number().int(),
  /** What a list shows of them, flat beside the ids (DESIGN.md section 2). */
  user_full_name: z.string().nullable(),
  user_phone: z.string(),
  barrier_address: z.string(),
  /** The barrier's administrator (who invites, or decides on a request), by his full name; null if he has none. */
  barrier_owner_name: z.string().nullable(),
  status: z.enum(ACCESS_REQUEST_STATUSES),
  initiator: z.enum(ACCESS_REQUEST_INITIATORS),
  /** As the caller sees it: outgoing = started by his side. */
  type: z.enum(ACCESS_REQUEST_TYPES),
  /**
   * The barrier's administrator has blocked the request's user (issue 41 major 2): an accepted request no
   * longer means access; the lists say that his access was closed.
   */
  closed_by_admin: z.boolean(),
  /** Hidden from the caller's side (the user's for user calls, the administrator's for admin calls). */
  hidden_for_user: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

export const accessRequestListSchema = paginated('access_requests', accessRequestSchema);
export const accessRequestParamsSchema = z.object({ id: idSchema });

/**
 * Invitation by number (issue 14 part 2). A number with an account gets an ordinary invitation (the same
 * access request as POST /api/admin/access_requests/); a number without one gets a waiting invitation, which
 * the login that creates the account turns into an ordinary one. The person is told by one SMS, within the
 * code budgets, at most once per barrier; never a person who has an account (he sees it in the app).
 */
export const PHONE_INVITATION_MESSAGES = {
  waiting: 'An invitation for this number is already waiting.',
  processed: 'This invitation is no longer waiting.',
  notFound: 'Invitation not found.',
  tooMany: 'Too many invitations by number. Try again later.',
} as const;

export const invitePhoneBodySchema = z.object({
  barrier: idField('Barrier must be a barrier id.'),
  phone: phoneLenientSchema,
});
export type InvitePhoneBody = z.infer<typeof invitePhoneBodySchema>;

export const PHONE_INVITATION_SMS_STATUSES = [
  /** The SMS went out now. */
  'sent',
  /** This number was already told about this barrier once: no second SMS. */
  'already_sent',
  /** A code budget (per number per day, or the server's hour) refused it: the invitation waits untold. */
  'budget_exhausted',
  /** The gateway refused or could not be reached. */
  'failed',
  /** The number has an account: he sees the invitation in the app, no SMS. */
  'not_needed',
] as const;

export const phoneInvitationSchema = z.object({
  id: z.number().int(),
  barrier: z.number().int(),
  barrier_address: z.string(),
  phone: z.string(),
  /** Only `waiting` invitations are listed; a claimed one is an access request of the new user. */
  status: z.enum(['waiting', 'claimed', 'cancelled']),
  sms_sent: z.boolean(),
  created_at: z.string(),
});
export type PhoneInvitation = z.infer<typeof phoneInvitationSchema>;

export const invitePhoneResponseSchema = z.object({
  /** The ordinary invitation, when the number has an account; otherwise null. */
  access_request: accessRequestSchema.nullable(),
  /** The waiting invitation, when the number has no account; otherwise null. */
  phone_invitation: phoneInvitationSchema.nullable(),
  sms_sent: z.boolean(),
  sms_status: z.enum(PHONE_INVITATION_SMS_STATUSES),
});
export type InvitePhoneResponse = z.infer<typeof invitePhoneResponseSchema>;

export const phoneInvitationListQuerySchema = pageQuerySchema.extend({
  /** Only this barrier's (absent: all of the administrator's barriers). */
  barrier: idSchema.optional(),
});
export type PhoneInvitationListQuery = z.infer<typeof phoneInvitationListQuerySchema>;
export const phoneInvitationListSchema = paginated('phone_invitations', phoneInvitationSchema);
export const phoneInvitationParamsSchema = z.object({ id: idSchema });

/**
 * A person's mute of one administrator's invitations (issue 40 item 4, docs/decisions/0030): made from an
 * invitation's card (POST /api/access_requests/{id}/mute/, no body), listed and lifted in «Заявки»
 * (GET /api/invitation_mutes/, DELETE /api/invitation_mutes/{id}/).
 */
export const invitationMuteSchema = z.object({
  id: z.number().int(),
  /** The administrator (the barrier's owner named on the invitations), by his full name; null if he has none. */
  admin_name: z.string().nullable(),
  created_at: z.string(),
});
export type InvitationMute = z.infer<typeof invitationMuteSchema>;
export const invitationMuteListSchema = z.object({ mutes: z.array(invitationMuteSchema) });
export type InvitationMuteList = z.infer<typeof invitationMuteListSchema>;
export const invitationMuteParamsSchema = z.object({ id: idSchema });
