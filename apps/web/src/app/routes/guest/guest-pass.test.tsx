import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { GuestPassRoute } from './guest-pass';

const token = 'a'.repeat(43);
const base = `/api/guest-passes/${token}`;
const pass = {
  address: 'г. Москва, ул. Гостевая, д. 5',
  start: '2026-11-23T10:00:00+03:00',
  end: '2026-11-23T13:00:00+03:00',
  used: false,
  device_phone: null,
};
const holderKey = 'k'.repeat(43);

describe('/guest/:token', () => {
  it('shows the address and window, sends the code without a login and confirms the number', async () => {
    const server = mockApi({
      [`GET ${base}/`]: pass,
      [`POST ${base}/code/`]: [
        201,
        { verification_token: 'v-1', detail: 'Verification code sent.', retry_after: 60 },
      ],
      [`POST ${base}/redeem/`]: {
        ...pass,
        used: true,
        device_phone: '+79990001122',
        phone: '+79161234567',
        holder_key: holderKey,
      },
    });
    const { user } = renderRoute(<GuestPassRoute />, { path: `/guest/${token}`, pattern: '/guest/:token' });
    expect(await screen.findByTestId('guest-pass-address')).toHaveTextContent(pass.address);
    expect(screen.getByTestId('guest-pass-window')).toHaveTextContent('23 ноября 2026, 10:00');
    expect(screen.queryByRole('navigation')).toBeNull();
    await user.type(screen.getByLabelText(/Ваш номер телефона/), '9161234567');
    await user.click(screen.getByRole('button', { name: 'Получить код' }));
    await user.type(await screen.findByLabelText('Код из СМС'), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(
      await screen.findByText(/Готово\. Номер \+7 \(916\) 123-45-67 добавлен на шлагбаум/),
    ).toBeVisible();
    // The gate's number as a call link (issue 32 item 4), and the key kept to read it again.
    expect(screen.getByRole('link', { name: 'Позвонить на шлагбаум' })).toHaveAttribute(
      'href',
      'tel:+79990001122',
    );
    expect(window.localStorage.getItem(`propusk.guest-pass-holder.${token}`)).toBe(holderKey);
    expect(server.callsTo(`POST ${base}/code/`)[0]?.body).toEqual({ phone: '+79161234567' });
    expect(server.callsTo(`POST ${base}/code/`)[0]?.headers.authorization).toBeUndefined();
    expect(server.callsTo(`POST ${base}/redeem/`)[0]?.body).toEqual({
      phone: '+79161234567',
      code: '123456',
      verification_token: 'v-1',
    });
  });

  it('shows the gate’s call link again when the guest reopens his used link, and asks for no number', async () => {
    window.localStorage.setItem(`propusk.guest-pass-holder.${token}`, holderKey);
    const server = mockApi({
      [`GET ${base}/`]: { ...pass, used: true, device_phone: '+79990001122' },
    });
    renderRoute(<GuestPassRoute />, { path: `/guest/${token}`, pattern: '/guest/:token' });
    expect(await screen.findByRole('link', { name: 'Позвонить на шлагбаум' })).toHaveAttribute(
      'href',
      'tel:+79990001122',
    );
    expect(screen.getByTestId('guest-pass-address')).toHaveTextContent(pass.address);
    expect(screen.queryByText(/недействительна/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Получить код' })).toBeNull();
    expect(server.callsTo(`GET ${base}/`)[0]?.headers['x-guest-pass-holder']).toBe(holderKey);
    window.localStorage.clear();
  });

  it('tells another browser that the pass is already confirmed, without the gate’s number', async () => {
    mockApi({ [`GET ${base}/`]: { ...pass, used: true, device_phone: null } });
    renderRoute(<GuestPassRoute />, { path: `/guest/${token}`, pattern: '/guest/:token' });
    expect(await screen.findByTestId('guest-pass-used')).toHaveTextContent('Пропуск уже подтверждён');
    expect(screen.queryByRole('link', { name: 'Позвонить на шлагбаум' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Получить код' })).toBeNull();
  });

  it('says in Russian that a spent link does not work', async () => {
    mockApi({
      [`GET ${base}/`]: [
        410,
        { detail: 'This guest pass link is not valid.', code: 'guest_pass_unavailable' },
      ],
    });
    renderRoute(<GuestPassRoute />, { path: `/guest/${token}`, pattern: '/guest/:token' });
    expect(await screen.findByText(/Ссылка пропуска недействительна/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Получить код' })).toBeNull();
  });
});
