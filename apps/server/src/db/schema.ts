/**
 * The whole data model of Propusk (spec.md section 3, DESIGN.md sections 3–6).
 *
 * Rows are soft-deleted where history must still point at them (users, barriers, phones): an action keeps
 * its phone id, and GET /api/phones/{id}/ must still describe a phone that has been removed.
 */

import { type AnyColumn, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { currentRequestId } from './request-context.ts';

/** A text-search vector (only ever computed by the database: see barriers.searchVector). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const roleEnum = pgEnum('role', ['user', 'admin']);
export const phonePrivacyEnum = pgEnum('phone_privacy', ['public', 'protected', 'private']);
export const verificationModeEnum = pgEnum('verification_mode', [
  'login',
  'reset_password',
  'change_phone_old',
  'change_phone_new',
  'change_password',
  'delete_account',
  'guest_pass',
]);
export const verificationStatusEnum = pgEnum('verification_status', ['sent', 'verified', 'used']);
export const accessRequestStatusEnum = pgEnum('access_request_status', [
  'pending',
  'accepted',
  'rejected',
  'cancelled',
]);
/** Who started a request: the user asking for access, or the barrier's owner inviting him. */
export const accessRequestInitiatorEnum = pgEnum('access_request_initiator', ['user', 'admin']);
export const phoneTypeEnum = pgEnum('phone_type', ['primary', 'permanent', 'temporary', 'schedule']);
export const phoneStatusEnum = pgEnum('phone_status', ['pending', 'ok', 'error']);
export const actionTypeEnum = pgEnum('action_type', [
  'add_phone',
  'delete_phone',
  'update_phone',
  'barrier_setting',
]);
/** A co-administrator's or dispatcher's role on a barrier (the owner is `barriers.owner_id`, not a row here). */
export const staffRoleEnum = pgEnum('staff_role', ['manager', 'operator', 'dispatcher']);
export const actionAuthorEnum = pgEnum('action_author', ['user', 'admin', 'system']);
export const deviceCommandStatusEnum = pgEnum('device_command_status', [
  'queued',
  'sent',
  'confirmed',
  'failed',
  'cancelled',
]);

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    fullName: text('full_name'),
    phonePrivacy: phonePrivacyEnum('phone_privacy').notNull().default('public'),
    role: roleEnum('role').notNull().default('user'),
    passwordHash: text('password_hash'),
    /**
     * An administrator whose password no longer meets the rule (issue 29 part 9): set at his password step,
     * his administrator area is closed until he sets a new one.
     */
    passwordChangeRequired: boolean('password_change_required').notNull().default(false),
    /** false = blocked platform-wide by the operator (CLI). */
    isActive: boolean('is_active').notNull().default(true),
    blockReason: text('block_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('users_phone_live_unique').on(table.phone).where(sql`${table.deletedAt} is null`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the current opaque refresh token; the token itself is never stored. */
    refreshTokenHash: text('refresh_token_hash').notNull(),
    /**
     * SHA-256 of the refresh token the current one replaced: still accepted while the current one has not been
     * presented (a client that keeps its first token, or a lost response). See docs/decisions/0012.
     */
    previousRefreshTokenHash: text('previous_refresh_token_hash'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('sessions_refresh_token_hash_unique').on(table.refreshTokenHash),
    uniqueIndex('sessions_previous_refresh_token_hash_unique').on(table.previousRefreshTokenHash),
    index('sessions_user_id_idx').on(table.userId),
  ],
);

/**
 * Refresh tokens a session no longer accepts (rotated out). Presenting one is reuse: the session is revoked
 * (docs/decisions/0012). Kept as hashes until the session's absolute lifetime is over.
 */
export const retiredRefreshTokens = pgTable(
  'retired_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    retiredAt: timestamp('retired_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('retired_refresh_tokens_retired_at_idx').on(table.retiredAt)],
);

/**
 * Successful administrator password steps. Each opens one login: with its nonce (stored as SHA-256) from
 * anywhere within 10 minutes, or without it only from the same address within 5 minutes (docs/decisions/0012).
 */
export const adminPasswordSteps = pgTable(
  'admin_password_steps',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nonceHash: text('nonce_hash').notNull(),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('admin_password_steps_nonce_hash_unique').on(table.nonceHash),
    index('admin_password_steps_user_created_idx').on(table.userId, table.createdAt),
  ],
);

