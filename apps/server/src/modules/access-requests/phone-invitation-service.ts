/**
 * Invitations by number (issue 14 part 2). A number with an account is invited the ordinary way (an access
 * request from the administrator: he sees it in the app, no SMS). A number without one gets a waiting
 * invitation; the login that creates the account claims it (auth/service.ts, same transaction). The person is
 * told by one SMS, through the gateway of the codes and counted in the codes' budgets (the number's daily cap
 * and the server's hourly budget: auth/repository.ts counts `phone_invitations.sms_sent_at` with the codes),
 * at most once per number and barrier. A refused budget or a failed gateway leaves the invitation waiting and
 * says so in the answer. An administrator makes at most PHONE_INVITES_PER_ADMIN_PER_HOUR of them an hour.
 */
import type {
  InvitePhoneBody,
  InvitePhoneResponse,
  PhoneInvitation,
  PhoneInvitationListQuery,
} from '@propusk/contracts/access-requests';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, isUniqueViolation, notFound, tooManyRequests } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import {
  countAllVerificationsSince,
  countVerificationsSince,
  findLiveUserById,
  findLiveUserByPhone,
  lockCodeBudget,
  lockPhoneCodes,
} from '../auth/repository.ts';
import { CODE_BUDGET_WINDOW_MS, CODE_DAY_MS } from '../auth/verification.ts';
import { paginate, requireBarrierPermission } from '../barriers/policy.ts';
import { assertNumbersNotBlocked } from '../phones/blocked-numbers.ts';
import * as repository from './phone-invitation-repository.ts';
import { createAccessRequestService } from './service.ts';

const HOUR_MS = 60 * 60_000;

/** The one SMS: who invites, to which barrier, and where to log in. Plain Russian, no link shortener. */
export function invitationSmsText(input: {
  address: string;
  adminName: string | null;
  siteUrl: string | undefined;
}): string {
  const who = input.adminName ? `Администратор ${input.adminName} приглашает` : 'Вас приглашают';
  const where = input.siteUrl
    ? `Войдите по этому номеру на ${input.siteUrl}`
    : 'Войдите в Пропуск по этому номеру';
  return `${who}${input.adminName ? ' вас' : ''} к шлагбауму: ${input.address}. ${where}, чтобы принять приглашение.`;
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

export function createPhoneInvitationService(deps: Dependencies) {
  const { db } = deps;
  const requests = createAccessRequestService(deps);
  const invitationNotFound = () => notFound('phone_invitation_not_found');

  async function present(id: number): Promise<PhoneInvitation> {
    const row = await repository.findInvitation(db, id);
    if (!row) throw invitationNotFound();
    return toPhoneInvitation(row);
  }

  async function inviteAccount(admin: AuthenticatedUser, userId: number, barrierId: number) {
    const request = await requests.invite(admin, { user: userId, barrier: barrierId });
    return {
      access_request: request,
      phone_invitation: null,
      sms_sent: false,
      sms_status: 'not_needed',
    } satisfies InvitePhoneResponse;
  }

  return {
    async invite(admin: AuthenticatedUser, body: InvitePhoneBody): Promise<InvitePhoneResponse> {
      const barrier = await requireBarrierPermission(db, admin.id, body.barrier, 'users.manage');
      const { phone } = body;
      // The owner's block holds for the number, with or without an account (blocked-numbers.ts).
      await assertNumbersNotBlocked(db, barrier.ownerId, [phone]);
      const account = await findLiveUserByPhone(db, phone);
      if (account) return inviteAccount(admin, account.id, barrier.id);

      const now = deps.clock.now();
      const stored = await db.transaction(async (tx) => {
        // The same lock as code requests and the login that creates the account: an account made meanwhile
        // is seen here, and a waiting invitation made here is seen by that login's claim.
        await lockPhoneCodes(tx, phone);
        const raced = await findLiveUserByPhone(tx, phone);
        if (raced) return { kind: 'account', accountId: raced.id } as const;
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
            const hour = await countAllVerificationsSince(
              tx,
              new Date(now.getTime() - CODE_BUDGET_WINDOW_MS),
            );
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
          return { kind: 'invitation', id, smsStatus } as const;
        } catch (error) {
          if (isUniqueViolation(error, 'phone_invitations_one_waiting'))
            throw conflict('phone_invitation_waiting');
          throw error;
        }
      });
      if (stored.kind === 'account') return inviteAccount(admin, stored.accountId, barrier.id);

      let smsStatus: InvitePhoneResponse['sms_status'] = stored.smsStatus;
      if (smsStatus === 'sent') {
        const inviter = await findLiveUserById(db, admin.id);
        const text = invitationSmsText({
          address: barrier.address,
          adminName: inviter?.fullName ?? null,
          siteUrl: deps.config.SITE_URL,
        });
        try {
          await deps.sms.send({ to: phone, text });
          deps.metrics.smsSent.inc({ provider: deps.sms.name, purpose: 'invitation' });
          deps.logger.info({ phone, barrierId: barrier.id }, 'invitation SMS sent');
        } catch (error) {
          deps.metrics.smsFailed.inc({ provider: deps.sms.name, purpose: 'invitation' });
          await repository.clearSmsSent(db, stored.id);
          deps.logger.error(
            { phone, barrierId: barrier.id, reason: String((error as Error)?.message ?? error) },
            'invitation SMS was not sent',
          );
          smsStatus = 'failed';
        }
      }
      return {
        access_request: null,
        phone_invitation: await present(stored.id),
        sms_sent: smsStatus === 'sent',
        sms_status: smsStatus,
      };
    },

    async list(admin: AuthenticatedUser, query: PhoneInvitationListQuery) {
      // Scoped by the statement to his own barriers: another's barrier is an empty list, like every filter.
      const { rows, total } = await repository.listWaiting(db, admin.id, query.barrier, query);
      return paginate('phone_invitations', rows.map(toPhoneInvitation), total, query);
    },

    async cancel(admin: AuthenticatedUser, id: number): Promise<void> {
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
    },
  };
}
