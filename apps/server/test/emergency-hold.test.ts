/**
 * Issue 16 part 1: the emergency hold-open (п. 71 Правил противопожарного режима, ПП РФ № 1479). An
 * administrator holds all (or chosen) barriers open in one call: GOT999 then CC go before anything else in each
 * barrier's queue (after at most the one command in flight), the simulated relays close and stay closed, each
 * barrier's state is readable, failures are retried; ending it sends DD and the relay time back; every step is
 * in the history with its author and reason. Never refused by the weekly SMS limit.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { actions, barrierLimits } from '../src/db/schema.ts';
import { endHold, getHold } from '../src/modules/relay/service.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('emergency hold-open', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let held: TestBarrier[];
  let ambiguous: TestBarrier;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    owner = await createAdmin(t, { fullName: 'Диспетчер Смены' });
    held = [];
    for (let index = 0; index < 3; index++) {
      const barrier = await createBarrier(t, owner, { device_password: '2580' });
      await h.run(barrier.id);
      held.push(barrier);
    }
    ambiguous = await createBarrier(t, owner, { device_model: 'RTU5024' });
    await h.run(ambiguous.id);
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object, token = owner.token) =>
    t.request({ method, url, token, ...(payload ? { payload } : {}) });
  const relayOn = (barrier: TestBarrier) => h.simulators.device(barrier.id)?.relay(t.clock.now()).on;

  it('holds every barrier open (GOT999, CC) before their queued changes, ends it (DD, relay time back)', async () => {
    // Queued changes wait on the first barrier: an add of a new user's phone and a revocation.
    const first = held[0]!;
    const leaving = await createUserWithAccess(t, first, 'Уходящий');
    await h.run(first.id);
    await createUserWithAccess(t, first, 'Новый');
    const left = await call('DELETE' as 'POST', `/api/admin/barriers/${first.id}/users/${leaving.id}/`);
    expect(left.statusCode, left.body).toBe(204);
    // The weekly SMS limit of the second barrier is spent: the hold goes through all the same.
    await t.deps.db
      .update(barrierLimits)
      .set({ smsWeeklyLimit: 1 })
      .where(eq(barrierLimits.barrierId, held[1]!.id));
    const before = held.map((barrier) => h.smsTo(barrier.device_phone).length);

    const started = await call('POST', '/api/admin/emergency-holds/', {
      barrier_ids: 'all',
      reason: 'Пожарная тревога, корпус 2',
    });
    expect(started.statusCode, started.body).toBe(201);
    const hold = started.json();
    expect(hold.rule).toContain('1479');
    expect(hold.started_by_name).toBe('Диспетчер Смены');
    const states = Object.fromEntries(hold.barriers.map((row: { barrier: number }) => [row.barrier, row]));
    for (const barrier of held) expect(states[barrier.id]).toMatchObject({ phase: 'hold', state: 'sent' });
    expect(states[ambiguous.id]).toMatchObject({ state: 'refused', refused: 'relay_dialect_unknown' });

    for (const barrier of held) await h.run(barrier.id);
    held.forEach((barrier, index) => {
      expect(h.smsTo(barrier.device_phone).slice(before[index]).slice(0, 2)).toEqual([
        '2580GOT999#',
        '2580CC',
      ]);
      expect(relayOn(barrier)).toBe(true);
    });
    // The first barrier's changes followed the hold: the revocation, then the add.
    const firstSms = h.smsTo(first.device_phone).slice(before[0]);
    expect(firstSms.slice(2).map((text) => text.replace(/#.*/, '#'))).toEqual(['2580A002#', '2580A003#']);
    expect(firstSms[2]).toMatch(/^2580A002##$/);

    const read = await call('GET', `/api/admin/emergency-holds/${hold.id}/`);
    for (const row of read.json().barriers.filter((entry: { refused: string | null }) => !entry.refused))
      expect(row).toMatchObject({ phase: 'hold', state: 'confirmed', retrying: false });
    const hourLater = new Date(t.clock.now().getTime() + 60 * 60_000);
    for (const barrier of held) expect(h.simulators.device(barrier.id)?.relay(hourLater).on).toBe(true);

    // An opening during the hold would close the held gate with its DD: refused.
    const resident = await createUserWithAccess(t, held[2]!, 'Жилец');
    const opening = await call('POST', `/api/barriers/${held[2]!.id}/open/`, undefined, resident.token);
    expect(opening.statusCode).toBe(409);
    expect(opening.json().code).toBe('emergency_hold_active');

    const ended = await call('POST', `/api/admin/emergency-holds/${hold.id}/end/`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ ended_by_name: 'Диспетчер Смены', ended_at: expect.any(String) });
    const afterHold = held.map((barrier) => h.smsTo(barrier.device_phone).length);
    for (const barrier of held) await h.run(barrier.id);
    held.forEach((barrier, index) => {
      expect(h.smsTo(barrier.device_phone).slice(afterHold[index]).slice(0, 2)).toEqual([
        '2580DD',
        '2580GOT000#',
      ]);
      expect(relayOn(barrier)).toBe(false);
    });
    const endRead = await call('GET', `/api/admin/emergency-holds/${hold.id}/`);
    for (const row of endRead.json().barriers.filter((entry: { refused: string | null }) => !entry.refused))
      expect(row).toMatchObject({ phase: 'end', state: 'confirmed', restored_relay_seconds: 0 });

    // Every step is in each barrier's history, with who did it and why.
    for (const barrier of held) {
      const response = await call('GET', `/api/admin/barriers/${barrier.id}/actions/?page_size=100`);
      const steps = response
        .json()
        .actions.filter((action: { setting_name: string | null }) =>
          ['Экстренное открытие', 'Завершение экстренного открытия'].includes(action.setting_name ?? ''),
        );
      expect(steps).toEqual([
        expect.objectContaining({
          setting_name: 'Завершение экстренного открытия',
          author_name: 'Диспетчер Смены',
          reason: 'Пожарная тревога, корпус 2',
        }),
        expect.objectContaining({
          setting_name: 'Экстренное открытие',
          author_name: 'Диспетчер Смены',
          reason: 'Пожарная тревога, корпус 2',
        }),
      ]);
    }
    const again = await call('POST', `/api/admin/emergency-holds/${hold.id}/end/`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('emergency_hold_ended');
  });

  it('waits for the one command in flight, then goes before queued revocations and adds', async () => {
    const barrier = await createBarrier(t, owner, { device_password: '2580' });
    await h.run(barrier.id);
    const a = await createUserWithAccess(t, barrier, 'Первый');
    await createUserWithAccess(t, barrier, 'Второй');
    // The first add leaves and waits for its answer.
    const before = h.smsTo(barrier.device_phone).length;
    await h.run(barrier.id, { answer: false });
    expect(h.smsTo(barrier.device_phone).slice(before)).toHaveLength(1);
    await call('DELETE' as 'POST', `/api/admin/barriers/${barrier.id}/users/${a.id}/`);
    const started = await call('POST', '/api/admin/emergency-holds/', {
      barrier_ids: [barrier.id],
      reason: 'Учения',
    });
    expect(started.statusCode).toBe(201);
    // The add in flight is answered late (after its timeout) and the queue moves on.
    t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    await h.run(barrier.id);
    const sent = h.smsTo(barrier.device_phone).slice(before);
    expect(sent[0]).toMatch(/^2580A002#0007\d{10}#$/);
    const afterInFlight = sent.slice(1).filter((text) => text !== sent[0]);
    expect(afterInFlight.slice(0, 2)).toEqual(['2580GOT999#', '2580CC']);
    expect(relayOn(barrier)).toBe(true);
    await call('POST', `/api/admin/emergency-holds/${started.json().id}/end/`);
    await h.run(barrier.id);
    expect(relayOn(barrier)).toBe(false);
  });

  it('refuses when no chosen barrier can be held, and to anyone without the permission', async () => {
    const only = await call('POST', '/api/admin/emergency-holds/', {
      barrier_ids: [ambiguous.id],
      reason: 'Проверка',
    });
    expect(only.statusCode).toBe(409);
    expect(only.json().code).toBe('relay_dialect_unknown');
    const noReason = await call('POST', '/api/admin/emergency-holds/', { barrier_ids: 'all', reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    const other = await createAdmin(t);
    const foreign = await call(
      'POST',
      '/api/admin/emergency-holds/',
      { barrier_ids: [held[0]!.id], reason: 'Чужой' },
      other.token,
    );
    expect(foreign.statusCode).toBe(404);
    const none = await call(
      'POST',
      '/api/admin/emergency-holds/',
      { barrier_ids: 'all', reason: 'Пусто' },
      other.token,
    );
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('no_barriers_to_hold');
    const user = await createUser(t);
    expect((await call('GET', '/api/admin/emergency-holds/', undefined, user.token)).statusCode).toBe(403);
    const list = await call('GET', '/api/admin/emergency-holds/', undefined, other.token);
    expect(list.json()).toMatchObject({ holds: [], total_count: 0 });
    const history = await t.deps.db
      .select()
      .from(actions)
      .where(and(eq(actions.barrierId, ambiguous.id), eq(actions.reason, 'Проверка')));
    expect(history).toEqual([]);
  });
  it('retries a hold command that gets no answer beyond the usual attempts, and says so', async () => {
    const barrier = await createBarrier(t, owner, { device_password: '2580' });
    await h.run(barrier.id);
    const started = await call('POST', '/api/admin/emergency-holds/', {
      barrier_ids: [barrier.id],
      reason: 'Дым в подземном паркинге',
    });
    const id = started.json().id;
    const attempts = t.deps.config.DEVICE_MAX_ATTEMPTS + 2;
    for (let attempt = 0; attempt < attempts; attempt++) {
      await h.run(barrier.id, { answer: false });
      t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
      await h.run(barrier.id, { answer: false });
      t.clock.advance(2 * 60_000);
    }
    // (The clock ran past the session's lifetime: the state is read from the service.)
    const read = await getHold(t.deps, owner.id, id);
    expect(read.barriers[0]).toMatchObject({ state: 'sent', retrying: true });
    expect(read.barriers[0]?.attempts).toBeGreaterThan(t.deps.config.DEVICE_MAX_ATTEMPTS);
    expect(h.smsTo(barrier.device_phone).filter((text) => text === '2580GOT999#').length).toBeGreaterThan(
      t.deps.config.DEVICE_MAX_ATTEMPTS,
    );
    // The device answers at last.
    await h.run(barrier.id);
    expect(relayOn(barrier)).toBe(true);
    await endHold(t.deps, owner.id, id);
    await h.run(barrier.id);
    expect(relayOn(barrier)).toBe(false);
  });
});
