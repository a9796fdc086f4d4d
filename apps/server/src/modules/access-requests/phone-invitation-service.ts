/**
 * Invitations by number (issue 14 part 2; issue 28 part 2). Every number gets a waiting invitation, whether it
 * has an account or not, and the answer is the same (no oracle: docs/decisions/0021). The login that creates
 * an account, any later login, and the user's read of his requests claim it (auth/service.ts,
 * service.ts `list`): it becomes an ordinary invitation (an access request from the administrator). The person
 * is told by one SMS, through the gateway of the codes and counted in the codes' budgets (the number's daily cap
 * and the server's hourly budget: auth/repository.ts counts `phone_invitations.sms_sent_at` with the codes),
 * at most once per number and barrier. A refused budget or a failed gateway leaves the invitation waiting and
 * says so in the answer. An administrator makes at most PHONE_INVITES_PER_ADMIN_PER_HOUR of them an hour, and
 * the look-up limit of barrier-users/lookup-limit.ts counts each.
 */
import type {
  InvitePhoneBody,
  InvitePhoneResponse,
  PhoneInvitation,
  PhoneInvitationListQuery,
} from '@propusk/contracts/access-requests';
import { cleanForSms } from '@propusk/contracts/clean-text';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, isUniqueViolation, notFound, tooManyRequests } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import {
  countAllVerificationsSince,
  countVerificationsSince,
  findLiveUserByPhone,
  lockCodeBudget,
  lockPhoneCodes,
} from '../auth/repository.ts';
import { CODE_BUDGET_WINDOW_MS, CODE_DAY_MS } from '../auth/verification.ts';
import { paginate, requireBarrierPermission, userHasAccess } from '../barrier-policy/policy.ts';
import { limitLookup } from '../barrier-users/lookup-limit.ts';
import { assertNumbersNotBlocked } from '../phones/blocked-numbers.ts';
import { hasMuted } from './invitation-mutes.ts';
import * as repository from './phone-invitation-repository.ts';
import { isBlockedBy } from './repository.ts';

const HOUR_MS = 60 * 60_000;

/**
 * What the SMS may carry of what an administrator typed (issue 29 part 6; issue 40 item 2): it goes to any number
 * under the service's name, so only the barrier's address, cleaned (no links by the public suffix list, no
 * mixed-script words, bidi, invisible characters or emoji: text-check.ts) and cut at a word boundary with «…».
 * Not the administrator's name: a name is any words its owner chose («Госуслуги rb.gy/gosu1» went out in one).
 * Stored text from before the rule is cleaned here too.
 */
export const INVITATION_SMS_ADDRESS_MAX = 60;

/** The one SMS: to which barrier, and where to log in. Plain Russian, no link shortener. */
export function invitationSmsText(input: { address: string; siteUrl: string | undefined }): string {
  const address = cleanForSms(input.address, INVITATION_SMS_ADDRESS_MAX) || 'без адреса';
  const where = input.siteUrl
    ? `Войдите по этому номеру на ${input.siteUrl}`
    : 'Войдите в Пропуск по этому номеру';
  // The address in quotes: it is the administrator's words, not the service's.
  return `Вас приглашают к шлагбауму «${address}». ${where}, чтобы принять приглашение.`;
}

function toPhoneInvitation(row: repository.PhoneInvitationListRow): PhoneInvitation {
  return {
    id: row.id,
    barrier: row.barrierId,
    barrier_address: row.barrierAddress,
    phone: row.phone,
    status: row.status,
    sms_sent: row.smsSentAt !== null,
    created_at: apiDateTime(row.createdAt),
  };
}

const invitationNotFound = () => notFound('phone_invitation_not_found');

async function present(deps: Pick<Dependencies, 'db'>, id: number): Promise<PhoneInvitation> {
  const row = await repository.findInvitation(deps.db, id);
  if (!row) throw invitationNotFound();
  return toPhoneInvitation(row);
}

/**
 * No oracle (issue 28 part 2, docs/decisions/0021): a number with an account and one without answer
 * alike, a waiting invitation told by one SMS within the code budgets. An account finds it at its next
 * login or when it reads its requests (`claimForUser`), where it becomes an ordinary invitation. Only what
 * the administrator already knows may answer otherwise: the number of a user of this barrier, or of one
 * the owner blocked.
 */
