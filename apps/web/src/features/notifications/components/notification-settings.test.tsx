import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { NotificationSettings } from './notification-settings';

const preferences = (overrides: Record<string, unknown> = {}) => ({
  events: [
    { kind: 'request_accepted', enabled: true, urgent: false },
    { kind: 'guest_pass_used', enabled: false, urgent: false },
  ],
  quiet_hours: null,
  time_zone: 'Europe/Moscow',
  devices: 0,
  power_sms: null as boolean | null,
  ...overrides,
});

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

describe('«Уведомления» in the profile (issue 43)', () => {
  afterEach(() => setOnline(true));

  it('shows a switch per event with his choice; a switch saves that one choice', async () => {
    signIn();
    const server = mockApi({
      'GET /api/notifications/preferences/': preferences(),
      'PATCH /api/notifications/preferences/': preferences({
        events: [
          { kind: 'request_accepted', enabled: false, urgent: false },
          { kind: 'guest_pass_used', enabled: false, urgent: false },
        ],
      }),
    });
    const { user } = renderRoute(<NotificationSettings />, { path: '/user' });
    const accepted = await screen.findByRole('switch', { name: 'Моя заявка принята' });
    expect(accepted).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Гость воспользовался пропуском' })).not.toBeChecked();
    await user.click(accepted);
    await waitFor(() => expect(server.callsTo('PATCH /api/notifications/preferences/')).toHaveLength(1));
    expect(server.callsTo('PATCH /api/notifications/preferences/')[0]?.body).toEqual({
      events: [{ kind: 'request_accepted', enabled: false }],
    });
    await waitFor(() => expect(accepted).not.toBeChecked());
  });

  it('quiet hours: turned on at 22:00–07:00 in his time zone, shown as times', async () => {
    signIn();
    const server = mockApi({
      'GET /api/notifications/preferences/': preferences(),
      'PATCH /api/notifications/preferences/': preferences({ quiet_hours: { from: 1320, to: 420 } }),
    });
    const { user } = renderRoute(<NotificationSettings />, { path: '/user' });
    await user.click(await screen.findByRole('switch', { name: /Тихие часы/ }));
    await waitFor(() => expect(server.callsTo('PATCH /api/notifications/preferences/')).toHaveLength(1));
    expect(server.callsTo('PATCH /api/notifications/preferences/')[0]?.body).toMatchObject({
      quiet_hours: { from: 1320, to: 420 },
    });
    expect(await screen.findByLabelText('С')).toHaveValue('22:00');
    expect(screen.getByLabelText('До')).toHaveValue('07:00');
  });

  it('an administrator’s «СМС при отключении питания»: off by default, saved when turned on', async () => {
    signIn();
    const server = mockApi({
      'GET /api/notifications/preferences/': preferences({ power_sms: false }),
      'PATCH /api/notifications/preferences/': preferences({ power_sms: true }),
    });
    const { user } = renderRoute(<NotificationSettings />, { path: '/admin' });
    const sms = await screen.findByRole('switch', { name: /^СМС при отключении питания/ });
    expect(sms).not.toBeChecked();
    expect(screen.getByText(/входит в недельный лимит СМС шлагбаума/)).toBeInTheDocument();
    await user.click(sms);
    await waitFor(() => expect(server.callsTo('PATCH /api/notifications/preferences/')).toHaveLength(1));
    expect(server.callsTo('PATCH /api/notifications/preferences/')[0]?.body).toEqual({ power_sms: true });
    await waitFor(() => expect(sms).toBeChecked());
  });

  it('a resident is not offered the SMS on power loss', async () => {
    signIn();
    mockApi({ 'GET /api/notifications/preferences/': preferences() });
    renderRoute(<NotificationSettings />, { path: '/user' });
    await screen.findByRole('switch', { name: 'Моя заявка принята' });
    expect(screen.queryByRole('switch', { name: /СМС при отключении питания/ })).not.toBeInTheDocument();
  });

  it('offline, nothing can be changed', async () => {
    signIn();
    mockApi({ 'GET /api/notifications/preferences/': preferences() });
    renderRoute(<NotificationSettings />, { path: '/user' });
    const accepted = await screen.findByRole('switch', { name: 'Моя заявка принята' });
    setOnline(false);
    await waitFor(() => expect(accepted).toBeDisabled());
    expect(screen.getByRole('switch', { name: /Тихие часы/ })).toBeDisabled();
  });
});
