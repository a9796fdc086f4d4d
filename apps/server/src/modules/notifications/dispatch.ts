/**
 * From the outbox to the devices (issue 43): each pending event is read once, its recipients decided (an
 * administrator's event: the barrier's owner and the staff whose role holds the event's permission, never
 * the person who caused it; a resident's event: that person), their choices and quiet hours applied, and one
 * delivery queued per device. The job queue sends them (jobs/notifications.ts) with retries.
 */
import {
  ADMIN_EVENT_KINDS,
  type AdminEventKind,
  EVENT_KINDS,
  type EventKind,
  type PushPayload,
  URGENT_EVENT_KINDS,
} from '@propusk/contracts/notifications';
import type { Dependencies } from '../../lib/dependencies.ts';
import type { BarrierPermission } from '../barrier-policy/policy.ts';
import { sendPush } from './delivery.ts';
import { planPowerSms, wantsPowerSms } from './power-sms.ts';
import { defaultChoices, deliverAt, wants } from './preferences.ts';
import {
  claimPendingEvents,
  deleteSubscriptionById,
  findSubscription,
  liveBarriers,
  liveUsers,
  markDelivered,
  markDispatched,
  markPending,
  preferencesOf,
  staffWith,
  subscriptionsOf,
} from './repository.ts';
import { notificationText } from './texts.ts';

/** Who among a barrier's staff hears each administrator's event: the permission of the screen it opens. */
export const EVENT_PERMISSION: Record<AdminEventKind, BarrierPermission> = {
  unit_silent: 'device.health',
  power_lost: 'device.health',
  power_restored: 'device.health',
  hold_started: 'relay.hold',
  hold_ended: 'relay.hold',
  sms_budget_80: 'barrier.edit',
  import_finished: 'users.manage',
  access_request_new: 'requests.manage',
};

export interface DeliveryJob {
  subscriptionId: number;
  payload: PushPayload;
  urgent: boolean;
}

export type EnqueueDelivery = (job: DeliveryJob, startAfter: Date) => Promise<void>;
/** Queues the sending of one power-loss SMS (power-sms.ts), after the dispatch committed. */
export type EnqueuePowerSms = (noticeId: number) => Promise<void>;

const BATCH = 100;
const isAdminKind = (kind: string): kind is AdminEventKind =>
  (ADMIN_EVENT_KINDS as readonly string[]).includes(kind);
const isKind = (kind: string): kind is EventKind => (EVENT_KINDS as readonly string[]).includes(kind);

/**
 * Takes up to a batch of pending events; answers how many it took (the caller loops while it is full). The
 * events are marked told in one transaction and their deliveries queued after it commits (the embedded
 * database has one connection: the job queue cannot write while the transaction holds it); if the queue
 * refuses them, the events are pending again for the next dispatch.
 */