export const verifications = pgTable(
  'verifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    mode: verificationModeEnum('mode').notNull(),
    /** Keyed hash (HMAC) of the 6-digit code; the code itself is never stored. */
    codeHash: text('code_hash').notNull(),
    /** SHA-256 of the verification token handed to the client. */
    tokenHash: text('token_hash').notNull(),
    /** Address that asked for the code: the resend cooldown is per address and phone (issue 17 part 3). */
    requestedIp: text('requested_ip'),
    status: verificationStatusEnum('status').notNull().default('sent'),
    /** Tries of this code so far, counted before each comparison (the right one too; at most 5). */
    failedAttempts: smallint('failed_attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /**
     * Which part of the hourly code budget paid for it (issue 29 part 4): `public` (numbers without an account,
     * guest links), `account` (existing accounts), `admin` (an administrator's codes: never refused).
     */
    budgetShare: text('budget_share').notNull().default('account'),
    /** The guest pass a `guest_pass` code was asked for through (its caps per pass and per resident). */
    guestPassId: integer('guest_pass_id').references(() => guestPasses.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('verifications_token_hash_unique').on(table.tokenHash),
    index('verifications_created_share_idx').on(table.createdAt, table.budgetShare),
    index('verifications_guest_pass_idx')
      .on(table.guestPassId, table.createdAt)
      .where(sql`${table.guestPassId} is not null`),
    index('verifications_phone_mode_created_idx').on(table.phone, table.mode, table.createdAt),
    index('verifications_phone_created_idx').on(table.phone, table.createdAt),
  ],
);

/** Wrong codes and wrong passwords, counted per phone (and per address and phone for codes). */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: text('phone').notNull(),
    kind: text('kind').notNull(),
    /** Address the try came from: ten wrong codes lock that address for the phone, not the phone itself. */
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (table) => [index('auth_failures_phone_created_idx').on(table.phone, table.createdAt)],
);

export const barriers = pgTable(
  'barriers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    address: text('address').notNull(),
    devicePhone: text('device_phone').notNull(),
    deviceModel: text('device_model').notNull(),
    /** AES-GCM ciphertext of the 4-digit device password under the server key; null for models without one. */
    devicePasswordEncrypted: text('device_password_encrypted'),
    /**
     * Password changes that cannot strand a unit (issue 30 item 4, docs/decisions/0025): the new password of a
     * change sent and not yet confirmed (the unit may hold it though its answer was lost), and the password
     * before the last change with when that change took effect; both AES-GCM under the server key like the
     * current one. The engine probes with the other one when commands go unanswered.
     */
    devicePasswordPendingEncrypted: text('device_password_pending_encrypted'),
    devicePasswordPreviousEncrypted: text('device_password_previous_encrypted'),
    devicePasswordChangedAt: timestamp('device_password_changed_at', { withTimezone: true }),
    devicePhonesAmount: integer('device_phones_amount').notNull(),
    additionalInfo: text('additional_info').notNull().default(''),
    isPublic: boolean('is_public').notNull().default(true),
    /** When the device confirmed its clock was set; the planner decides when to set it again. */
    deviceClockSetAt: timestamp('device_clock_set_at', { withTimezone: true }),
    /**
     * When the unit first confirmed a command of this barrier (answered with its password): from then on the
     * device number is this barrier's; until then another administrator's barrier may name it too, and the
     * first confirmed wins (issue 40 item 4, docs/decisions/0030).
     */
    deviceConfirmedAt: timestamp('device_confirmed_at', { withTimezone: true }),
    /**
     * The barrier's device profile: a number form and extra reply forms for a unit that answers
     * differently from its model's sheet (`@propusk/devices/profile`, validated before it is stored).
     */
    deviceProfile: jsonb('device_profile'),
    /** Read the device back by itself every this many days (null: only when an administrator asks). */
    deviceAuditDays: integer('device_audit_days'),
    /**
     * The number the unit holds in slot 1: the gateway that talks to it, so that its alarm and power SMS
     * (sent to slots 1–6 and 1) reach the server; residents then live from slot 7 where the unit has room
     * (`@propusk/devices/alarms`, issue 30 item 5). Null: the old layout, residents from slot 1.
     */
    deviceGatewayNumber: text('device_gateway_number'),
    /**
     * The words of the address for the barrier search, abbreviations with their full forms (ул → улица),
     * computed by the database (`barrier_search_vector`, migration 0011) whenever the address is written.
     */
    searchVector: tsvector('search_vector').notNull().generatedAlwaysAs(sql`barrier_search_vector(address)`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    // A device's reply is matched by its number on live and deleted barriers alike (a deleted one may still be
    // clearing its unit): without this, every inbound SMS read the whole table.
    index('barriers_device_phone_idx').on(table.devicePhone),
    index('barriers_owner_idx').on(table.ownerId),
    // An administrator's live barriers in id order (his list's default page) and their count, index-only.
    index('barriers_owner_live_idx').on(table.ownerId, table.id).where(sql`${table.deletedAt} is null`),
    index('barriers_address_idx').on(table.address),
    // A search is every query word as a prefix of some word of the address (`@@ barrier_search_query(…)`).
    index('barriers_search_vector_idx').using('gin', table.searchVector),
    check('barriers_phones_amount_range', sql`${table.devicePhonesAmount} between 1 and 10000`),
    check('barriers_device_audit_days', sql`${table.deviceAuditDays} between 1 and 90`),
  ],
);

export const barrierLimits = pgTable('barrier_limits', {
  barrierId: integer('barrier_id')
    .primaryKey()
    .references(() => barriers.id, { onDelete: 'cascade' }),
  userPhoneLimit: integer('user_phone_limit'),
  userTempPhoneLimit: integer('user_temp_phone_limit'),
  globalTempPhoneLimit: integer('global_temp_phone_limit'),
  userSchedulePhoneLimit: integer('user_schedule_phone_limit'),
  globalSchedulePhoneLimit: integer('global_schedule_phone_limit'),
  scheduleIntervalLimit: integer('schedule_interval_limit'),
  smsWeeklyLimit: integer('sms_weekly_limit'),
  /**
   * Shares of `sms_weekly_limit` (issue 29 item 3, docs/decisions/0023): the SMS one resident's own changes and
   * openings may spend in seven days, and the part only the owner and his staff spend. Null: the defaults
   * (engine/budget/sms-shares.ts).
   */
  smsResidentShare: integer('sms_resident_share'),
  smsOwnerReserve: integer('sms_owner_reserve'),
  updatedAt: updatedAt(),
});

/** Who has access to a barrier (the owner included). */
export const barrierAccess = pgTable(
  'barrier_access',
  {
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /**
     * Copies of the user's `lower(full_name)` and `phone`, kept by the database's triggers (migration
     * 0013: filled on insert, rewritten when the user's name or phone changes), so that the barrier-user
     * search matches within one barrier's index entries instead of reading each user's row.
     */
    searchName: text('search_name'),
    searchPhone: text('search_phone'),
  },
  (table) => [
    primaryKey({ columns: [table.barrierId, table.userId] }),
    index('barrier_access_user_idx').on(table.userId),
    // A barrier's users in the order they got access (the users list's default page), without sorting them
    // all; with the search copies, the barrier-user search is an index-only scan of the barrier's entries.
    index('barrier_access_barrier_created_search_idx').on(
      table.barrierId,
      table.createdAt,
      table.userId,
      table.searchName,
      table.searchPhone,
    ),
  ],
);

/**
 * Administrators other than the owner who act on a barrier with a role (issues 14 and 16): the permissions of
 * each role are in `modules/barrier-policy/policy.ts`. Only administrator accounts are staff.
 */
export const barrierStaff = pgTable(
  'barrier_staff',
  {
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: staffRoleEnum('role').notNull(),
    addedBy: integer('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.barrierId, table.userId] }),
    // The barriers an administrator is staff on (his list).
    index('barrier_staff_user_idx').on(table.userId, table.barrierId),
  ],
);

/** An administrator's own block of a user: closes all of that administrator's barriers to him. */
export const adminBlocks = pgTable(
  'admin_blocks',
  {
    adminId: integer('admin_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    /**
     * The blocked account's number when he was blocked: the number itself stays blocked on this administrator's
     * barriers (as anyone's extra phone, a guest, an import row, an invitation, a new account) even after the
     * account changes its number or is deleted (docs/decisions/0023).
     */
    phone: text('phone'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.adminId, table.userId] }),
    // The blocks of one user (his closed barriers on GET /api/barriers/my/, issue 41).
    index('admin_blocks_user_idx').on(table.userId),
  ],
);

export const accessRequests = pgTable(
  'access_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    initiator: accessRequestInitiatorEnum('initiator').notNull(),
    status: accessRequestStatusEnum('status').notNull().default('pending'),
    hiddenForUser: boolean('hidden_for_user').notNull().default(false),
    hiddenForAdmin: boolean('hidden_for_admin').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('access_requests_one_pending')
      .on(table.userId, table.barrierId)
      .where(sql`${table.status} = 'pending'`),
    index('access_requests_user_idx').on(table.userId, table.createdAt),
    index('access_requests_barrier_idx').on(table.barrierId, table.createdAt),
  ],
);

/** One extra number of an import row kept with an invitation (dates as ISO strings, as jsonb keeps them). */
export interface InvitationExtraPhone {
  number: string;
  name: string;
  type: 'permanent' | 'temporary' | 'schedule';
  start_time: string | null;
  end_time: string | null;
  schedule: WeeklySchedule | null;
}

export const phoneInvitationStatusEnum = pgEnum('phone_invitation_status', [
  'waiting',
  'claimed',
  'cancelled',
]);

/**
 * An invitation by number to a person who has no account yet (issue 14 part 2). It waits for the number; the
 * login that creates the account turns every waiting one into an access request of the new user, in the same
 * transaction (`claimed`, with that request's id). Rows stay after a claim or a cancel: `sms_sent_at` on any
 * row of a barrier and number means that person has been told once, and never will be again for that barrier.
 */
export const phoneInvitations = pgTable(
  'phone_invitations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    /** Normalized (+7XXXXXXXXXX), like users.phone. */
    phone: text('phone').notNull(),
    invitedBy: integer('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: phoneInvitationStatusEnum('status').notNull().default('waiting'),
    /** When the one SMS telling the person went out (counted in the code budgets); null: not sent. */
    smsSentAt: timestamp('sms_sent_at', { withTimezone: true }),
    accessRequestId: integer('access_request_id').references(() => accessRequests.id, {
      onDelete: 'set null',
    }),
    /**
     * An import row's extra numbers, kept with the invitation of a resident who already has an account and
     * added only when he accepts (issue 29 item 5, docs/decisions/0023); null when none.
     */
    extraPhones: jsonb('extra_phones').$type<InvitationExtraPhone[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('phone_invitations_one_waiting')
      .on(table.barrierId, table.phone)
      .where(sql`${table.status} = 'waiting'`),
    index('phone_invitations_phone_idx').on(table.phone, table.status),
    index('phone_invitations_sms_sent_idx').on(table.smsSentAt).where(sql`${table.smsSentAt} is not null`),
    index('phone_invitations_invited_by_idx').on(table.invitedBy, table.createdAt),
  ],
);

/**
 * A person's mute of one administrator's invitations (issue 40 item 4, docs/decisions/0030): his invitations to
 * this person (by id, by number, by import) are kept for the administrator as waiting ones, never shown to
 * the person and never told by SMS. `admin_id` is the barrier's owner named on the invitation card.
 */
export const invitationMutes = pgTable(
  'invitation_mutes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    adminId: integer('admin_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('invitation_mutes_user_admin_unique').on(table.userId, table.adminId)],
);

export type WeeklySchedule = Partial<
  Record<
    'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday',
    { start_time: string; end_time: string }[]
  >
>;

export const phones = pgTable(
  'phones',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    name: text('name').notNull().default(''),
    type: phoneTypeEnum('type').notNull(),
    /** Device slot while active; null once removed. Unique per barrier (see index). */
    slot: integer('slot'),
    startTime: timestamp('start_time', { withTimezone: true }),
    endTime: timestamp('end_time', { withTimezone: true }),
    schedule: jsonb('schedule').$type<WeeklySchedule>(),
    /**
     * The resident whose own change made this timed phone what it is: the SMS its window or schedule will
     * cause over the coming week count in his share of the weekly limit (issue 29 item 3, sms-shares.ts).
     * Null: the owner's, his staff's or an import's, which the reserve pays.
     */
    smsPaidBy: integer('sms_paid_by'),
    status: phoneStatusEnum('status').notNull().default('pending'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('phones_barrier_slot_unique')
      .on(table.barrierId, table.slot)
      .where(sql`${table.slot} is not null`),
    uniqueIndex('phones_barrier_number_active_unique')
      .on(table.barrierId, table.phone)
      .where(sql`${table.isActive}`),
    uniqueIndex('phones_primary_per_user_unique')
      .on(table.barrierId, table.userId)
      .where(sql`${table.isActive} and ${table.type} = 'primary'`),
    index('phones_user_barrier_idx').on(table.userId, table.barrierId),
    index('phones_barrier_active_idx').on(table.barrierId, table.isActive),
    // The every-minute expiry of temporary phones looks only at active ones with an end.
    index('phones_active_temporary_end_idx')
      .on(table.endTime)
      .where(sql`${table.isActive} and ${table.type} = 'temporary'`),
    // A barrier's timed phones with a slot (order.ts `timedPhonesJsonSql`, read with each send decision): without
    // it every send read all of the barrier's phones to keep the timed ones (three barriers of ~467 phones, 65 timed
    // each: 0.74–0.78 ms, 0.35 ms with it; EXPLAIN ANALYZE, warm).
    index('phones_barrier_timed_idx')
      .on(table.barrierId)
      .where(
        sql`${table.isActive} and ${table.slot} is not null and ${table.type} in ('temporary', 'schedule')`,
      ),
  ],
);

export const actions = pgTable(
  'actions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    /** The phone the action concerns (null for settings). */
    phoneId: integer('phone_id').references(() => phones.id, { onDelete: 'set null' }),
    /** Owner of that phone: a user's history shows only actions on his own phones. */
    phoneOwnerId: integer('phone_owner_id').references(() => users.id, { onDelete: 'set null' }),
    actionType: actionTypeEnum('action_type').notNull(),
    author: actionAuthorEnum('author').notNull(),
    authorUserId: integer('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    createdAt: createdAt(),
  },
  (table) => [
    // Each ends with id: a history page (newest first, `created_at desc, id desc`) is then read in index
    // order and stops after page_size rows, instead of sorting every matching action.
    index('actions_barrier_created_idx').on(table.barrierId, table.createdAt, table.id),
    index('actions_barrier_type_created_idx').on(
      table.barrierId,
      table.actionType,
      table.createdAt,
      table.id,
    ),
    index('actions_owner_barrier_created_idx').on(
      table.phoneOwnerId,
      table.barrierId,
      table.createdAt,
      table.id,
    ),
  ],
);

/**
 * The outbox of device commands. Rows are written in the transaction of the change that needs them and
 * sent after commit by the device worker. The SMS text is rendered at send time, so the device password is
 * never stored in clear here.
 */
/**
 * A device command's place in the queue's order across barriers: its rank (an emergency hold or its end,
 * then a revocation, then the rest) and its deadline (`due_at`, else when it was stored). One expression
 * for `device_commands_open_order_idx` and for the query that reads it (`firstBarriersWithOpenCommands`):
 * PostgreSQL uses an expression index only for the same expression.
 */
export const commandRankSql = (kind: AnyColumn) =>
  sql`(case when ${kind} in ('relay_hold', 'relay_release') then -1 when ${kind} = 'delete' then 0 else 1 end)`;
export const commandDueSql = (dueAt: AnyColumn, createdAt: AnyColumn) =>
  sql`coalesce(${dueAt}, ${createdAt})`;

export const deviceCommands = pgTable(
  'device_commands',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    phoneId: integer('phone_id').references(() => phones.id, { onDelete: 'set null' }),
    /**
     * The resident whose own change or opening queued it: counted in his share of the weekly SMS limit
     * (docs/decisions/0023). Null: the owner, his staff or the system (the reserve).
     */
    spentBy: integer('spent_by'),
    /** add | add_window | delete | set_clock | setting | reconcile */
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    status: deviceCommandStatusEnum('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /**
     * SMS each attempt costs, decided once when the command is planned by @propusk/devices/cost
     * `smsPerAttempt` (two on a model that reads a change back); every SQL sum of SMS reads
     * `greatest(attempts, 1) * sms_per_attempt` (engine/budget/command-sms.ts `commandSmsSql`).
     */
    smsPerAttempt: smallint('sms_per_attempt').notNull().default(1),
    /**
     * Answers heard for its sends (issue 30, docs/decisions/0025 "nameless answers"): the SMS taken as its
     * answer (late ones too), and an answer heard while it was in flight that paid an older command's debt.
     * Fewer than `attempts`: an answer is still owed, and a late one naming nothing may be it.
     */
    replies: integer('replies').notNull().default(0),
    lastError: text('last_error'),
    reply: text('reply'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /**
     * When the gateway accepted the current attempt (`attempts`); null while its answer is unknown. A `sent`
     * command with null here was recorded before the gateway call and the call's result was never recorded
     * (the process died): it is handed over again with the same key (engine/send/render.ts `handOffKey`).
     */
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
    /** Not to be sent before this instant (retry backoff); null: as soon as it is the oldest open command. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The gateway (config name) the current attempt was handed to; null before the first hand-over. */
    gateway: text('gateway'),
    /**
     * The command's deadline in the queue's order when it is not its storing time: a window's start (the
     * window must be written before it opens), and for the clock the deadline of the windows it is written
     * for. Null: `created_at`.
     */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /**
     * The request that stored it (its `X-Request-Id`, validated, or the id generated for it: issue 31 part 7);
     * null for commands stored outside a request (jobs, the CLI). Filled by default from the request context.
     */
    requestId: text('request_id').$defaultFn(() => currentRequestId() ?? sql`null`),
  },
  (table) => [
    index('device_commands_barrier_status_idx').on(table.barrierId, table.status, table.id),
    index('device_commands_created_idx').on(table.barrierId, table.createdAt),
    // A barrier's open commands, in the order they were planned (its queue head, the planner's view).
    index('device_commands_open_idx').on(table.barrierId, table.id).where(sql`status in ('queued', 'sent')`),
    // The queue's priority order across barriers, read from the front (`firstBarriersWithOpenCommands`): the
    // first entry of a barrier in this order is its rank (hold, revocation, the rest) and its soonest deadline.
    index('device_commands_open_order_idx')
      .on(commandRankSql(table.kind), commandDueSql(table.dueAt, table.createdAt), table.barrierId)
      .where(sql`status in ('queued', 'sent')`),
    // Emergency holds (and their ends) waiting to be sent: the same count, for the commands below them.
    index('device_commands_queued_hold_idx')
      .on(table.barrierId, table.id)
      .where(sql`status = 'queued' and kind in ('relay_hold', 'relay_release')`),
    // Revocations waiting to be sent: an add takes no send token while one of these is ready (gateway-rate.ts).
    index('device_commands_queued_delete_idx')
      .on(table.barrierId, table.id)
      .where(sql`status = 'queued' and kind = 'delete'`),
  ],
);

/**
 * One token bucket per SMS gateway (issue 15 part 1), shared by every server process on the database: a
 * send takes a token in one statement (engine/send/gateway-rate.ts). Rate and burst are written from the
 * configuration at start-up; `down_until` marks a gateway that failed, for every process.
 */
export const smsGatewayBuckets = pgTable('sms_gateway_buckets', {
  name: text('name').primaryKey(),
  ratePerMinute: doublePrecision('rate_per_minute').notNull(),
  burst: doublePrecision('burst').notNull(),
  tokens: doublePrecision('tokens').notNull(),
  refilledAt: timestamp('refilled_at', { withTimezone: true }).notNull(),
  downUntil: timestamp('down_until', { withTimezone: true }),
  sent: integer('sent').notNull().default(0),
});

/** What the server believes each device holds, slot by slot, as confirmed by its replies. */
export const deviceSlots = pgTable(
  'device_slots',
  {
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    slot: integer('slot').notNull(),
    number: text('number').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }),
    windowEnd: timestamp('window_end', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.barrierId, table.slot] })],
);

