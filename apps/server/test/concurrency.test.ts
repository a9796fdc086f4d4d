/**
 * Parallel changes to one barrier: the barrier row lock serialises slot allocation and limit checks, and
 * unique indexes back it up. On PostgreSQL (DATABASE_URL) these requests really run on separate connections.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { phones } from '../src/db/schema.ts';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  projectedDevice,
} from './domain-factories.ts';
import { createUser, nextPhone } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('concurrent changes to one barrier', () => {
  const t = useTestApp();

  const activeSlots = async (barrierId: number) =>
    (
      await t.deps.db
        .select({ slot: phones.slot })
        .from(phones)
        .where(and(eq(phones.barrierId, barrierId), eq(phones.isActive, true), isNotNull(phones.slot)))
    ).map((row) => row.slot as number);

  it('parallel adds never share a slot and never pass the device’s capacity', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 12 });
    const members = await Promise.all([0, 1, 2].map(() => createUserWithAccess(t, barrier)));
    // 4 slots taken by primaries: 8 free.
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, index) => addPhone(t, members[index % 3]!, barrier.id)),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(8);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true);
    const slots = await activeSlots(barrier.id);
    expect(slots).toHaveLength(12);
    expect(new Set(slots).size).toBe(12);
    expect(Math.max(...slots)).toBe(12);
    expect((await projectedDevice(t, barrier.id)).size).toBe(12);
    expect(owner.id).toBeGreaterThan(0);
  });

  it('parallel adds never exceed a per-user or per-barrier limit', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const first = await createUserWithAccess(t, barrier);
    const second = await createUserWithAccess(t, barrier);
    await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrier.id}/limits/`,
      token: owner.token,
      payload: { user_temp_phone_limit: 3, global_temp_phone_limit: 5 },
    });
    const start = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const end = new Date(t.clock.now().getTime() + 7200_000).toISOString();
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        addPhone(t, index % 2 === 0 ? first : second, barrier.id, {
          type: 'temporary',
          start_time: start,
          end_time: end,
        }),
      ),
    );
    const created = responses
      .filter((response) => response.statusCode === 201)
      .map((response) => response.json());
    expect(created).toHaveLength(5);
    expect(created.filter((phone) => phone.user === first.id).length).toBeLessThanOrEqual(3);
    expect(created.filter((phone) => phone.user === second.id).length).toBeLessThanOrEqual(3);
    expect(responses.every((response) => [201, 409].includes(response.statusCode))).toBe(true);
  });

  it('the same number added in parallel lands once', async () => {
    const { barrier } = await createOwnerWithBarrier(t);
    const member = await createUserWithAccess(t, barrier);
    const number = nextPhone();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => addPhone(t, member, barrier.id, { phone: number })),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(7);
  });

  it('parallel acceptances and adds respect the slot count together', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 5 });
    const member = await createUserWithAccess(t, barrier);
    const askers = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
    const requests = await Promise.all(
      askers.map((user) =>
        t.request({
          method: 'POST',
          url: '/api/access_requests/',
          token: user.token,
          payload: { user: user.id, barrier: barrier.id },
        }),
      ),
    );
    const results = await Promise.all([
      ...requests.map((request) =>
        t.request({
          method: 'PATCH',
          url: `/api/admin/access_requests/${request.json().id}/`,
          token: owner.token,
          payload: { status: 'accepted' },
        }),
      ),
      ...Array.from({ length: 4 }, () => addPhone(t, member, barrier.id)),
    ]);
    expect(results.filter((response) => [200, 201].includes(response.statusCode))).toHaveLength(3);
    expect(results.every((response) => [200, 201, 409].includes(response.statusCode))).toBe(true);
    const slots = await activeSlots(barrier.id);
    expect(slots.sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
