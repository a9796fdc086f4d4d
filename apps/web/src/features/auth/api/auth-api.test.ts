import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { login, verifyAdminPassword } from './auth-api';

describe('auth api', () => {
  it("sends the password step's nonce with the administrator's next login, once", async () => {
    const server = mockApi({
      'POST /api/auth/admin/password_verification/': {
        message: 'Password verified successfully.',
        password_nonce: 'nonce-1',
      },
      'POST /api/auth/login/': { access_token: 'a', refresh_token: 'r' },
    });
    await verifyAdminPassword({ phone: '+79001234567', password: 'secret' });
    await login({ phone: '+79001234567', verification_token: 'token-1' });
    await login({ phone: '+79001234567', verification_token: 'token-2' });
    const bodies = server.callsTo('POST /api/auth/login/').map((call) => call.body);
    expect(bodies).toEqual([
      { phone: '+79001234567', verification_token: 'token-1', password_nonce: 'nonce-1' },
      { phone: '+79001234567', verification_token: 'token-2' },
    ]);
  });

  it('does not send a nonce of another phone', async () => {
    const server = mockApi({
      'POST /api/auth/admin/password_verification/': {
        message: 'Password verified successfully.',
        password_nonce: 'nonce-2',
      },
      'POST /api/auth/login/': { access_token: 'a', refresh_token: 'r' },
    });
    await verifyAdminPassword({ phone: '+79001234567', password: 'secret' });
    await login({ phone: '+79007654321', verification_token: 'token-3' });
    expect(server.callsTo('POST /api/auth/login/')[0]?.body).toEqual({
      phone: '+79007654321',
      verification_token: 'token-3',
    });
  });
});
