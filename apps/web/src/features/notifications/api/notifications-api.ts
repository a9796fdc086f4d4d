/** Web Push calls (issue 43); types from @propusk/contracts/notifications. */
import type {
  NotificationPreferences,
  NotificationPreferencesUpdate,
  PushSubscriptionBody,
} from '@propusk/contracts/notifications';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const preferencesQueryKey = ['notifications', 'preferences'] as const;

export const preferencesQueryOptions = queryOptions({
  queryKey: preferencesQueryKey,
  queryFn: () => api.get('/api/notifications/preferences/') as Promise<NotificationPreferences>,
});

export function updatePreferences(body: NotificationPreferencesUpdate) {
  return api.patch('/api/notifications/preferences/', body) as Promise<NotificationPreferences>;
}

export function getVapidKey() {
  return api.get('/api/notifications/vapid-key/') as Promise<{ public_key: string }>;
}

export function saveSubscription(body: PushSubscriptionBody) {
  return api.post('/api/notifications/subscriptions/', body) as Promise<NotificationPreferences>;
}

export function deleteSubscription(endpoint: string) {
  return api.post('/api/notifications/subscriptions/delete/', { endpoint });
}
