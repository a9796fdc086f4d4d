import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { codeSent, codeVerified, userProfile } from '../../../test/user-fixtures';
import { ChangePhoneRoute } from './change-phone';

const newPhone = '+79005556677';

/** The code server: a token per mode, so the test can see which token went where. */
const codes: MockHandler = ({ body }) =>
  codeSent((body as { mode: string }).mode === 'change_phone_old' ? 'old-1' : 'new-1');

describe('/change-phone', () => {
  it('goes through the four steps, checking the new phone and its code, and changes the phone', async () => {
    signIn();
    const server = mockApi({
      'GET /api/users/me/': userProfile,
      'POST /api/auth/codes/': codes,
      'PATCH /api/auth/codes/verify/': codeVerified,
      'PATCH /api/users/me/phone/': { phone: newPhone },
    });
    const { user } = renderRoute(<ChangePhoneRoute />, { path: '/change-phone' });
    expect(screen.getByRole('heading', { name: 'Смена номера телефона' })).toBeInTheDocument();

    expect(await screen.findByTestId('change-phone-step')).toHaveTextContent('Шаг 1 из 4');
    await user.click(await screen.findByRole('button', { name: 'Отправить код' }));
    const oldCode = server.callsTo('POST /api/auth/codes/')[0];
    expect(oldCode?.body).toEqual({ phone: '+79001234567', mode: 'change_phone_old' });
    expect(oldCode?.headers.authorization).toBe('Bearer access-1');

    expect(await screen.findByTestId('change-phone-step')).toHaveTextContent('Шаг 2 из 4');
    await user.type(screen.getByLabelText(/Код из СМС/), '111111');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(server.callsTo('PATCH /api/auth/codes/verify/')[0]?.body).toEqual({
      phone: '+79001234567',
      code: '111111',
      verification_token: 'old-1',
    });

    const phoneInput = await screen.findByLabelText(/Новый номер телефона/);
    expect(screen.getByTestId('change-phone-step')).toHaveTextContent('Шаг 3 из 4');
    expect(phoneInput).toHaveValue('+7');
    await user.type(phoneInput, '900');
    expect(phoneInput).toHaveValue('+7 (900');
    await user.tab();
    expect(screen.getByText('Введите корректный номер телефона в формате +7XXXXXXXXXX.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Отправить код' })).toBeDisabled();
    await user.clear(phoneInput);
    await user.type(phoneInput, '79005556677');
    expect(phoneInput).toHaveValue('+7 (900) 555-66-77');
    expect(
      screen.queryByText('Введите корректный номер телефона в формате +7XXXXXXXXXX.'),
    ).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    expect(server.callsTo('POST /api/auth/codes/')[1]?.body).toEqual({
      phone: newPhone,
      mode: 'change_phone_new',
    });

    expect(await screen.findByTestId('code-phone')).toHaveTextContent('+7 (900) 555-66-77');
    expect(screen.getByTestId('change-phone-step')).toHaveTextContent('Шаг 4 из 4');
    server.on({
      'PATCH /api/auth/codes/verify/': [400, { detail: 'Invalid verification code.', code: 'invalid_code' }],
    });
    await user.type(screen.getByLabelText(/Код из СМС/), '000000');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Код для нового номера неверный');
    expect(server.callsTo('PATCH /api/users/me/phone/')).toHaveLength(0);

    server.on({ 'PATCH /api/auth/codes/verify/': codeVerified });
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText('Номер телефона успешно обновлён!')).toBeInTheDocument();
    expect(screen.getByText('+7 (900) 555-66-77')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/users/me/phone/')[0]?.body).toEqual({
      new_phone: newPhone,
      old_verification_token: 'old-1',
      new_verification_token: 'new-1',
    });
    expect(window.localStorage.getItem('phone')).toBe(newPhone);

    await user.click(screen.getByRole('button', { name: 'Вернуться в профиль' }));
    expect(await screen.findByText('Screen: /user')).toBeInTheDocument();
  });

  it('says "Этот номер уже используется." when the new phone belongs to someone else', async () => {
    signIn();
    const server = mockApi({
      'GET /api/users/me/': userProfile,
      'POST /api/auth/codes/': codes,
      'PATCH /api/auth/codes/verify/': codeVerified,
    });
    const { user } = renderRoute(<ChangePhoneRoute />, { path: '/change-phone' });
    await user.click(await screen.findByRole('button', { name: 'Отправить код' }));
    await user.type(await screen.findByLabelText(/Код из СМС/), '111111');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    await user.type(await screen.findByLabelText(/Новый номер телефона/), newPhone);

    server.on({
      'POST /api/auth/codes/': [400, { detail: 'Phone number is already in use.', code: 'phone_in_use' }],
    });
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Этот номер уже используется.');
    expect(screen.getByTestId('change-phone-step')).toHaveTextContent('Шаг 3 из 4');

    server.on({ 'POST /api/auth/codes/': codes });
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    await user.type(await screen.findByLabelText(/Код из СМС/), '222222');
    server.on({
      'PATCH /api/users/me/phone/': [
        409,
        { detail: 'Phone number is already in use.', code: 'phone_in_use' },
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Этот номер уже используется.');
    expect(window.localStorage.getItem('phone')).toBe('+79001234567');

    server.on({ 'PATCH /api/users/me/phone/': [500, {}] });
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText('Не удалось изменить номер телефона')).toBeInTheDocument();
    expect(screen.queryByText('Номер телефона успешно обновлён!')).not.toBeInTheDocument();
  });
});
