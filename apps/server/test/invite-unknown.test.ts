/**
 * Issue 14 part 2: an administrator invites by number a person who has no account yet. The invitation waits
 * for the number (listed, cancellable), becomes an ordinary invitation at that number's first login, and the
 * person is told by one SMS within the code budgets; a number with an account alike (issue 28 part 2).
 */
import { describe, expect, it } from 'vitest';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { loginWithCode, requestCode } from './auth-helpers.ts';
import { auth, createBarrier, createOwnerWithBarrier, grantAccess } from './domain-factories.ts';
import { createAdmin, createUser, nextPhone } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('invitation by number to a person without an account', () => {
  const t = useTestApp({
    env: {
      PHONE_INVITES_PER_ADMIN_PER_HOUR: '6',
      CODES_PER_PHONE_PER_DAY: '3',
      SITE_URL: 'https://propusk.example',
    },
  });

  const invite = (token: string, barrier: number, phone: string) =>
    t.request({ method: 'POST', url: '/api/admin/phone_invitations/', token, payload: { barrier, phone } });
  const smsTo = (phone: string) => t.sentSms().filter((line) => line.to === phone);

  it('waits for the number, tells it once, and is an ordinary invitation at the first login', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const phone = nextPhone();

    // The spec's search still answers 404 for a number without an account.
    const search = await t.request({
      method: 'POST',
      url: '/api/admin/users/search/',
      token: owner.token,
      payload: { phone },
    });
    expect(search.statusCode).toBe(404);

    const created = await invite(owner.token, barrier.id, phone.slice(1));
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body.access_request).toBeNull();
    expect(body.sms_sent).toBe(true);
    expect(body.sms_status).toBe('sent');
    expect(body.phone_invitation).toMatchObject({
      barrier: barrier.id,
      phone,
      status: 'waiting',
      sms_sent: true,
    });
    const sms = smsTo(phone);
    expect(sms).toHaveLength(1);
    // The administrator's name is not in it (issue 40 item 2): only the cleaned address he typed.
    expect(sms[0]?.text).toContain('Вас приглашают к шлагбауму «');
    expect(sms[0]?.text).not.toContain('Владелец');
    expect(sms[0]?.text).toContain(barrier.address);
    expect(sms[0]?.text).toContain('https://propusk.example');

    // Listed on the administrator's side, for the barrier and in all.
    const listed = await t.request({
      method: 'GET',
      url: `/api/admin/phone_invitations/?barrier=${barrier.id}`,
      token: owner.token,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().phone_invitations.map((row: { phone: string }) => row.phone)).toEqual([phone]);

    // A second invitation of the same number to the same barrier: one waits already.
    expect((await invite(owner.token, barrier.id, phone)).statusCode).toBe(409);

    // The first login creates the account and finds the invitation.
    const session = await loginWithCode(t, phone);
    const mine = await t.request({
      method: 'GET',
      url: '/api/access_requests/my/?type=incoming',
      headers: { authorization: `Bearer ${session.access}` },
    });
    expect(mine.statusCode).toBe(200);
    const [request] = mine.json().access_requests;
    expect(request).toMatchObject({
      barrier: barrier.id,
      status: 'pending',
      initiator: 'admin',
      user_phone: phone,
    });

    // No longer waiting; the administrator sees the ordinary invitation.
    const after = await t.request({
      method: 'GET',
      url: '/api/admin/phone_invitations/',
      token: owner.token,
    });
    expect(after.json().phone_invitations).toEqual([]);
    const outgoing = await t.request({
      method: 'GET',
      url: '/api/admin/access_requests/my/?type=outgoing',
      token: owner.token,
    });
    expect(outgoing.json().access_requests.map((row: { id: number }) => row.id)).toContain(request.id);

    // He accepts it: access to the barrier.
    const accepted = await t.request({
      method: 'PATCH',
      url: `/api/access_requests/${request.id}/`,
      headers: { authorization: `Bearer ${session.access}` },
      payload: { status: 'accepted' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().status).toBe('accepted');
  });

  it('invites a number with an account like any other (issue 28: no oracle); he finds it in his requests', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const user = await createUser(t, { fullName: 'Есть аккаунт' });
    const created = await invite(owner.token, barrier.id, user.phone);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      access_request: null,
      phone_invitation: { barrier: barrier.id, phone: user.phone, status: 'waiting', sms_sent: true },
      sms_sent: true,
      sms_status: 'sent',
    });
    expect(smsTo(user.phone)).toHaveLength(1);
    // Already invited: the same 409 as for a number without an account.
    expect((await invite(owner.token, barrier.id, user.phone)).json().code).toBe('phone_invitation_waiting');
    // His read of his requests turns it into the ordinary invitation.
    const mine = await t.request({ method: 'GET', url: '/api/access_requests/my/', token: user.token });
    expect(mine.json().access_requests).toMatchObject([
      { user: user.id, barrier: barrier.id, status: 'pending', initiator: 'admin' },
    ]);
  });

  it('tells a number at most once per barrier, and a cancelled invitation is gone from the list', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const phone = nextPhone();
    const first = (await invite(owner.token, barrier.id, phone)).json();
    expect(first.sms_sent).toBe(true);
    const cancelled = await t.request({
      method: 'DELETE',
      url: `/api/admin/phone_invitations/${first.phone_invitation.id}/`,
      token: owner.token,
    });
    expect(cancelled.statusCode).toBe(204);
    const again = await t.request({
      method: 'DELETE',
      url: `/api/admin/phone_invitations/${first.phone_invitation.id}/`,
      token: owner.token,
    });
    expect(again.json().code).toBe('phone_invitation_processed');
    const listed = await t.request({
      method: 'GET',
      url: '/api/admin/phone_invitations/',
      token: owner.token,
    });
    expect(listed.json().phone_invitations).toEqual([]);

    const second = await invite(owner.token, barrier.id, phone);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ sms_sent: false, sms_status: 'already_sent' });
    expect(smsTo(phone)).toHaveLength(1);

    // Another barrier may tell the same number once.
    const other = await createBarrier(t, owner);
    expect((await invite(owner.token, other.id, phone)).json().sms_status).toBe('sent');
    expect(smsTo(phone)).toHaveLength(2);

    // The cancelled one is not claimed at the login; the waiting one is.
    const session = await loginWithCode(t, phone);
    const mine = await t.request({
      method: 'GET',
      url: '/api/access_requests/my/?type=incoming',
      headers: { authorization: `Bearer ${session.access}` },
    });
    expect(
      mine
        .json()
        .access_requests.map((row: { barrier: number }) => row.barrier)
        .sort(),
    ).toEqual([barrier.id, other.id].sort());
  });

  it('counts the SMS in the number’s daily code cap: a refused budget leaves the invitation waiting untold', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const phone = nextPhone();
    // Two codes asked for this number (cap 3 a day in this file), then the invitation takes the third.
    // A minute apart: the resend pause holds for the number from any address (issue 40 item 4).
    for (const address of ['10.0.0.1', '10.0.0.2']) {
      expect((await requestCode(t, phone, 'login', { remoteAddress: address })).statusCode).toBe(201);
      t.clock.advance(61_000);
    }
    expect((await invite(owner.token, barrier.id, phone)).json().sms_status).toBe('sent');
    const refusedCode = await requestCode(t, phone, 'login', { remoteAddress: '10.0.0.3' });
    expect(refusedCode.statusCode).toBe(429);
    expect(refusedCode.json().code).toBe('daily_code_limit');

    const other = await createBarrier(t, owner);
    const untold = await invite(owner.token, other.id, phone);
    expect(untold.statusCode).toBe(201);
    expect(untold.json()).toMatchObject({ sms_sent: false, sms_status: 'budget_exhausted' });
    expect(untold.json().phone_invitation.status).toBe('waiting');
    expect(smsTo(phone).filter((line) => line.text.includes('шлагбауму'))).toHaveLength(1);
  });

  it('limits invitations by number per administrator per hour', async () => {
    const admin = await createAdmin(t);
    const barrier = await createBarrier(t, admin);
    for (let index = 0; index < 6; index += 1) {
      expect((await invite(admin.token, barrier.id, nextPhone())).statusCode).toBe(201);
    }
    const refused = await invite(admin.token, barrier.id, nextPhone());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('phone_invitation_limit');
    t.clock.advance(61 * 60_000);
    // The access token lasts less than that hour: a fresh session of the same administrator.
    const fresh = await issueSession(t.deps, t.deps.db, admin.id);
    expect((await invite(fresh.access_token, barrier.id, nextPhone())).statusCode).toBe(201);
  });

  it('keeps other administrators out: 404 for their barrier and their invitations', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const stranger = await createAdmin(t);
    const phone = nextPhone();
    expect((await invite(stranger.token, barrier.id, phone)).statusCode).toBe(404);
    const created = (await invite(owner.token, barrier.id, phone)).json();
    const cancel = await t.request({
      method: 'DELETE',
      url: `/api/admin/phone_invitations/${created.phone_invitation.id}/`,
      token: stranger.token,
    });
    expect(cancel.statusCode).toBe(404);
    const listed = await t.request({
      method: 'GET',
      url: '/api/admin/phone_invitations/',
      token: stranger.token,
    });
    expect(listed.json().phone_invitations).toEqual([]);
    const filtered = await t.request({
      method: 'GET',
      url: `/api/admin/phone_invitations/?barrier=${barrier.id}`,
      token: stranger.token,
    });
    expect(filtered.json().phone_invitations).toEqual([]);
    expect(filtered.body).not.toContain(phone);
    // A plain user may not use the administrator's call.
    const user = await createUser(t);
    await grantAccess(t, barrier, user);
    const asUser = await t.request({
      method: 'POST',
      url: '/api/admin/phone_invitations/',
      headers: auth(user),
      payload: { barrier: barrier.id, phone: nextPhone() },
    });
    expect(asUser.statusCode).toBe(403);
    // A bad number is a 400 on its field.
    const bad = await invite(owner.token, barrier.id, '12345');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().phone).toBeDefined();
  });
});
