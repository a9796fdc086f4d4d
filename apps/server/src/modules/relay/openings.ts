/**
 * Opening a gate from the app or the admin screens (issue 16; docs/decisions/0019-relay.md): authorization (a
 * user with access, or an administrator with `relay.open`), the relay must be drivable (relayAvailability: 409
 * relay_dialect_unknown / relay_not_supported), no hold on the barrier (409 emergency_hold_active: its DD would
 * close the held gate), the per-user rate limit (429 too_many_openings: 1 per 30 s per barrier, 20 per hour),
 * the barrier's weekly SMS limit (409 sms_weekly_limit), then in one transaction: the `gate_openings` row, its
 * commands, its history entry. A tap that arrives late is logged as failed and never sent.
 */
import { maskPhone } from '@propusk/contracts/phone-mask';
import { parseDateTimeInput } from '@propusk/contracts/phones';
import { OPENING_TAP_WINDOW_MS, type Opening } from '@propusk/contracts/relay';
import type { DeviceModel } from '@propusk/devices/models';
import { openingSteps } from '@propusk/devices/relay';
import { assertResidentSmsShare, assertWeeklySmsBudget, smsSpender } from '../../engine/budget/index.ts';
import { loadCommittedSms, lockBarrier } from '../../engine/plan/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict, gone, tooManyRequests } from '../../lib/errors.ts';
import { createSharedRateLimiter, type SharedRateLimiter } from '../../lib/shared-rate-limiter.ts';
import {
  pageOffset,
  paginate,
  requireBarrierAccess,
  requireBarrierPermission,
  requireBarrierRole,
  roleHolds,
} from '../barrier-policy/policy.ts';
import { relayCheck, stepPayload } from './relay-check.ts';
import {
  activeHoldOn,
  countOpenings,
  insertOpening,
  knownRelaySeconds,
  loadOpenings,
  type OpeningListFilter,
  type OpeningRow,
  queueRelayCommand,
  recordGateAction,
  setOpeningCommand,
} from './repository.ts';

type Deps = Pick<Dependencies, 'db' | 'clock' | 'config' | 'notifyDeviceCommands'>;

/** Per-user limits of openings, shared by every server process (lib/shared-rate-limiter.ts). */
export const OPENING_LIMITS = {
  perBarrier: { count: 1, windowMs: 30_000 },
  perHour: { count: 20, windowMs: 3_600_000 },
};
const limiters = new WeakMap<object, { barrier: SharedRateLimiter; hour: SharedRateLimiter }>();
function openingLimiters(deps: Pick<Dependencies, 'clock' | 'db'>) {
  let found = limiters.get(deps);
  if (!found) {
    const now = () => deps.clock.now().getTime();
    const { perBarrier, perHour } = OPENING_LIMITS;
    found = {
      barrier: createSharedRateLimiter(deps.db, {
        name: 'openings-barrier',
        limit: perBarrier.count,
        windowMs: perBarrier.windowMs,
        now,
      }),
      hour: createSharedRateLimiter(deps.db, {
        name: 'openings-hour',
        limit: perHour.count,
        windowMs: perHour.windowMs,
        now,
      }),
    };
    limiters.set(deps, found);
  }
  return found;
}

/** Whether the tap (its time in the server's clock, sent by the client) is older than the window allows. */
function isLateTap(tappedAt: string | undefined, now: Date): boolean {
  if (tappedAt === undefined) return false;
  const tapped = Date.parse(tappedAt);
  return Number.isNaN(tapped) || now.getTime() - tapped > OPENING_TAP_WINDOW_MS;
}