/**
 * Signatures of accepted Android gateway webhooks (SHA-256), kept while the signed timestamp is inside the
 * accepted window, so that a captured request cannot be replayed (docs/decisions/0012).
 */
export const inboundWebhookSignatures = pgTable(
  'inbound_webhook_signatures',
  {
    signatureHash: text('signature_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('inbound_webhook_signatures_expires_idx').on(table.expiresAt)],
);

/**
 * Every inbound SMS (device replies), kept for diagnosis. `gateway` and `gateway_message_id` name the SMS as
 * the gateway that delivered it does (the Android app's `payload.messageId`, the demo's own id); a second
 * delivery of one SMS (a webhook retry) hits the unique index and is not matched again
 * (docs/decisions/0011). Both are null where the gateway gives no id (the generic endpoint).
 */
export const inboundSms = pgTable(
  'inbound_sms',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fromPhone: text('from_phone').notNull(),
    text: text('text').notNull(),
    commandId: integer('command_id').references(() => deviceCommands.id, { onDelete: 'set null' }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    gateway: text('gateway'),
    gatewayMessageId: text('gateway_message_id'),
  },
  (table) => [
    index('inbound_sms_from_idx').on(table.fromPhone, table.receivedAt),
    uniqueIndex('inbound_sms_gateway_message_unique').on(
      table.gateway,
      table.fromPhone,
      table.gatewayMessageId,
    ),
  ],
);

/**
 * The conversation with each device: every SMS sent to it and every SMS received from its number, as the
 * administrator reads it in "Журнал устройства". The text is stored with the device password masked (`****`),
 * so the log never holds a password in clear. `outcome`: for 'out' `sent` | `gateway_failed`; for 'in'
 * `confirmed` | `refused` (it answered the command in flight) or `unrecognised` (it matched nothing), and the
 * unit's own SMS `power_failure` | `power_restored` | `alarm` (@propusk/devices/alarms).
 */
export const deviceMessages = pgTable(
  'device_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    /** 'out' (to the device) | 'in' (from it) | 'notice' (an SMS to an administrator about the unit's power) */
    direction: text('direction').notNull(),
    text: text('text').notNull(),
    commandId: integer('command_id').references(() => deviceCommands.id, { onDelete: 'set null' }),
    outcome: text('outcome').notNull(),
    /** The gateway's id of an outgoing message, when it gives one. */
    providerId: text('provider_id'),
    createdAt: createdAt(),
  },
  (table) => [
    // The log's pages, newest first (id order is the order of writing), with and without an outcome filter.
    index('device_messages_barrier_idx').on(table.barrierId, table.id),
    index('device_messages_barrier_outcome_idx').on(table.barrierId, table.outcome, table.id),
    check('device_messages_direction', sql`${table.direction} in ('out', 'in', 'notice')`),
    check(
      'device_messages_outcome',
      sql`(${table.direction} = 'out' and ${table.outcome} in ('sent', 'gateway_failed')) or (${table.direction} = 'notice' and ${table.outcome} in ('notice_sent', 'notice_over_limit', 'notice_daily_limit')) or (${table.direction} = 'in' and ${table.outcome} in ('confirmed', 'refused', 'format_error', 'unrecognised', 'late', 'acknowledged', 'power_failure', 'power_restored', 'alarm', 'captured'))`,
    ),
  ],
);

