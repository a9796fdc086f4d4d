/**
 * Every error the server answers with a `detail` carries one of these stable codes
 * (`{"detail": "…", "code": "access_request_pending"}`, DESIGN.md section 2). The English detail stays for
 * clients that show it as given (spec.md section 8); our client shows the Russian text of the code
 * (ERROR_CODE_TEXTS in messages.ts, which must have one for every code here: a test checks it).
 * Field errors keep the spec's shape `{"field": ["message"]}` (a field may itself be named `code`); their
 * messages are translated through FIELD_MESSAGE_TEXTS.
 */
import { ACCESS_REQUEST_MESSAGES, PHONE_INVITATION_MESSAGES } from './access-requests.ts';
import { AUTH_MESSAGES } from './auth.ts';
import { STAFF_MESSAGES } from './barrier-staff.ts';
import { BARRIER_USER_MESSAGES } from './barrier-users.ts';
import { BARRIER_MESSAGES } from './barriers.ts';
import { CLEAN_TEXT_MESSAGE } from './clean-text.ts';
import { CONFORMANCE_RUNNING_DETAIL } from './conformance.ts';
import { DEVICE_CHECK_NOT_READY_DETAIL, DEVICE_CHECK_RUNNING_DETAIL } from './device-checks.ts';
import { PHONE_NOT_IN_ERROR_DETAIL } from './devices.ts';
import { GUEST_PASS_MESSAGES } from './guest-passes.ts';
import { IMPORT_MESSAGES } from './imports.ts';
import { LIMIT_MESSAGES } from './limits.ts';
import { PHONE_MESSAGES } from './phones.ts';
import { PRIVACY_MESSAGES } from './privacy.ts';
import { PROFILE_MESSAGES } from './users.ts';

