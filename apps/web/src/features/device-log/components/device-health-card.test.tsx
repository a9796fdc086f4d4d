import { screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { DeviceHealthCard } from './device-health-card';
import { formatAge } from './format-age';

const deviceHealth = {
  state: 'ok',
  last_reply_at: '2026-01-11T10:00:00Z',
  open_commands: 0,
  oldest_open_at: null,
  oldest_open_age_seconds: null,
  consecutive_failures: 0,
  unrecognised_count: 0,
};

describe('DeviceHealthCard', () => {
  it('shows a device in order', async () => {
    signIn();
    mockApi({ 'GET /api/admin/barriers/5/device-health/': deviceHealth });
    renderRoute(<DeviceHealthCard barrierId={5} />, { path: '/admin-barrier-page' });
    expect(await screen.findByTestId('device-state')).toHaveTextContent('в порядке');
    expect(screen.getByText(/^Последний ответ: 11 января 2026/)).toBeInTheDocument();
    expect(screen.getByText('Команд в очереди: 0')).toBeInTheDocument();
    expect(screen.getByText('Неудач подряд: 0')).toBeInTheDocument();
  });

  it('shows a device that does not answer: commands waiting, the oldest one’s age, failures in a row', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/5/device-health/': {
        state: 'not_responding',
        last_reply_at: null,
        open_commands: 3,
        oldest_open_at: '2026-01-11T10:00:00Z',
        oldest_open_age_seconds: 2 * 3600 + 5 * 60,
        consecutive_failures: 2,
        unrecognised_count: 4,
      },
    });
    renderRoute(<DeviceHealthCard barrierId={5} />, { path: '/admin-barrier-page' });
    expect(await screen.findByTestId('device-state')).toHaveTextContent('не отвечает');
    expect(screen.getByText('Последний ответ: ещё не было')).toBeInTheDocument();
    expect(screen.getByText('Команд в очереди: 3, старейшая ждёт 2 ч 5 мин')).toBeInTheDocument();
    expect(screen.getByText('Неудач подряд: 2')).toBeInTheDocument();
    expect(screen.getByText('Нераспознанных ответов: 4')).toBeInTheDocument();
  });

  it('names a refused password and the other states in Russian', async () => {
    signIn();
    mockApi({ 'GET /api/admin/barriers/5/device-health/': { ...deviceHealth, state: 'wrong_password' } });
    renderRoute(<DeviceHealthCard barrierId={5} />, { path: '/admin-barrier-page' });
    expect(await screen.findByTestId('device-state')).toHaveTextContent('неверный пароль');
  });

  it('says the unit has no power since its power-failure SMS, then that it came back (issue 30 item 5)', async () => {
    signIn();
    const lostAt = dayjs().hour(14).minute(2).second(0).toISOString();
    mockApi({
      'GET /api/admin/barriers/5/device-health/': {
        ...deviceHealth,
        power: 'lost',
        power_since: lostAt,
        alarms_today: 0,
      },
    });
    const { unmount } = renderRoute(<DeviceHealthCard barrierId={5} />, { path: '/admin-barrier-page' });
    expect(await screen.findByTestId('device-power')).toHaveTextContent('Питание: нет питания с 14:02');
    // One truth (issue 41 major 4): a unit without power is never «в порядке», whatever it answered before.
    expect(screen.getByTestId('device-state')).toHaveTextContent('нет питания');
    expect(screen.getByTestId('device-state')).not.toHaveTextContent('в порядке');
    expect(screen.getByTestId('device-state-hint')).toHaveTextContent('Проверьте питание устройства');
    unmount();

    mockApi({
      'GET /api/admin/barriers/5/device-health/': {
        ...deviceHealth,
        power: 'restored',
        power_since: dayjs().hour(15).minute(10).second(0).toISOString(),
        alarms_today: 2,
      },
    });
    renderRoute(<DeviceHealthCard barrierId={5} />, { path: '/admin-barrier-page' });
    expect(await screen.findByTestId('device-power')).toHaveTextContent(
      'Питание: питание восстановлено в 15:10',
    );
    expect(screen.getByTestId('device-state')).toHaveTextContent('в порядке');
    expect(screen.getByText('Тревог за сутки: 2')).toBeInTheDocument();
  });

  it('says nothing of power when the unit never told', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/5/device-health/': { ...deviceHealth, power: null, power_since: null },
    });
    renderRoute(<DeviceHealthCard barrierId={5} />, { path: '/admin-barrier-page' });
    await screen.findByTestId('device-state');
    expect(screen.queryByTestId('device-power')).not.toBeInTheDocument();
  });

  it('formats ages', () => {
    expect(formatAge(45)).toBe('45 с');
    expect(formatAge(12 * 60 + 3)).toBe('12 мин');
    expect(formatAge(3 * 3600)).toBe('3 ч');
    expect(formatAge(2 * 86400 + 4 * 3600 + 60)).toBe('2 дн 4 ч');
  });
});
