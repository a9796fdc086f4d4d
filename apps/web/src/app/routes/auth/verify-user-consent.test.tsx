import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { VerifyUserRoute } from './verify-user';

const state = { phone: '+79001234567', verification_token: 'tok-1' };
const verified = {
  message: 'Code verified successfully.',
  consent_required: true,
  policy_version: 'v7',
};
const policy = { version: 'v7', text: '# Политика\n\n## Какие данные хранятся\n\n- номер телефона' };

/** The first login's policy step (server decision 0022). */
describe('/verifyuser: the privacy policy of a first login', () => {
  it('shows the policy after the code; «Принимаю» logs in with the version read', async () => {
    const server = mockApi({
      'PATCH /api/auth/codes/verify/': verified,
      'GET /api/privacy/policy/': policy,
      'POST /api/auth/login/': { access_token: 'a-1', refresh_token: 'r-1' },
    });
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    await user.type(screen.getByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText('Какие данные хранятся')).toBeInTheDocument();
    expect(server.callsTo('POST /api/auth/login/')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Принимаю' }));
    expect(await screen.findByText('Screen: /start')).toBeInTheDocument();
    expect(server.callsTo('POST /api/auth/login/')[0]?.body).toEqual({
      phone: '+79001234567',
      verification_token: 'tok-1',
      consent_version: 'v7',
    });
  });

  it('«Не принимаю» makes no account: no login call, and says so', async () => {
    const server = mockApi({
      'PATCH /api/auth/codes/verify/': verified,
      'GET /api/privacy/policy/': policy,
    });
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    await user.type(screen.getByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    await screen.findByText('Какие данные хранятся');
    await user.click(screen.getByRole('button', { name: 'Не принимаю' }));
    expect(
      await screen.findByText(
        'Без согласия на обработку персональных данных аккаунт не создаётся. Данные о вас не сохранены.',
      ),
    ).toBeInTheDocument();
    expect(server.callsTo('POST /api/auth/login/')).toHaveLength(0);
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });
});
