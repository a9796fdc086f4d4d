/**
 * Barriers: public search, the user's card, creation and settings by the owner, limits, leaving and
 * deletion (spec.md sections 5–7; DESIGN.md sections 4, 5). Every method checks who may do it first.
 */

import type {
  AdminBarrier,
  BarrierDanger,
  BarrierDetail,
  BarrierListQuery,
  BarrierSummary,
  CreateBarrierBody,
  UpdateBarrierBody,
} from '@propusk/contracts/barriers';
import { BARRIER_MESSAGES } from '@propusk/contracts/barriers';
import {
  LIMIT_MESSAGES,
  type Limits,
  MINUTES_PER_DAY,
  PHONE_COUNT_LIMIT_FIELDS,
  type UpdateLimitsBody,
} from '@propusk/contracts/limits';
import { hasAlarms } from '@propusk/devices/alarms';
import {
  definedModelId,
  getSheet,
  isAvailableDeviceModel,
  isDeviceModel,
  isValidDevicePassword,
} from '@propusk/devices/models';
import type { Executor } from '../../db/database.ts';
import { type DeviceSummary, deviceSummaries } from '../../engine/health.ts';
import { syncBarrierDevice } from '../../engine/outbox.ts';
import { smsShareSummary, smsSpender } from '../../engine/sms-shares.ts';
import { countCommandsThisWeek } from '../../engine/weekly-budget.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, FieldError } from '../../lib/errors.ts';
import { ResultCache } from '../../lib/result-cache.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import {
  barrierNotFound,
  paginate as page,
  pageOffset,
  requireBarrierAccess,
  requireBarrierPermission,
  requireVisibleBarrier,
  visibleOwnerPhone,
} from '../barrier-policy/policy.ts';
import { ownDefinedModelForBarrier } from '../device-models/service.ts';
import { deviceCapacity } from '../phones/phone-admission.ts';
import { deactivatePhonesLocked, lockLiveBarrier } from '../phones/phone-changes.ts';
import { grantAccessLocked, revokeAccessLocked } from './access-changes.ts';
import { closedBarriersOf } from './closed-barriers.ts';
import * as repository from './repository.ts';
import { createSearchBounds, SearchLimited } from './search-bounds.ts';
import { addressSearchKey } from './search-key.ts';

type SummaryRow = repository.BarrierSummaryRow;

function toSummary(row: SummaryRow, viewerId: number): BarrierSummary {
  const isOwner = row.ownerId === viewerId;
  const hasAccess = Boolean(row.hasAccess);
  return {
    id: row.id,
    address: row.address,
    additional_info: row.additionalInfo,
    is_public: row.isPublic,
    owner: {
      id: row.ownerId,
      full_name: row.ownerName,
      phone: visibleOwnerPhone(
        { phone: row.ownerPhone, phonePrivacy: row.ownerPrivacy },
        { isOwner, hasAccess },
      ),
    },
    // The gate's number to call (issue 32 item 4): only a viewer the device opens for, or its owner.
    device_phone: hasAccess || isOwner ? row.devicePhone : null,
    has_access: hasAccess,
    pending_request:
      row.pendingInitiator === 'user' ? 'outgoing' : row.pendingInitiator === 'admin' ? 'incoming' : null,
  };
}

type DangerRow = repository.BarrierDangerColumns;

function dangersOf(row: DangerRow | undefined): BarrierDanger[] {
  if (!row) return [];
  const found: BarrierDanger[] = [];
  if (row.openToAll) found.push('open_to_all');
  if (row.relayAlwaysOn) found.push('relay_always_on');
  if (row.holdId !== null) found.push('emergency_hold');
  return found;
}

