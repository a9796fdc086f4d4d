/**
 * Access requests (spec.md sections 3, 4, 7; DESIGN.md sections 2, 4). A user asks for a public barrier
 * (initiator `user`), or a barrier's owner invites a user (initiator `admin`). For each side, requests it
 * started are `outgoing` and the others `incoming`.
 */
import { z } from 'zod';
import { idField, idSchema, pageQuerySchema, paginated } from './common.ts';

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
  /** Hidden from the caller's side (the user's for user calls, the administrator's for admin calls). */
  hidden_for_user: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

export const accessRequestListSchema = paginated('access_requests', accessRequestSchema);
export const accessRequestParamsSchema = z.object({ id: idSchema });