export async function dispatchNotifications(
  deps: Pick<Dependencies, 'db' | 'clock' | 'logger' | 'config'>,
  enqueue: EnqueueDelivery,
  enqueuePowerSms: EnqueuePowerSms,
): Promise<number> {
  const { ids, deliveries, notices } = await deps.db.transaction(async (tx) => {
    const deliveries: { job: DeliveryJob; at: Date }[] = [];
    const notices: number[] = [];
    const events = await claimPendingEvents(tx, BATCH);
    if (events.length === 0) return { ids: [] as number[], deliveries, notices };
    const now = deps.clock.now();
    const barriersById = await liveBarriers(tx, [
      ...new Set(events.flatMap((event) => event.barrierId ?? [])),
    ]);
    const planned: { userId: number; kind: EventKind; payload: PushPayload }[] = [];
    const powerLosses: { event: { id: number; barrierId: number; address: string }; userIds: number[] }[] =
      [];
    for (const event of events) {
      if (!isKind(event.kind)) continue;
      const barrier = event.barrierId === null ? null : barriersById.get(event.barrierId);
      if (barrier === undefined) continue; // the barrier was deleted since
      let recipients: number[];
      if (isAdminKind(event.kind)) {
        if (!barrier) continue;
        recipients = [barrier.ownerId, ...(await staffWith(tx, barrier.id, EVENT_PERMISSION[event.kind]))];
      } else {
        recipients = event.userId === null ? [] : [event.userId];
      }
      const payload = notificationText(event.kind, barrier, event.params);
      const told = [...new Set(recipients)].filter((userId) => userId !== event.actorUserId);
      for (const userId of told) planned.push({ userId, kind: event.kind, payload });
      if (event.kind === 'power_lost' && barrier)
        powerLosses.push({
          event: { id: event.id, barrierId: barrier.id, address: barrier.address },
          userIds: told,
        });
    }
    const userIds = [...new Set(planned.map((item) => item.userId))];
    // One after another: a transaction is one connection, and node-postgres queues a query sent while another
    // runs on it (deprecated, to be refused in pg 9: the warning CI's PostgreSQL pass printed).
    const live = await liveUsers(tx, userIds);
    const preferences = await preferencesOf(tx, userIds);
    const subscriptions = await subscriptionsOf(tx, userIds);
    const choicesBy = new Map(preferences.map((row) => [row.userId, row]));
    for (const item of planned) {
      if (!live.has(item.userId)) continue;
      const choices = choicesBy.get(item.userId) ?? defaultChoices();
      if (!wants(choices, item.kind)) continue;
      const at = deliverAt(choices, item.kind, now);
      const urgent = URGENT_EVENT_KINDS.has(item.kind);
      for (const subscription of subscriptions) {
        if (subscription.userId !== item.userId) continue;
        deliveries.push({ job: { subscriptionId: subscription.id, payload: item.payload, urgent }, at });
      }
    }
    // An administrator without push hears of power loss by SMS when he chose it (power-sms.ts).
    for (const { event, userIds: told } of powerLosses) {
      const bySms = told.filter(
        (userId) =>
          live.has(userId) &&
          wantsPowerSms(
            choicesBy.get(userId) ?? defaultChoices(),
            subscriptions.filter((subscription) => subscription.userId === userId).length,
          ),
      );
      notices.push(...(await planPowerSms(tx, deps, event, bySms, now)));
    }
    const ids = events.map((event) => event.id);
    await markDispatched(tx, ids, now);
    return { ids, deliveries, notices };
  });
  // A notice is decided once: queued here, it is sent by its job (a failure to queue it leaves it queued,
  // counted in the limit and not sent; the event is pending again only for the pushes).
  for (const noticeId of notices)
    await enqueuePowerSms(noticeId).catch((error: unknown) =>
      deps.logger.error({ err: error, noticeId }, 'power notice SMS could not be queued'),
    );
  try {
    for (const { job, at } of deliveries) await enqueue(job, at);
  } catch (error) {
    await markPending(deps.db, ids);
    throw error;
  }
  return ids.length;
}

/** One queued delivery: sent, dropped with a dead subscription, or thrown for the queue to retry. */
export async function deliver(
  deps: Pick<Dependencies, 'db' | 'clock' | 'logger' | 'config' | 'secrets'>,
  job: DeliveryJob,
): Promise<'sent' | 'gone' | 'refused' | 'no_subscription'> {
  const subscription = await findSubscription(deps.db, job.subscriptionId);
  if (!subscription) return 'no_subscription';
  const { outcome, status } = await sendPush(deps, subscription, job.payload, job.urgent);
  if (outcome === 'sent') {
    await markDelivered(deps.db, subscription.id, deps.clock.now());
    return 'sent';
  }
  if (outcome === 'gone') {
    await deleteSubscriptionById(deps.db, subscription.id);
    return 'gone';
  }
  if (outcome === 'refused') {
    deps.logger.warn({ status, kind: job.payload.kind }, 'push service refused a notification');
    return 'refused';
  }
  throw new Error(`push service unavailable (${status ?? 'no answer'})`);
}
