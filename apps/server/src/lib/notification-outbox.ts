/**
 * The notification outbox (issue 43, docs/decisions/0035): whoever changes something a person should hear of
 * writes one row here in the same transaction as the change, so an event is told exactly when its change
 * commits. The notification worker (jobs/notifications.ts) takes the rows up after commit, decides who hears
 * them and queues one delivery per device. Beneath every module (the engine writes here too).
 */
import type { EventKind } from '@propusk/contracts/notifications';
import type { Executor } from '../db/database.ts';
import { notificationEvents } from '../db/schema.ts';

export interface NotificationEvent {
  kind: EventKind;
  /** The barrier it is about: administrators' events go to its staff; residents' events name it. */
  barrierId?: number | null;
  /** The one person a resident's event is for. */
  userId?: number | null;
  /** Who caused it: never told of his own act. */
  actorUserId?: number | null;
  /** What the text needs beyond the barrier (never a phone number or a person's name). */
  params?: Record<string, string | number>;
}

export async function recordNotification(tx: Executor, event: NotificationEvent): Promise<void> {
  await recordNotifications(tx, [event]);
}

export async function recordNotifications(tx: Executor, events: NotificationEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.insert(notificationEvents).values(
    events.map((event) => ({
      kind: event.kind,
      barrierId: event.barrierId ?? null,
      userId: event.userId ?? null,
      actorUserId: event.actorUserId ?? null,
      params: event.params ?? {},
    })),
  );
}
