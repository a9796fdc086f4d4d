/**
 * Issue 32 item 6, codes a person understands: the tries left after a wrong code, one honest state on a code
 * screen that has no code of its own (a code went out from another window), the code field focused on arrival.
 */
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { LoginRoute } from './login';
import { VerifyUserRoute } from './verify-user';

const state = { phone: '+79001234567', verification_token: 'tok-1' };

describe('/verifyuser: codes a person understands', () => {
  beforeEach(() => window.localStorage.clear());

  it('puts the cursor in the code field on arrival', async () => {
    mockApi();
    renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    expect(await screen.findByLabelText(/Код из СМС/)).toHaveFocus();
  });

  it('says how many tries are left after a wrong code, and when none are', async () => {
    let left = 4;
    mockApi({
      'PATCH /api/auth/codes/verify/': () => [
        400,
        { detail: 'Invalid verification code.', code: 'invalid_code', attempts_left: left },
      ],
    });
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    await user.type(screen.getByLabelText(/Код из СМС/), '000000');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Неверный код подтверждения. Осталось 4 попытки.',
    );
    left = 1;
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText(/Осталась 1 попытка\./)).toBeVisible();
    left = 0;
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText(/Попыток для этого кода больше нет: запросите новый код\./)).toBeVisible();
  });

  it('opened while another window holds the code: says so, without «выслан» and without a field that can only fail', async () => {
    const server = mockApi({
      'POST /api/users/check_admin/': { is_admin: false },
      'POST /api/auth/codes/': [
        429,
        { detail: 'A code was already sent. Try again later.', code: 'code_already_sent', retry_after: 42 },
      ],
    });
    const { user } = renderRoute(<LoginRoute />, {
      path: '/login',
      routes: { '/verifyuser': <VerifyUserRoute /> },
    });
    await user.type(screen.getByLabelText(/Введите номер телефона/), '9001234567');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Код на этот номер уже отправлен меньше минуты назад — в другом окне или на другом устройстве.',
    );
    expect(server.callsTo('POST /api/auth/codes/')).toHaveLength(1);
    expect(screen.queryByText('На телефон выслан код подтверждения')).toBeNull();
    expect(screen.queryByLabelText(/Код из СМС/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Подтвердить' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Отправить код повторно' })).toBeDisabled();
  });
});