/**
 * "Проверить устройство": one read-back of a barrier's device. Its queries travel as `device_commands` of
 * kind `read` (payload `{check_id, query}`); each reply's reading is merged into `reading` (slot → '+7…',
 * raw text, or null for empty) or, for number-addressed models, `numbers`. `status`: reading → ready (every
 * query answered) | failed (a query got no reply, or an error) → repaired | cancelled.
 */
export const deviceChecks = pgTable(
  'device_checks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('reading'),
    full: boolean('full').notNull().default(false),
    /** A periodic audit: repaired by itself once read (the database is the truth either way). */
    autoRepair: boolean('auto_repair').notNull().default(false),
    queries: jsonb('queries').notNull(),
    reading: jsonb('reading').notNull().default({}),
    numbers: jsonb('numbers'),
    answered: integer('answered').notNull().default(0),
    /** Why it failed: no_reply | refused | format_error. */
    failure: text('failure'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('device_checks_barrier_idx').on(table.barrierId, table.id),
    check(
      'device_checks_status',
      sql`${table.status} in ('reading', 'ready', 'failed', 'repaired', 'cancelled')`,
    ),
  ],
);

/**
 * A conformance run («Проверка устройства по модели», issue 42; modules/conformance): every form of the
 * barrier's model sent once to its unit, one step at a time through the outbox (device commands of kind
 * `conformance`), each reply stored with its step and judged (`@propusk/devices/conformance`). `steps` is
 * the whole plan with each step's state, command, reply and verdict; `stop_requested`: the person stopped it,
 * only the clean-up (the test number deleted) is still sent. `status`: running | finished | stopped.
 */