/** Code → the English detail sent with it (a few details carry a value: see ERROR_CODE_TEXTS). */
export const ERROR_CODES = {
  // Generic: authentication, permissions, routing, transport.
  not_authenticated: 'Authentication credentials were not provided or are invalid.',
  token_invalid: 'Token is invalid or expired.',
  permission_denied: 'You do not have permission to perform this action.',
  not_found: 'Not found.',
  malformed_json: 'Malformed JSON body.',
  bad_request: 'The request could not be read.',
  // A human text field that breaks the clean-text rule (issue 29 part 6): sent beside the field's own message.
  text_not_allowed: CLEAN_TEXT_MESSAGE,
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'Unsupported content type.',
  method_not_allowed: 'Method not allowed.',
  internal_error: 'Internal server error.',
  database_unavailable: 'Database unavailable.',
  service_unavailable: 'The service is temporarily unavailable. Try again later.',
  too_many_requests: AUTH_MESSAGES.tooManyRequests,
  too_many_log_entries: 'Too many log entries. Try again later.',

  // Authentication and verification codes.
  code_already_sent: AUTH_MESSAGES.codeAlreadySent,
  invalid_code: AUTH_MESSAGES.invalidCode,
  code_attempts_exhausted: AUTH_MESSAGES.codeAttemptsExhausted,
  too_many_failures: AUTH_MESSAGES.tooManyFailures,
  daily_code_limit: AUTH_MESSAGES.dailyCodeLimit,
  sms_budget_exhausted: AUTH_MESSAGES.smsBudgetExhausted,
  verification_token_invalid: AUTH_MESSAGES.invalidToken,
  verification_expired: AUTH_MESSAGES.tokenExpired,
  verification_not_verified: AUTH_MESSAGES.tokenNotVerified,
  verification_token_used: AUTH_MESSAGES.tokenUsed,
  user_not_found: AUTH_MESSAGES.userNotFound,
  user_blocked: AUTH_MESSAGES.userBlocked,
  admin_only: AUTH_MESSAGES.adminOnly,
  not_own_phone: AUTH_MESSAGES.notOwnPhone,
  phone_in_use: AUTH_MESSAGES.phoneInUse,
  password_required: AUTH_MESSAGES.passwordRequired,
  invalid_credentials: AUTH_MESSAGES.invalidCredentials,
  refresh_invalid: AUTH_MESSAGES.invalidRefresh,
  refresh_reused: AUTH_MESSAGES.refreshReused,
  admin_password_reset_cli: AUTH_MESSAGES.adminPasswordResetCli,
  webhook_replayed: 'This signed request was already accepted.',
  sms_failed: AUTH_MESSAGES.smsFailed,
  // Abuse bounds (issue 29, docs/decisions/0024).
  phone_prefix_not_allowed: 'Codes are sent only to numbers with an allowed prefix.',
  guest_pass_code_limit: AUTH_MESSAGES.guestPassCodeLimit,
  guest_pass_resident_code_limit: AUTH_MESSAGES.guestPassResidentCodeLimit,
  password_too_weak: AUTH_MESSAGES.passwordTooWeak,
  password_change_required: AUTH_MESSAGES.passwordChangeRequired,

  // Own profile.
  same_phone: PROFILE_MESSAGES.samePhone,
  phone_on_own_barrier: PROFILE_MESSAGES.phoneOnBarrier,
  wrong_old_password: PROFILE_MESSAGES.wrongOldPassword,
  owns_barriers: PROFILE_MESSAGES.ownsBarriers,

  // Barriers.
  barrier_not_found: BARRIER_MESSAGES.barrierNotFound,
  barrier_no_access: BARRIER_MESSAGES.noAccess,
  owner_cannot_leave: BARRIER_MESSAGES.ownerCannotLeave,
  device_phone_taken: BARRIER_MESSAGES.devicePhoneTaken,
  barrier_permission_denied: STAFF_MESSAGES.permissionDenied,

  // Co-administrators and dispatchers of a barrier.
  staff_not_admin: STAFF_MESSAGES.notAdmin,
  staff_is_owner: STAFF_MESSAGES.isOwner,
  staff_already_added: STAFF_MESSAGES.alreadyStaff,
  staff_not_found: STAFF_MESSAGES.notFound,

  // Access requests.
  access_request_not_found: 'Access request not found.',
  access_request_pending: ACCESS_REQUEST_MESSAGES.alreadyPending,
  already_has_access: ACCESS_REQUEST_MESSAGES.alreadyHasAccess,
  request_only_for_self: ACCESS_REQUEST_MESSAGES.onlyForSelf,
  blocked_on_barrier: ACCESS_REQUEST_MESSAGES.blocked,
  access_request_processed: ACCESS_REQUEST_MESSAGES.alreadyProcessed,
  access_request_only_receiver: ACCESS_REQUEST_MESSAGES.onlyReceiver,
  access_request_only_sender: ACCESS_REQUEST_MESSAGES.onlySender,
  barrier_not_public: 'This barrier does not take access requests.',
  phone_invitation_waiting: PHONE_INVITATION_MESSAGES.waiting,
  phone_invitation_processed: PHONE_INVITATION_MESSAGES.processed,
  phone_invitation_not_found: PHONE_INVITATION_MESSAGES.notFound,
  phone_invitation_limit: PHONE_INVITATION_MESSAGES.tooMany,

  // Users of a barrier.
  cannot_remove_owner: BARRIER_USER_MESSAGES.cannotRemoveOwner,
  user_not_on_barrier: BARRIER_USER_MESSAGES.notOnBarrier,
  cannot_block_self: BARRIER_USER_MESSAGES.cannotBlockSelf,

  // Phones and limits.
  phone_not_found: 'Phone not found.',
  phone_duplicate: PHONE_MESSAGES.duplicate,
  phone_deleted: PHONE_MESSAGES.notActive,
  phone_no_schedule: PHONE_MESSAGES.noSchedule,
  primary_phone_cannot_be_deleted: PHONE_MESSAGES.primaryCannotBeDeleted,
  limit_user_phones: LIMIT_MESSAGES.userPhones,
  limit_user_temporary: LIMIT_MESSAGES.userTemporary,
  limit_barrier_temporary: LIMIT_MESSAGES.globalTemporary,
  limit_user_schedule: LIMIT_MESSAGES.userSchedule,
  limit_barrier_schedule: LIMIT_MESSAGES.globalSchedule,
  schedule_interval_too_short: 'Schedule intervals on this barrier are too short.',
  no_free_slot: LIMIT_MESSAGES.noFreeSlot,
  sms_weekly_limit: 'The weekly SMS limit of this barrier would be exceeded.',

  // Blocks, shares of the weekly SMS limit (issue 29, docs/decisions/0023).
  phone_blocked_on_barrier: "This number was blocked by the barrier's owner.",
  phone_of_other_account: 'This number belongs to another account: its owner asks for access himself.',
  sms_resident_share_used: 'Your share of the weekly SMS limit of this barrier is used up.',
  sms_residents_pool_used: "The residents' part of the weekly SMS limit of this barrier is used up.",

  // Guest passes.
  guest_pass_unavailable: GUEST_PASS_MESSAGES.unavailable,
  guest_pass_not_found: GUEST_PASS_MESSAGES.notFound,

  // History.
  action_not_found: 'Action not found.',
  export_too_large: 'Too many rows to export: narrow the filters.',

  // The device: settings, checks, retries, the demo unit.
  device_model_unknown: 'The barrier has no known device model.',
  device_password_not_set: 'The device password of this barrier is not set.',
  unknown_setting: 'Unknown setting.',
  relay_dialect_unknown:
    "The device's command dialect is not known: a relay value of one firmware can hold the gate open on another.",
  setting_params_missing: 'Missing params.',
  setting_params_invalid: 'Invalid params.',
  setting_command_not_found: 'Setting command not found.',
  device_check_running: DEVICE_CHECK_RUNNING_DETAIL,
  device_check_not_ready: DEVICE_CHECK_NOT_READY_DETAIL,
  device_factory_password_unknown: "No source gives this device model's factory password.",
  phone_not_in_error: PHONE_NOT_IN_ERROR_DETAIL,
  simulator_empty: 'The simulated unit has not received anything yet.',
  alarm_layout_unsupported: 'This device model sends no alarms the server can receive.',
  alarm_layout_no_gateway: 'No gateway number is configured (DEVICE_GATEWAY_PHONE).',
  alarm_layout_no_room: 'The device has no free slot for the resident in slot 1.',
  alarm_layout_done: "The gateway's number already holds slot 1.",
  alarm_layout_cost_changed: 'The SMS count of the move changed: look at the plan again.',
  conformance_running: CONFORMANCE_RUNNING_DETAIL,
  conformance_no_read_back: 'This device model documents no way to read its numbers back.',
  conformance_no_free_slot: 'The device has no free slot for the test number.',
  conformance_no_test_number: 'Your account has no phone number to use as the test number.',
  conformance_not_running: 'No conformance run of this barrier is under way.',
  conformance_test_number_in_use:
    'This device holds numbers, not slots: your number is on the barrier, and deleting the test number would delete it.',
  device_profile_file_invalid: 'The device profile file does not fit this barrier.',
  // Models an operator defines (issue 42 item 4).
  device_model_invalid: 'The model definition is not valid.',
  device_model_not_found: 'No such model of yours.',
  device_model_in_use: 'A barrier uses this model.',
  device_model_name_taken: 'You have a model with this name.',
  device_models_limit: 'Too many models.',

  // The relay: openings from the app and the emergency hold-open (issue 16).
  relay_not_supported: 'This device model has no relay command the server can send.',
  too_many_openings: 'Too many openings: wait before opening again.',
  emergency_hold_active: 'An emergency hold-open is running on this barrier.',
  opening_too_late: 'The tap reached the server too late: the opening was not sent.',
  emergency_hold_not_found: 'Emergency hold not found.',
  emergency_hold_ended: 'This emergency hold has already ended.',
  no_barriers_to_hold: 'There is no barrier to hold open.',
  // Import of residents (issue 14).
  import_file_missing: IMPORT_MESSAGES.fileMissing,
  import_file_invalid: IMPORT_MESSAGES.fileInvalid,
  import_file_too_large: IMPORT_MESSAGES.fileTooLarge,
  import_file_unpacked_too_large:
    'The workbook unpacks to too much data (or too compressed) to be a table of residents.',
  import_headers_invalid: IMPORT_MESSAGES.headersInvalid,
  import_empty: IMPORT_MESSAGES.empty,
  import_too_many_rows: IMPORT_MESSAGES.tooManyRows,
  // With `line`: the line of the file (1 = the headers).
  import_cell_too_long: IMPORT_MESSAGES.cellTooLong,
  import_has_problems: IMPORT_MESSAGES.hasProblems,
  import_file_changed: IMPORT_MESSAGES.fileChanged,
  // Privacy (issue 28): look-ups by number, per administrator.
  lookup_limit: 'Too many look-ups by phone number. Try again later.',
  // No free oracles (issue 40 item 4, docs/decisions/0030).
  account_answers_limit:
    'Too many numbers that already have an account today. Try again later or ask the person himself.',
  import_invitations_limit: 'Too many invitations from imports today. Try again later.',
  invitations_muted_not_found: 'This administrator is not muted.',
  // The privacy policy and consent (152-ФЗ, issue 28 part 6).
  policy_version_outdated: PRIVACY_MESSAGES.policyChanged,
  // Address searches of the public list, bounded (issue 29 part 8).
  too_many_searches: 'Too many address searches: wait a little and search again.',
  search_timeout: 'The address search took too long: narrow it down and search again.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