export async function inviteByPhone(
  deps: Dependencies,
  admin: AuthenticatedUser,
  body: InvitePhoneBody,
): Promise<InvitePhoneResponse> {
  const { db } = deps;
  const barrier = await requireBarrierPermission(db, admin.id, body.barrier, 'users.manage');
  await limitLookup(deps, admin.id);
  const { phone } = body;
  // The owner's block holds for the number, with or without an account (blocked-numbers.ts).
  await assertNumbersNotBlocked(db, barrier.ownerId, [phone]);
  const account = await findLiveUserByPhone(db, phone);
  // Both probes run for every number, so the answer's time says no more than its body.
  const [hasAccess, isBlocked] = await Promise.all([
    userHasAccess(db, barrier.id, account?.id ?? 0),
    isBlockedBy(db, barrier.ownerId, account?.id ?? 0),
  ]);
  if (hasAccess) throw conflict('already_has_access');
  if (isBlocked) throw conflict('blocked_on_barrier');

  const now = deps.clock.now();
  const stored = await db.transaction(async (tx) => {
    // The same lock as code requests and the login that claims waiting invitations.
    await lockPhoneCodes(tx, phone);
    await repository.lockAdminInvitations(tx, admin.id);
    const made = await repository.countByAdminSince(tx, admin.id, new Date(now.getTime() - HOUR_MS));
    if (made.count >= deps.config.PHONE_INVITES_PER_ADMIN_PER_HOUR) {
      const waitMs = (made.oldest ?? now).getTime() + HOUR_MS - now.getTime();
      throw tooManyRequests('phone_invitation_limit', waitMs / 1000);
    }
    if (await repository.findWaiting(tx, barrier.id, phone)) throw conflict('phone_invitation_waiting');

    let smsStatus: InvitePhoneResponse['sms_status'] = 'sent';
    if (await repository.wasToldAbout(tx, barrier.id, phone)) smsStatus = 'already_sent';
    else {
      const today = await countVerificationsSince(tx, phone, new Date(now.getTime() - CODE_DAY_MS));
      if (today.count >= deps.config.CODES_PER_PHONE_PER_DAY) smsStatus = 'budget_exhausted';
      else {
        await lockCodeBudget(tx);
        const hour = await countAllVerificationsSince(tx, new Date(now.getTime() - CODE_BUDGET_WINDOW_MS));
        if (hour.count >= deps.config.SMS_CODE_BUDGET_PER_HOUR) {
          deps.metrics.smsCodesRefusedByBudget.inc();
          smsStatus = 'budget_exhausted';
        }
      }
    }
    try {
      const id = await repository.insertInvitation(tx, {
        barrierId: barrier.id,
        phone,
        invitedBy: admin.id,
        smsSentAt: smsStatus === 'sent' ? now : null,
        now,
      });
      return { id, smsStatus };
    } catch (error) {
      if (isUniqueViolation(error, 'phone_invitations_one_waiting'))
        throw conflict('phone_invitation_waiting');
      throw error;
    }
  });

  let smsStatus: InvitePhoneResponse['sms_status'] = stored.smsStatus;
  // A person who muted the owner's invitations gets no SMS; the administrator is not told (0030).
  const muted = account !== undefined && (await hasMuted(db, account.id, barrier.ownerId));
  if (smsStatus === 'sent' && !muted) {
    const text = invitationSmsText({ address: barrier.address, siteUrl: deps.config.SITE_URL });
    try {
      await deps.sms.send({ to: phone, text });
      deps.metrics.smsSent.inc({ provider: deps.sms.name, purpose: 'invitation' });
      deps.logger.info({ barrierId: barrier.id, invitationId: stored.id }, 'invitation SMS sent');
    } catch (error) {
      deps.metrics.smsFailed.inc({ provider: deps.sms.name, purpose: 'invitation' });
      await repository.clearSmsSent(db, stored.id);
      deps.logger.error(
        {
          barrierId: barrier.id,
          invitationId: stored.id,
          reason: String((error as Error)?.message ?? error),
        },
        'invitation SMS was not sent',
      );
      smsStatus = 'failed';
    }
  }
  return {
    access_request: null,
    phone_invitation: await present(deps, stored.id),
    sms_sent: smsStatus === 'sent',
    sms_status: smsStatus,
  };
}

export async function listPhoneInvitations(
  deps: Pick<Dependencies, 'db'>,
  admin: AuthenticatedUser,
  query: PhoneInvitationListQuery,
) {
  const { db } = deps;
  // Scoped by the statement to his own barriers: another's barrier is an empty list, like every filter.
  const { rows, total } = await repository.listWaiting(db, admin.id, query.barrier, query);
  return paginate('phone_invitations', rows.map(toPhoneInvitation), total, query);
}

export async function cancelPhoneInvitation(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  admin: AuthenticatedUser,
  id: number,
): Promise<void> {
  const { db } = deps;
  const row = await repository.findInvitation(db, id);
  if (!row) throw invitationNotFound();
  try {
    await requireBarrierPermission(db, admin.id, row.barrierId, 'users.manage');
  } catch {
    throw invitationNotFound();
  }
  if (!(await repository.cancelWaiting(db, id, deps.clock.now()))) {
    throw conflict('phone_invitation_processed');
  }
}