/**
 * Models an administrator defines for a unit no built-in sheet covers (issue 42 item 4, docs/decisions/0039):
 * the definition (`@propusk/contracts/device-model-definition`, checked before it is stored). A barrier on one
 * has `device_model` = `defined:<id>`; only its owner's barriers may use it.
 */
export const deviceModels = pgTable(
  'device_models',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    definition: jsonb('definition').notNull(),
    createdAt: createdAt(),
    /** A change of the forms: a conformance run before it no longer verifies the barriers on this model. */
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('device_models_owner_name_unique').on(table.ownerId, sql`lower(${table.name})`)],
);

export const deviceConformanceRuns = pgTable(
  'device_conformance_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('running'),
    stopRequested: boolean('stop_requested').notNull().default(false),
    /** The free slot the test number is written to, and the number ('+7XXXXXXXXXX': the person's own). */
    slot: integer('slot').notNull(),
    testNumber: text('test_number').notNull(),
    includePassword: boolean('include_password').notNull().default(false),
    /** The barrier's offset from UTC when the run started (the clock step's time, a learnt {time}). */
    utcOffsetMinutes: integer('utc_offset_minutes').notNull(),
    steps: jsonb('steps').notNull(),
    /** Why it ended early (Russian), null when every step ran. */
    endReason: text('end_reason'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('device_conformance_runs_barrier_idx').on(table.barrierId, table.id),
    check('device_conformance_runs_status', sql`${table.status} in ('running', 'finished', 'stopped')`),
  ],
);

