/**
 * Issue 32 item 3: while a barrier is open to every caller, its relay is set to stay on, or an emergency hold
 * runs on it, the administrator's list and barrier and the resident's barrier card say so (`dangers`), and stop
 * saying so once it is undone. A stranger's card never tells.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('dangerous states of a barrier in its payloads', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  let other: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    owner = await createAdmin(t, { fullName: 'Владелец Опасный' });
    barrier = await createBarrier(t, owner, { device_password: '2580' });
    other = await createBarrier(t, owner, { device_password: '2580' });
    resident = await createUserWithAccess(t, barrier, 'Жилец Видящий');
  });

  const get = async (url: string, token: string) => {
    const response = await t.request({ method: 'GET', url, token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const states = async () => {
    const list = await get('/api/admin/barriers/my/?page_size=100', owner.token);
    const inList = list.barriers.find((row: { id: number }) => row.id === barrier.id);
    const otherInList = list.barriers.find((row: { id: number }) => row.id === other.id);
    const page = await get(`/api/admin/barriers/${barrier.id}/`, owner.token);
    const card = await get(`/api/barriers/${barrier.id}/`, resident.token);
    expect(inList.dangers).toEqual(page.dangers);
    expect(card.dangers).toEqual(page.dangers);
    expect(otherInList.dangers).toEqual([]);
    return { dangers: page.dangers as string[], holdId: page.emergency_hold_id as number | null };
  };
  const setting = async (name: string, params: Record<string, string> = {}) => {
    const response = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/settings/`,
      token: owner.token,
      payload: { setting: name, params },
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  it('shows nothing on a barrier in normal work', async () => {
    expect(await states()).toEqual({ dangers: [], holdId: null });
  });

  it('shows «open to all» from the moment ALL# is sent until AUT# is', async () => {
    await setting('access_all');
    expect((await states()).dangers).toEqual(['open_to_all']);
    // A stranger sees the public card, not its state.
    const stranger = await createUser(t);
    expect((await get(`/api/barriers/${barrier.id}/`, stranger.token)).dangers).toEqual([]);
    await setting('access_authorized');
    expect((await states()).dangers).toEqual([]);
  });

  it('shows «relay always on» for a relay time of 999 until another time is sent', async () => {
    await setting('relay_time', { seconds: '999' });
    expect((await states()).dangers).toEqual(['relay_always_on']);
    await setting('relay_time', { seconds: '5' });
    expect((await states()).dangers).toEqual([]);
  });

  it('shows a running emergency hold with its id, and not after it ended', async () => {
    const started = await t.request({
      method: 'POST',
      url: '/api/admin/emergency-holds/',
      token: owner.token,
      payload: { barrier_ids: [barrier.id], reason: 'Учения' },
    });
    expect(started.statusCode, started.body).toBe(201);
    const hold = started.json();
    expect(await states()).toEqual({ dangers: ['emergency_hold'], holdId: hold.id });
    const ended = await t.request({
      method: 'POST',
      url: `/api/admin/emergency-holds/${hold.id}/end/`,
      token: owner.token,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await states()).toEqual({ dangers: [], holdId: null });
  });
});
