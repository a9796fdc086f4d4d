/**
 * A person's side of notifications (issue 43): the VAPID public key, his devices' subscriptions and his
 * choices. Delivery is the job queue's (dispatch.ts, jobs/notifications.ts), never a request's.
 */
import {
  EVENT_KINDS,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
  type PushSubscriptionBody,
  URGENT_EVENT_KINDS,
} from '@propusk/contracts/notifications';
import type { Dependencies } from '../../lib/dependencies.ts';
import { FieldError } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { type Choices, defaultChoices, isValidTimeZone, kindsFor, wants } from './preferences.ts';
import {
  countSubscriptions,
  deleteSubscription,
  findPreferences,
  keepNewestSubscriptions,
  savePreferences,
  upsertSubscription,
} from './repository.ts';

export function vapidPublicKey(deps: Pick<Dependencies, 'secrets'>) {
  return { public_key: deps.secrets.vapidKeys().publicKey };
}

/**
 * The server posts to the endpoint a browser names: in production only an https push service on a named
 * host (never an address or this machine), so a forged subscription cannot aim our posts at the inside.
 */
function assertPushEndpoint(deps: Pick<Dependencies, 'config'>, endpoint: string): void {
  if (deps.config.NODE_ENV !== 'production') return;
  const url = new URL(endpoint);
  const host = url.hostname;
  const literal =
    /^[\d.]+$/.test(host) || host.startsWith('[') || host === 'localhost' || !host.includes('.');
  if (url.protocol !== 'https:' || literal || url.port !== '')
    throw new FieldError({ endpoint: ['Invalid value.'] });
}

/** Devices a person may have subscribed at once: the newest ones; a new one beyond drops the oldest. */
export const MAX_SUBSCRIPTIONS_PER_PERSON = 10;

export async function subscribe(deps: Dependencies, user: AuthenticatedUser, body: PushSubscriptionBody) {
  assertPushEndpoint(deps, body.endpoint);
  await deps.db.transaction(async (tx) => {
    await upsertSubscription(tx, {
      userId: user.id,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
    });
    await keepNewestSubscriptions(tx, user.id, MAX_SUBSCRIPTIONS_PER_PERSON);
  });
  return getPreferences(deps, user);
}

export async function unsubscribe(deps: Dependencies, user: AuthenticatedUser, endpoint: string) {
  await deleteSubscription(deps.db, user.id, endpoint);
}

async function choicesOf(deps: Dependencies, userId: number): Promise<Choices> {
  const row = await findPreferences(deps.db, userId);
  return row ?? defaultChoices();
}

export async function getPreferences(
  deps: Dependencies,
  user: AuthenticatedUser,
): Promise<NotificationPreferences> {
  const [choices, devices] = await Promise.all([
    choicesOf(deps, user.id),
    countSubscriptions(deps.db, user.id),
  ]);
  return {
    events: kindsFor(user.role).map((kind) => ({
      kind,
      enabled: wants(choices, kind),
      urgent: URGENT_EVENT_KINDS.has(kind),
    })),
    quiet_hours:
      choices.quietFrom === null || choices.quietTo === null
        ? null
        : { from: choices.quietFrom, to: choices.quietTo },
    time_zone: choices.timeZone,
    devices,
    power_sms: user.role === 'admin' ? choices.powerSms === true : null,
  };
}

export async function updatePreferences(
  deps: Dependencies,
  user: AuthenticatedUser,
  update: NotificationPreferencesUpdate,
): Promise<NotificationPreferences> {
  if (update.time_zone !== undefined && !isValidTimeZone(update.time_zone))
    throw new FieldError({ time_zone: ['Invalid value.'] });
  // The SMS on power loss is an administrator's: a resident has no unit to hear of.
  if (update.power_sms !== undefined && user.role !== 'admin')
    throw new FieldError({ power_sms: ['Invalid choice.'] });
  const current = await choicesOf(deps, user.id);
  const allowed = new Set<string>(kindsFor(user.role));
  const choices = { ...current.choices };
  for (const event of update.events ?? []) {
    if (!allowed.has(event.kind)) throw new FieldError({ events: ['Invalid choice.'] });
    choices[event.kind] = event.enabled;
  }
  // Only the kinds there are: a choice stored for a kind since removed goes.
  for (const kind of Object.keys(choices))
    if (!(EVENT_KINDS as readonly string[]).includes(kind)) delete choices[kind];
  const quiet =
    update.quiet_hours === undefined
      ? { from: current.quietFrom, to: current.quietTo }
      : { from: update.quiet_hours?.from ?? null, to: update.quiet_hours?.to ?? null };
  await savePreferences(
    deps.db,
    {
      userId: user.id,
      choices,
      quietFrom: quiet.from,
      quietTo: quiet.to,
      timeZone: update.time_zone ?? current.timeZone,
      powerSms: update.power_sms ?? current.powerSms === true,
    },
    deps.clock.now(),
  );
  return getPreferences(deps, user);
}