export async function openGate(
  deps: Deps,
  userId: number,
  barrierId: number,
  via: 'app' | 'admin',
  tappedAt?: string,
): Promise<Opening> {
  const now = deps.clock.now();
  const late = isLateTap(tappedAt, now);
  const openingId = await deps.db.transaction(async (tx) => {
    const barrier =
      via === 'app'
        ? await requireBarrierAccess(tx, userId, barrierId)
        : await requireBarrierPermission(tx, userId, barrierId, 'relay.open');
    if (late) {
      // Held back on the way (a browser queue, a slow network): logged as not sent, nothing goes to the device.
      await insertOpening(tx, {
        barrierId,
        userId,
        via,
        requestedAt: now,
        status: 'failed',
        failure: 'late',
      });
      return null;
    }
    await lockBarrier(tx, barrierId);
    const check = await relayCheck(tx, barrier);
    if (!check.ok) {
      if (check.code === 'device_password_not_set') throw badRequest(check.code);
      throw conflict(check.code);
    }
    if ((await activeHoldOn(tx, barrierId)) !== null) throw conflict('emergency_hold_active');
    const limits = openingLimiters(deps);
    const wait = Math.max(
      await limits.barrier.hit(`${userId}:${barrierId}`, tx),
      await limits.hour.hit(String(userId), tx),
    );
    if (wait > 0) throw tooManyRequests('too_many_openings', wait);
    const model = barrier.deviceModel as DeviceModel;
    const steps = openingSteps(model, await knownRelaySeconds(tx, barrierId));
    await assertWeeklySmsBudget(tx, barrierId, steps.off ? 2 : 1, now, () =>
      loadCommittedSms(tx, deps, barrierId, now),
    );
    // A resident's opening spends his share of the weekly SMS limit (sms-shares.ts); staff's the reserve.
    const spentBy = await smsSpender(tx, barrierId, userId);
    if (spentBy !== null)
      await assertResidentSmsShare(
        tx,
        barrierId,
        spentBy,
        steps.off ? 2 : 1,
        now,
        deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
      );
    const id = await insertOpening(tx, { barrierId, userId, via, requestedAt: now, status: 'sent' });
    if (id === null) throw new Error('opening not stored');
    const on = await queueRelayCommand(tx, {
      barrierId,
      kind: 'relay_open',
      spentBy,
      payload: stepPayload(steps.on, { opening_id: id }),
      createdAt: now,
    });
    if (steps.off) {
      // Placeholder time: it is set to `afterSeconds` from the moment the CC is settled (commands.ts).
      await queueRelayCommand(tx, {
        barrierId,
        kind: 'relay_open_off',
        spentBy,
        payload: stepPayload(steps.off.step, { opening_id: id, off_after_seconds: steps.off.afterSeconds }),
        createdAt: now,
        nextAttemptAt: new Date(now.getTime() + 60 * 60_000),
      });
    }
    await setOpeningCommand(tx, id, on);
    await recordGateAction(tx, {
      barrierId,
      author: via === 'app' ? 'user' : 'admin',
      authorUserId: userId,
      reason: 'manual',
      newValue: { setting: 'gate_open', opening_id: id, via },
      createdAt: now,
    });
    return id;
  });
  if (openingId === null) throw gone('opening_too_late');
  deps.notifyDeviceCommands([barrierId]);
  const [view] = (await loadOpenings(deps.db, { openingId }, 1, 0)).map(openingView);
  if (!view) throw new Error('opening not found');
  return view;
}

function openingView(row: OpeningRow): Opening {
  return {
    id: row.id,
    barrier: row.barrierId,
    user: row.userId,
    user_name: row.userName ?? null,
    user_phone: row.userPhone ?? null,
    via: row.via as Opening['via'],
    requested_at: apiDateTime(row.requestedAt),
    status: row.status as Opening['status'],
    failure: row.failure,
    confirmed_at: apiDateTime(row.confirmedAt),
  };
}

export interface OpeningQuery {
  page: number;
  page_size: number;
  status?: 'sent' | 'confirmed' | 'failed' | undefined;
  phone?: string | undefined;
  user?: number | undefined;
  requested_from?: string | undefined;
  requested_to?: string | undefined;
}

export async function listOpenings(
  deps: Pick<Dependencies, 'db' | 'config'>,
  userId: number,
  barrierId: number,
  query: OpeningQuery,
  side: 'user' | 'admin',
) {
  // Issue 28 part 3: a role that does not manage phones (a dispatcher) reads the openers' numbers masked, and
  // his filter by number matches only the last four digits he can see (a substring would spell the rest).
  let readsPhones = true;
  if (side === 'user') await requireBarrierAccess(deps.db, userId, barrierId);
  else {
    const { role } = await requireBarrierRole(deps.db, userId, barrierId, 'relay.open');
    readsPhones = roleHolds(role, 'phones.manage');
  }
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  const filter: OpeningListFilter = { barrierId, status: query.status };
  if (side === 'user') filter.userId = userId;
  else {
    filter.userId = query.user;
    const digits = query.phone?.replace(/\D/g, '') ?? '';
    if (digits && readsPhones) filter.phoneContains = digits;
    else if (digits) filter.phoneEndsWith = digits.slice(-4);
  }
  filter.from = query.requested_from ? parseDateTimeInput(query.requested_from, offset) : null;
  filter.to = query.requested_to ? parseDateTimeInput(query.requested_to, offset) : null;
  const loaded = (await loadOpenings(deps.db, filter, query.page_size, pageOffset(query))).map(openingView);
  const items = readsPhones
    ? loaded
    : loaded.map((item) => ({ ...item, user_phone: item.user_phone && maskPhone(item.user_phone) }));
  return paginate('openings', items, await countOpenings(deps.db, filter), query);
}
