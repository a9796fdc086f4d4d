/**
 * Issue 40 item 4: a person can mute one administrator's invitations. From the card of an invitation he mutes
 * the owner of its barrier: the invitation goes, the owner's later invitations (by id, by number) are never
 * shown to him and an invitation by number sends him no SMS, while the administrator's side reads as always.
 * He lists and lifts his mutes (docs/decisions/0030).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('a person mutes one administrator’s invitations', () => {
  let admin: TestUser;
  let person: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    admin = await createAdmin(t, { fullName: 'Навязчивый Администратор' });
    person = await createUser(t, { fullName: 'Житель' });
  });

  const invite = (barrierId: number) =>
    t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: admin.token,
      payload: { user: person.id, barrier: barrierId },
    });
  const shown = async () => {
    const response = await t.request({ method: 'GET', url: '/api/access_requests/my/', token: person.token });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().access_requests as { id: number; barrier: number; status: string }[]).filter(
      (request) => request.status === 'pending',
    );
  };

  it('hides his invitation and his later ones, sends no SMS, tells him nothing, and lifts on request', async () => {
    const first = await createBarrier(t, admin);
    const invited = await invite(first.id);
    expect(invited.statusCode, invited.body).toBe(201);
    expect((await shown()).map((request) => request.id)).toEqual([invited.json().id]);

    const muted = await t.request({
      method: 'POST',
      url: `/api/access_requests/${invited.json().id}/mute/`,
      token: person.token,
    });
    expect(muted.statusCode, muted.body).toBe(204);
    expect(await shown()).toEqual([]);

    // His next invitation, on another barrier: made for him as always, never shown to the person.
    const second = await createBarrier(t, admin);
    const again = await invite(second.id);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ status: 'pending', type: 'outgoing' });
    expect(await shown()).toEqual([]);

    // By number: the answer reads as for anyone, and no SMS reaches the person.
    const third = await createBarrier(t, admin);
    const before = t.sentSms().filter((sms) => sms.to === person.phone).length;
    const byNumber = await t.request({
      method: 'POST',
      url: '/api/admin/phone_invitations/',
      token: admin.token,
      payload: { phone: person.phone, barrier: third.id },
    });
    expect(byNumber.statusCode, byNumber.body).toBe(201);
    expect(byNumber.json().sms_status).toBe('sent');
    expect(t.sentSms().filter((sms) => sms.to === person.phone).length).toBe(before);
    expect(await shown()).toEqual([]);

    // Another administrator's invitations are untouched.
    const other = await createAdmin(t, { fullName: 'Другой' });
    const otherBarrier = await createBarrier(t, other);
    const fromOther = await t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: other.token,
      payload: { user: person.id, barrier: otherBarrier.id },
    });
    expect(fromOther.statusCode, fromOther.body).toBe(201);
    expect((await shown()).map((request) => request.barrier)).toEqual([otherBarrier.id]);

    // His mutes, and the lift: the administrator's next invitation is shown again.
    const list = await t.request({ method: 'GET', url: '/api/invitation_mutes/', token: person.token });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().mutes).toEqual([expect.objectContaining({ admin_name: 'Навязчивый Администратор' })]);
    const lifted = await t.request({
      method: 'DELETE',
      url: `/api/invitation_mutes/${list.json().mutes[0].id}/`,
      token: person.token,
    });
    expect(lifted.statusCode, lifted.body).toBe(204);
    const fourth = await createBarrier(t, admin);
    const shownAgain = await invite(fourth.id);
    expect(shownAgain.statusCode, shownAgain.body).toBe(201);
    expect((await shown()).map((request) => request.barrier)).toContain(fourth.id);

    // Nobody mutes from someone else's invitation.
    const stranger = await createUser(t);
    const foreign = await t.request({
      method: 'POST',
      url: `/api/access_requests/${shownAgain.json().id}/mute/`,
      token: stranger.token,
    });
    expect(foreign.statusCode).toBe(404);
  });
});
