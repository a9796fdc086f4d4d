import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { keepDrafts } from '../../../lib/form-drafts';
import { barrier, barrierUser, deviceHealth, guestPass, limits, page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AdminBarrierPageRoute } from './admin-barrier-page';
import { GuestPassesAdminRoute } from './guest-passes-admin';

const state = { barrier_id: 5 };
const pass = guestPass;
const token = 'a'.repeat(43);

describe('/guest-passes-admin', () => {
  it('after an ended session the form is open again with the resident and the window chosen (issue 41)', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/5/guest-passes/': page('guest_passes', []),
      'GET /api/admin/barriers/5/users/': page('users', [barrierUser]),
    });
    const first = renderRoute(<GuestPassesAdminRoute />, { path: '/guest-passes-admin', state });
    await first.user.click(await screen.findByRole('button', { name: 'Создать пропуск' }));
    await first.user.click(screen.getByRole('textbox', { name: 'Для жителя' }));
    await first.user.click(await screen.findByRole('option', { name: /Пётр Жильцов/ }));
    await first.user.click(screen.getByRole('button', { name: '3 часа' }));
    const start = (screen.getByLabelText('Начало') as HTMLInputElement).value;
    // What the router does when the session ends (router.tsx), then the screen is gone.
    keepDrafts('+79001234567');
    first.unmount();

    renderRoute(<GuestPassesAdminRoute />, { path: '/guest-passes-admin', state });
    expect(await screen.findByLabelText('Начало')).toHaveValue(start);
    expect(screen.getByRole('button', { name: '3 часа' })).toHaveAttribute('aria-pressed', 'true');
    // The resident's name once the barrier's users are read again.
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Для жителя' }) as HTMLInputElement).value).toContain(
        'Пётр Жильцов',
      ),
    );
  });

  it('lists the passes with who they count for, makes one for a chosen resident and shows its link once', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/guest-passes/': page('guest_passes', [
        pass(2, 'used', { used_phone: '+79005556677' }),
        pass(1, 'expired', { user: 99, user_full_name: null, user_phone: '+7 *** ***-12-34' }),
      ]),
      'GET /api/admin/barriers/5/users/': page('users', [barrierUser]),
      'POST /api/admin/barriers/5/guest-passes/': [
        201,
        { ...pass(3, 'created'), token, url: `/guest/${token}` },
      ],
    });
    const { user } = renderRoute(<GuestPassesAdminRoute />, { path: '/guest-passes-admin', state });
    const cards = await screen.findAllByTestId('guest-pass-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0] as HTMLElement).getByTestId('guest-pass-status')).toHaveTextContent(
      /^Использован: /,
    );
    // Whom each pass is for and who made it, by name or the masked number: never an internal id (issue 32).
    expect(within(cards[0] as HTMLElement).getByTestId('guest-pass-user')).toHaveTextContent(
      /^Для: Пётр Жильцов$/,
    );
    expect(within(cards[0] as HTMLElement).getByTestId('guest-pass-maker')).toHaveTextContent(
      /^Автор: Ольга Админова$/,
    );
    expect(within(cards[1] as HTMLElement).getByTestId('guest-pass-user').textContent).toBe(
      'Для: +7\u00a0***\u00a0***-12-34',
    );
    expect(screen.queryByText(/№/)).toBeNull();
    // A used pass can be revoked (its number leaves the device); an expired one cannot.
    expect(within(cards[0] as HTMLElement).getByRole('button', { name: 'Отозвать' })).toBeInTheDocument();
    expect(within(cards[1] as HTMLElement).queryByRole('button', { name: 'Отозвать' })).toBeNull();
    expect(server.callsTo('GET /api/admin/barriers/5/users/')[0]?.query.get('page_size')).toBe('100');

    await user.click(screen.getByRole('button', { name: 'Создать пропуск' }));
    await user.click(screen.getByRole('textbox', { name: 'Для жителя' }));
    await user.click(await screen.findByRole('option', { name: /Пётр Жильцов/ }));
    await user.click(screen.getByRole('button', { name: '3 часа' }));
    // A quick choice fills the window and creates nothing (issue 32 item 7); «Создать ссылку» creates one pass.
    expect(screen.getByRole('button', { name: '3 часа' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Начало')).not.toHaveValue('');
    expect(screen.getByLabelText('Конец')).not.toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Сутки' }));
    expect(server.callsTo('POST /api/admin/barriers/5/guest-passes/')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: '3 часа' }));
    await user.click(screen.getByRole('button', { name: 'Создать ссылку' }));
    const shown = await screen.findByTestId('guest-pass-link');
    expect(server.callsTo('POST /api/admin/barriers/5/guest-passes/')).toHaveLength(1);
    expect(within(shown).getByLabelText('Ссылка для гостя')).toHaveValue(
      `${window.location.origin}/guest/${token}`,
    );
    const body = server.callsTo('POST /api/admin/barriers/5/guest-passes/')[0]?.body as Record<
      string,
      unknown
    >;
    expect(body.user).toBe(21);
    const hours = (Date.parse(String(body.end)) - Date.parse(String(body.start))) / 3_600_000;
    expect(hours).toBeCloseTo(3, 1);
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(shown).getByRole('button', { name: 'Скопировать' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/guest/${token}`);
    expect(await screen.findByText('Ссылка скопирована.')).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Готово' }));
    expect(screen.queryByTestId('guest-pass-link')).toBeNull();
  });

  it('makes a pass for himself when no resident is chosen, and revokes after a confirmation', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/guest-passes/': page('guest_passes', [pass(4, 'created')]),
      'GET /api/admin/barriers/5/users/': page('users', []),
      'POST /api/admin/barriers/5/guest-passes/': [
        201,
        { ...pass(5, 'created'), token, url: `/guest/${token}` },
      ],
      'DELETE /api/admin/barriers/5/guest-passes/4/': [409, { detail: 'x', code: 'conflict' }],
    });
    const { user } = renderRoute(<GuestPassesAdminRoute />, { path: '/guest-passes-admin', state });
    await user.click(await screen.findByRole('button', { name: 'Создать пропуск' }));
    await user.click(screen.getByRole('button', { name: 'Сутки' }));
    await user.click(screen.getByRole('button', { name: 'Создать ссылку' }));
    await screen.findByTestId('guest-pass-link');
    expect(server.callsTo('POST /api/admin/barriers/5/guest-passes/')[0]?.body).not.toHaveProperty('user');

    await user.click(screen.getByRole('button', { name: 'Отозвать' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Отозвать пропуск? Ссылка перестанет работать.');
    await user.click(within(dialog).getByRole('button', { name: 'Да, отозвать' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    server.on({
      'DELETE /api/admin/barriers/5/guest-passes/4/': pass(4, 'revoked'),
      'GET /api/admin/barriers/5/guest-passes/': page('guest_passes', [pass(4, 'revoked')]),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Да, отозвать' }));
    expect(await screen.findByText('Отозван')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Отозвать' })).toBeNull();
    expect(server.callsTo('DELETE /api/admin/barriers/5/guest-passes/4/')).toHaveLength(2);
  });

  it('is opened from the barrier page with the barrier id, and not offered to a dispatcher', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/': barrier,
      'GET /api/admin/barriers/5/limits/': limits,
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
    });
    const { user, unmount } = renderRoute(<AdminBarrierPageRoute />, { path: '/admin-barrier-page', state });
    await user.click(await screen.findByRole('button', { name: 'Гостевые пропуска' }));
    expect(await screen.findByText('Screen: /guest-passes-admin')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('"barrier_id":5');
    unmount();

    server.on({ 'GET /api/admin/barriers/5/': { ...barrier, my_role: 'dispatcher' } });
    renderRoute(<AdminBarrierPageRoute />, { path: '/admin-barrier-page', state });
    expect(await screen.findByTestId('my-role')).toHaveTextContent('Диспетчер');
    expect(screen.queryByRole('button', { name: 'Гостевые пропуска' })).toBeNull();
  });

  it('says so when opened without a barrier', async () => {
    signIn();
    mockApi({});
    renderRoute(<GuestPassesAdminRoute />, { path: '/guest-passes-admin' });
    expect(await screen.findByRole('button', { name: 'К списку шлагбаумов' })).toBeInTheDocument();
  });
});