/**
 * Guest passes (issue 14 part 5): a resident (or an administrator for a resident) makes a single-use link;
 * the guest proves his number by an SMS code and it becomes a temporary phone of `for_user` on the barrier
 * with the pass's window (at most 24 h). Only the SHA-256 of the link's token is stored. An unused pass
 * counts against the temporary-phone limits of `for_user` until it is used, revoked or its window ends;
 * `expired` is not written: a `created` pass past `expires_at` is expired (the API answers it so).
 */
export const guestPasses = pgTable(
  'guest_passes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    forUser: integer('for_user')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (base64url) of the 32-byte random token in the link; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    note: text('note').notNull().default(''),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    /** The link works until then (the window's end). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('created'),
    usedPhone: text('used_phone'),
    phoneId: integer('phone_id').references(() => phones.id, { onDelete: 'set null' }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('guest_passes_token_hash_unique').on(table.tokenHash),
    index('guest_passes_barrier_idx').on(table.barrierId, table.id),
    index('guest_passes_open_idx').on(table.barrierId, table.forUser).where(sql`${table.status} = 'created'`),
    check('guest_passes_status', sql`${table.status} in ('created', 'used', 'revoked', 'expired')`),
    check('guest_passes_window', sql`${table.startTime} < ${table.endTime}`),
  ],
);