/** Widened access of each barrier of a page, by id (one statement). */
async function dangersByBarrier(executor: Executor, ids: number[]): Promise<Map<number, DangerRow>> {
  const rows = await repository.barrierDangers(executor, ids);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The administrator's view of a barrier: its row carries its dangers (repository.ts `dangerColumns`). */
function toAdminBarrier(
  row: NonNullable<repository.AdminBarrierRow>,
  device: DeviceSummary = { state: 'ok', power: null, powerSince: null },
): AdminBarrier {
  return {
    id: row.id,
    address: row.address,
    owner: { id: row.ownerId, full_name: row.ownerName, phone: row.ownerPhone },
    device_phone: row.devicePhone,
    device_model: row.deviceModel,
    device_phones_amount: row.devicePhonesAmount,
    additional_info: row.additionalInfo,
    is_public: row.isPublic,
    created_at: apiDateTime(row.createdAt),
    device_state: device.state,
    device_power: device.power,
    device_power_since: apiDateTime(device.powerSince),
    device_gateway_number: row.deviceGatewayNumber,
    my_role: row.myRole ?? 'owner',
    dangers: dangersOf(row),
    emergency_hold_id: row.holdId ?? null,
  };
}

export function toLimits(
  row: Awaited<ReturnType<typeof repository.findLimits>>,
  smsBudget: Limits['sms_budget'] = null,
): Limits {
  return {
    user_phone_limit: row?.userPhoneLimit ?? null,
    user_temp_phone_limit: row?.userTempPhoneLimit ?? null,
    global_temp_phone_limit: row?.globalTempPhoneLimit ?? null,
    user_schedule_phone_limit: row?.userSchedulePhoneLimit ?? null,
    global_schedule_phone_limit: row?.globalSchedulePhoneLimit ?? null,
    schedule_interval_limit: row?.scheduleIntervalLimit ?? null,
    sms_weekly_limit: row?.smsWeeklyLimit ?? null,
    sms_resident_share: row?.smsResidentShare ?? null,
    sms_owner_reserve: row?.smsOwnerReserve ?? null,
    sms_budget: smsBudget,
  };
}

/**
 * How long `total_count` of the public list and the matches of an address search may lag behind another
 * process's changes (this process's own creations, deletions and visibility changes show at once). A client
 * pages until it gets fewer items than it asked for, so a total a few seconds old is not visible to it; a
 * barrier made public elsewhere shows in a search within this time.
 */
export const PUBLIC_COUNT_TTL_MS = 5000;
/**
 * How many ids of an address search are kept: the first pages of any page size. A page beyond them is read
 * from the database with the search (its total still from the kept answer).
 */
export const PUBLIC_SEARCH_IDS_KEPT = 1000;

export function createBarrierService(
  deps: Dependencies,
  options: { searchIdsKept?: number; searchStatementTimeout?: string } = {},
) {
  const searchIdsKept = options.searchIdsKept ?? PUBLIC_SEARCH_IDS_KEPT;
  const { db } = deps;
  const searchBounds = createSearchBounds(deps, { statementTimeout: options.searchStatementTimeout });

  /**
   * What is left of the weekly SMS limit (sms-shares.ts): `userId`'s own share when he is a resident there;
   * null for the owner's and staff's view (reserve and residents' total).
   */
  async function smsBudget(barrierId: number, userId: number | null) {
    const now = deps.clock.now();
    const residentId = userId === null ? null : await smsSpender(db, barrierId, userId);
    const used = await countCommandsThisWeek(db, barrierId, now);
    return smsShareSummary(db, barrierId, residentId, now, used, deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES);
  }
  /** The count of public barriers, and the matches of each address search (per ordering): see ResultCache. */
  const publicCounts = new ResultCache<number>(PUBLIC_COUNT_TTL_MS, 1);
  const publicSearches = new ResultCache<{ ids: number[]; total: number }>(PUBLIC_COUNT_TTL_MS, 500);
  /** The administrator's view of a barrier, with its device's state. */
  async function adminBarrier(row: NonNullable<repository.AdminBarrierRow>): Promise<AdminBarrier> {
    const states = await deviceSummaries(db, deps, [row.id]);
    return toAdminBarrier(row, states.get(row.id));
  }

  const publicListChanged = () => {
    publicCounts.invalidate();
    publicSearches.invalidate();
  };

  async function publicPage(user: AuthenticatedUser, query: BarrierListQuery) {
    const address = query.address;
    if (!address) {
      return Promise.all([
        repository.listPublicBarriers(db, user.id, query),
        publicCounts.get('all', () => repository.countPublicBarriers(db)),
      ]);
    }
    const key = `${query.ordering ?? 'id'} ${addressSearchKey(address)}`;
    // Only a search that reaches the database is counted and bounded in time (search-bounds.ts), and counted
    // once: the requests that miss the cache together share its computation, the limit check included (a check
    // before joining let each of them count, and once over the limit none computed, so the cache stayed empty
    // and every request of the minute got 429). Joined to someone else's computation that his limit refused,
    // a request computes on its own budget.
    const compute = () =>
      searchBounds
        .limit(user.id)
        .then(() =>
          searchBounds.run((tx) =>
            repository.searchPublicBarrierIds(tx, address, query.ordering, searchIdsKept),
          ),
        );
    const search = await publicSearches.get(key, compute).catch((error: unknown) => {
      if (error instanceof SearchLimited && error.userId !== user.id) return publicSearches.get(key, compute);
      throw error;
    });
    const offset = pageOffset(query);
    const end = offset + query.page_size;
    const rows =
      end <= search.ids.length || search.ids.length === search.total
        ? await repository.listPublicBarriersByIds(db, user.id, search.ids.slice(offset, end), query.ordering)
        : await searchBounds
            .limit(user.id)
            .then(() => searchBounds.run((tx) => repository.listPublicBarriers(tx, user.id, query)));
    return [rows, search.total] as const;
  }

  return {
    async listPublic(user: AuthenticatedUser, query: BarrierListQuery) {
      const [rows, total] = await publicPage(user, query);
      return page(
        'barriers',
        rows.map((row) => toSummary(row, user.id)),
        total,
        query,
      );
    },

    /**
     * His barriers, and beside them those his administrator closed to him by a block (closed-barriers.ts), on
     * the first page of the list without an address search (where the screen shows them).
     */
    async listMine(user: AuthenticatedUser, query: BarrierListQuery) {
      const withClosed = query.page === 1 && !query.address;
      const {
        rows,
        total,
        closed: carried,
      } = await repository.listOwnBarriers(db, user.id, query, withClosed);
      // A first page with no row of his own carries no column: the closed barriers are then asked alone.
      const closed = carried ?? (withClosed ? await closedBarriersOf(db, user.id) : []);
      return {
        ...page(
          'barriers',
          rows.map((row) => toSummary(row, user.id)),
          total,
          query,
        ),
        closed_by_admin: closed,
      };
    },

    async getCard(user: AuthenticatedUser, barrierId: number): Promise<BarrierDetail> {
      await requireVisibleBarrier(db, user.id, barrierId);
      const row = await repository.findBarrierCard(db, barrierId, user.id);
      if (!row) throw barrierNotFound();
      const summary = toSummary(row, user.id);
      const isOwner = row.ownerId === user.id;
      const dangers = summary.has_access || isOwner ? await dangersByBarrier(db, [barrierId]) : new Map();
      return {
        ...summary,
        device_model: row.deviceModel,
        device_phones_amount: row.devicePhonesAmount,
        is_owner: isOwner,
        block_reason: row.blockReason ?? null,
        dangers: dangersOf(dangers.get(barrierId)),
      };
    },

    async checkAccess(user: AuthenticatedUser, barrierId: number) {
      const { hasAccess } = await requireVisibleBarrier(db, user.id, barrierId);
      return { has_access: hasAccess };
    },

    async getLimits(user: AuthenticatedUser, barrierId: number): Promise<Limits> {
      await requireBarrierAccess(db, user.id, barrierId);
      return toLimits(await repository.findLimits(db, barrierId), await smsBudget(barrierId, user.id));
    },

    async leave(user: AuthenticatedUser, barrierId: number): Promise<void> {
      const barrier = await requireBarrierAccess(db, user.id, barrierId);
      if (barrier.ownerId === user.id) throw conflict('owner_cannot_leave');
      await db.transaction(async (tx) => {
        const locked = await lockLiveBarrier(tx, barrierId);
        await revokeAccessLocked(
          tx,
          deps,
          locked.id,
          user.id,
          { author: 'user', userId: user.id },
          'barrier_exit',
        );
        // Never refused, but counted to the resident who left (the owner's reserve moves only by the owner,
        // staff and the system; docs/decisions/0030).
        const spentBy = await smsSpender(tx, locked.id, user.id);
        await syncBarrierDevice(tx, deps, locked.id, { enforceWeeklyLimit: false, spentBy });
      });
      deps.notifyDeviceCommands([barrierId]);
    },

    async create(admin: AuthenticatedUser, body: CreateBarrierBody): Promise<AdminBarrier> {
      const model = body.device_model;
      // A model he defined (docs/decisions/0039): his own only; another's is refused as an unknown model.
      const definedOwn =
        definedModelId(model) === null ? null : await ownDefinedModelForBarrier(db, admin.id, model, false);
      // The barrier form's list (DEVICE_MODEL_OPTIONS): a model the engine cannot confirm yet is refused.
      if (definedOwn === false || !isAvailableDeviceModel(model))
        throw new FieldError({ device_model: [BARRIER_MESSAGES.deviceModel] });
      const sheet = getSheet(model);
      const fields: Record<string, string[]> = {};
      if (sheet.hasPassword && !isValidDevicePassword(model, body.device_password)) {
        fields.device_password = [BARRIER_MESSAGES.devicePassword];
      }
      // The unit's documented capacity (on number-addressed models slotCount is only our numbering).
      if (body.device_phones_amount > sheet.capacity) {
        fields.device_phones_amount = [
          BARRIER_MESSAGES.phonesAmountOverSlots(definedOwn ? sheet.label : model, sheet.capacity),
        ];
      }
      if (Object.keys(fields).length > 0) throw new FieldError(fields);

      const now = deps.clock.now();
      const barrierId = await db.transaction(async (tx) => {
        const owner = await repository.findOwner(tx, admin.id);
        if (!owner) throw barrierNotFound();
        // His defined model, held for share until the barrier is written: a delete of it waits, then refuses.
        if (definedOwn && !(await ownDefinedModelForBarrier(tx, admin.id, model, true)))
          throw new FieldError({ device_model: [BARRIER_MESSAGES.deviceModel] });
        // The number is refused only once a unit confirmed it on another barrier: an unconfirmed claim tells
        // nothing and blocks nobody (the first confirmed wins; issue 40 item 4, decision 0030).
        if (await repository.devicePhoneConfirmedElsewhere(tx, body.device_phone))
          throw conflict('device_phone_taken');
        const id = await repository.insertBarrier(tx, {
          ownerId: admin.id,
          address: body.address,
          devicePhone: body.device_phone,
          deviceModel: model,
          devicePasswordEncrypted:
            sheet.hasPassword && body.device_password ? deps.secrets.encrypt(body.device_password) : null,
          devicePhonesAmount: body.device_phones_amount,
          // The unit sends its power-failure SMS to slot 1 only: the gateway's number goes there, so that
          // it reaches the server (issue 30 item 5; residents then start at slot 7 where there is room).
          deviceGatewayNumber:
            deps.config.DEVICE_GATEWAY_PHONE && hasAlarms(model) ? deps.config.DEVICE_GATEWAY_PHONE : null,
          additionalInfo: body.additional_info ?? '',
          isPublic: body.is_public,
          createdAt: now,
          updatedAt: now,
        });
        const locked = await lockLiveBarrier(tx, id);
        await grantAccessLocked(tx, deps, locked, owner, { author: 'admin', userId: admin.id });
        await syncBarrierDevice(tx, deps, id);
        return id;
      });
      publicListChanged();
      deps.notifyDeviceCommands([barrierId]);
      const row = await repository.findOwnedBarrierRow(db, barrierId, admin.id);
      if (!row) throw barrierNotFound();
      return adminBarrier(row);
    },

    async listOwned(admin: AuthenticatedUser, query: BarrierListQuery) {
      const { rows, total } = await repository.listOwnedBarriers(db, admin.id, query);
      // One statement for the whole page's device states (the dangers came with the page).
      const states = await deviceSummaries(
        db,
        deps,
        rows.map((row) => row.id),
      );
      return page(
        'barriers',
        rows.map((row) => toAdminBarrier(row, states.get(row.id))),
        total,
        query,
      );
    },

    async getOwned(admin: AuthenticatedUser, barrierId: number): Promise<AdminBarrier> {
      await requireBarrierPermission(db, admin.id, barrierId, 'barrier.view');
      const row = await repository.findOwnedBarrierRow(db, barrierId, admin.id);
      if (!row) throw barrierNotFound();
      return adminBarrier(row);
    },

    async update(
      admin: AuthenticatedUser,
      barrierId: number,
      body: UpdateBarrierBody,
    ): Promise<AdminBarrier> {
      const barrier = await requireBarrierPermission(db, admin.id, barrierId, 'barrier.edit');
      const values: Parameters<typeof repository.updateBarrier>[2] = { updatedAt: deps.clock.now() };
      if (body.additional_info !== undefined) values.additionalInfo = body.additional_info ?? '';
      if (body.is_public !== undefined) values.isPublic = body.is_public;
      if (body.device_password !== undefined && isDeviceModel(barrier.deviceModel)) {
        // Models without a password ignore it; the stored value is corrected without any SMS.
        if (getSheet(barrier.deviceModel).hasPassword) {
          values.devicePasswordEncrypted = deps.secrets.encrypt(body.device_password);
        }
      }
      await repository.updateBarrier(db, barrierId, values);
      if (values.isPublic !== undefined) publicListChanged();
      const row = await repository.findOwnedBarrierRow(db, barrierId, admin.id);
      if (!row) throw barrierNotFound();
      return adminBarrier(row);
    },

    async remove(admin: AuthenticatedUser, barrierId: number): Promise<void> {
      await requireBarrierPermission(db, admin.id, barrierId, 'barrier.delete');
      await db.transaction(async (tx) => {
        const locked = await lockLiveBarrier(tx, barrierId);
        await deactivatePhonesLocked(
          tx,
          deps,
          locked.id,
          {},
          { author: 'admin', userId: admin.id },
          'barrier_deleted',
        );
        await repository.markBarrierDeleted(tx, locked.id, deps.clock.now());
        await syncBarrierDevice(tx, deps, locked.id, { enforceWeeklyLimit: false });
      });
      publicListChanged();
      deps.notifyDeviceCommands([barrierId]);
    },

    async getOwnedLimits(admin: AuthenticatedUser, barrierId: number): Promise<Limits> {
      await requireBarrierPermission(db, admin.id, barrierId, 'barrier.view');
      return toLimits(await repository.findLimits(db, barrierId), await smsBudget(barrierId, null));
    },

    async updateLimits(admin: AuthenticatedUser, barrierId: number, body: UpdateLimitsBody): Promise<Limits> {
      const barrier = await requireBarrierPermission(db, admin.id, barrierId, 'barrier.edit');
      const capacity = deviceCapacity(barrier);
      const fields: Record<string, string[]> = {};
      for (const field of PHONE_COUNT_LIMIT_FIELDS) {
        const value = body[field];
        if (typeof value === 'number' && value > capacity)
          fields[field] = [LIMIT_MESSAGES.overDevice(capacity)];
      }
      if (
        typeof body.schedule_interval_limit === 'number' &&
        body.schedule_interval_limit > MINUTES_PER_DAY
      ) {
        fields.schedule_interval_limit = [LIMIT_MESSAGES.overDay];
      }
      if (Object.keys(fields).length > 0) throw new FieldError(fields);
      await repository.upsertLimits(db, barrierId, body, deps.clock.now());
      return toLimits(await repository.findLimits(db, barrierId), await smsBudget(barrierId, null));
    },
  };
}

export type BarrierService = ReturnType<typeof createBarrierService>;