/**
 * Openings of a gate from the app (issue 16 part 3): who asked, from which side, the command that carries
 * the relay's "on" (kind `relay_open`), and how it ended. `status`: sent (queued or waiting for the device's
 * answer) → confirmed | failed (`failure`: expired — not sent within OPENING_SEND_WINDOW_MS, so never sent
 * late — no_reply, wrong_password, not_understood, cancelled by an emergency hold).
 */
export const gateOpenings = pgTable(
  'gate_openings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** 'app' (a user with access) | 'admin' (from the administrator's barrier page) */
    via: text('via').notNull(),
    commandId: integer('command_id').references(() => deviceCommands.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').notNull().default('sent'),
    failure: text('failure'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (table) => [
    index('gate_openings_barrier_idx').on(table.barrierId, table.requestedAt, table.id),
    index('gate_openings_user_idx').on(table.userId, table.barrierId, table.requestedAt, table.id),
    check('gate_openings_via', sql`${table.via} in ('app', 'admin')`),
    check('gate_openings_status', sql`${table.status} in ('sent', 'confirmed', 'failed')`),
  ],
);

/**
 * Emergency hold-open (issue 16 part 1; п.71 Правил противопожарного режима, ПП РФ № 1479): who started it
 * and why, when it ended and by whom. Its barriers are `emergency_hold_barriers`; each barrier's state is
 * read from its commands (kinds `relay_hold` and `relay_release`, payload `hold_id`).
 */
export const emergencyHolds = pgTable(
  'emergency_holds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: integer('ended_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [index('emergency_holds_started_by_idx').on(table.startedBy, table.id)],
);

export const emergencyHoldBarriers = pgTable(
  'emergency_hold_barriers',
  {
    holdId: integer('hold_id')
      .notNull()
      .references(() => emergencyHolds.id, { onDelete: 'cascade' }),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    /** Why nothing was sent to this barrier (relay_dialect_unknown | relay_not_supported | device_password_not_set). */
    refused: text('refused'),
    /** The relay time the unit had before (last confirmed through us), restored at the end; null: not known. */
    previousRelaySeconds: integer('previous_relay_seconds'),
  },
  (table) => [
    primaryKey({ columns: [table.holdId, table.barrierId] }),
    index('emergency_hold_barriers_barrier_idx').on(table.barrierId, table.holdId),
  ],
);

/**
 * Rate limits shared by every server process (lib/shared-rate-limiter.ts): a sliding log, one row per allowed
 * hit of a limiter (`bucket`) and key; a refused hit writes nothing. Rows older than their limiter's window
 * are deleted by the limiter as it goes.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [index('rate_limit_hits_key_idx').on(table.bucket, table.key, table.at)],
);

/**
 * Consents to the operator's privacy policy (152-ФЗ, issue 28 part 6; docs/decisions/0022): one row per
 * user and policy version, with when it was given. An account without a row for the current version has not
 * consented to it (the spec's client logs in without asking): our client asks at its next visit.
 */
export const privacyConsents = pgTable(
  'privacy_consents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    policyVersion: text('policy_version').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('privacy_consents_user_version_unique').on(table.userId, table.policyVersion)],
);

// --- notifications (issue 43, docs/decisions/0035) ---

/** A browser's Web Push subscription (one row per device; a person may have several). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(table.endpoint),
    index('push_subscriptions_user_idx').on(table.userId),
  ],
);

/** A person's choices: the event kinds he turned off or on against the defaults, and his quiet hours. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Event kind → on/off, only where he changed the default. */
  choices: jsonb('choices').$type<Record<string, boolean>>().notNull().default({}),
  /** Minutes after local midnight; both null: no quiet hours. */
  quietFrom: smallint('quiet_from'),
  quietTo: smallint('quiet_to'),
  timeZone: text('time_zone').notNull().default('Europe/Moscow'),
  /**
   * An administrator's «СМС при отключении питания»: an SMS to his own number when a unit of his barriers
   * loses power and no push would reach him (modules/notifications/power-sms.ts). Off by default.
   */
  powerSms: boolean('power_sms').notNull().default(false),
  updatedAt: updatedAt(),
});

/**
 * The notification outbox: an event written in the same transaction as the change it tells of, taken up
 * after commit by the dispatch job (jobs/notifications.ts), which decides who hears it and queues deliveries.
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    /** The barrier it is about (administrators' events go to its staff); null for a person's own event. */
    barrierId: integer('barrier_id').references(() => barriers.id, { onDelete: 'cascade' }),
    /** The one person it is for (residents' events), or the person who caused it (not told of his own act). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** What the text needs beyond the barrier (never a phone number). */
    params: jsonb('params').$type<Record<string, string | number>>().notNull().default({}),
    createdAt: createdAt(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (table) => [
    index('notification_events_pending_idx').on(table.id).where(sql`${table.dispatchedAt} is null`),
  ],
);

/**
 * The SMS outbox of power-loss notices to administrators (docs/decisions/0035): one row per outage and
 * person, written by the dispatch in the transaction that marks the event told, sent after commit by the
 * `power-sms` job. A `queued` or `sent` row counts in its barrier's weekly SMS limit
 * (engine/budget/weekly-budget.ts); a `skipped` one (the limit spent, or the day's notices used) cost nothing.
 */
export const powerSmsNotices = pgTable(
  'power_sms_notices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barrierId: integer('barrier_id')
      .notNull()
      .references(() => barriers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The `power_lost` event it tells of (events are deleted after 30 days: no foreign key). */
    eventId: integer('event_id').notNull(),
    /** queued | sent | skipped */
    status: text('status').notNull(),
    /** Why a skipped notice was not sent: over_weekly_limit | daily_limit. */
    reason: text('reason'),
    text: text('text').notNull(),
    /** SMS parts the text costs (@propusk/devices/cost `messageSmsParts`). */
    sms: smallint('sms').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('power_sms_notices_barrier_created_idx').on(table.barrierId, table.createdAt),
    index('power_sms_notices_user_barrier_idx').on(table.userId, table.barrierId, table.eventId),
    check('power_sms_notices_status', sql`${table.status} in ('queued', 'sent', 'skipped')`),
  ],
);
