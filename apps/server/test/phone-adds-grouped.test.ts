/**
 * Phone adds that wait for the same barrier's turn are handled in one transaction (phone-adds.ts), and each
 * still gets the answer it would get alone: refusals in addPhoneLocked's order, distinct smallest slots, one
 * history row and one device command per phone, its SMS charged to whoever added it. Observed as a client and
 * the database see it (the history rows of a group share their inserting transaction: `xmin`).
 */
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { actions, deviceCommands, phones } from '../src/db/schema.ts';
import { addsWaitingFor } from '../src/modules/phones/phone-adds.ts';
import { barrierTurns } from '../src/modules/phones/phone-changes.ts';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  projectedDevice,
} from './domain-factories.ts';
import { createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('adds to one barrier at the same time', () => {
  const t = useTestApp();

  const adminAdd = (owner: TestUser, barrierId: number, user: number, phone: string) =>
    t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrierId}/phones/`,
      token: owner.token,
      payload: { user, phone, name: 'Нагрузка', type: 'permanent' },
    });
  /** How many transactions wrote the history rows of the barrier's added phones (rows never updated). */
  const writingTransactions = async (barrierId: number) => {
    const result = (await t.deps.db.execute(
      sql`select count(distinct a.xmin::text)::int as n from actions a join phones p on p.id = a.phone_id
        where a.barrier_id = ${barrierId} and a.action_type = 'add_phone' and p.type <> 'primary'`,
    )) as unknown as { rows: { n: number }[] };
    return Number(result.rows[0]?.n);
  };

  /**
   * Sends requests while something else holds the barrier's turn, and lets it go once `count` adds wait for
   * it: they are then handled as one group, whatever the machine's speed.
   */
  async function whileTurnHeld<Value>(barrierId: number, count: number, send: () => Promise<Value>) {
    let release = () => {};
    const held = barrierTurns.run(barrierId, () => new Promise<void>((resolve) => (release = resolve)));
    const answers = send();
    await vi.waitFor(
      () => {
        expect(addsWaitingFor(barrierId)).toBe(count);
      },
      { timeout: 30_000, interval: 20 },
    );
    release();
    await held;
    return answers;
  }

  it('gives each of an administrator’s simultaneous adds its own answer, as if alone', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 20 });
    const resident = await createUserWithAccess(t, barrier);
    const stranger = await createUser(t);
    const other = await createUser(t);
    const blocked = await createUserWithAccess(t, barrier, 'Заблокированный');
    const block = await t.request({
      method: 'PATCH',
      url: `/api/admin/users/${blocked.id}/block/`,
      token: owner.token,
      payload: { reason: 'Нарушение правил' },
    });
    expect(block.statusCode, block.body).toBe(200);
    const twice = nextPhone();
    const fresh = Array.from({ length: 8 }, () => nextPhone());
    const asked: { phone: string; user: number; expect: number | string }[] = [
      ...fresh.map((phone) => ({ phone, user: resident.id, expect: 201 })),
      { phone: nextPhone(), user: stranger.id, expect: 400 },
      { phone: blocked.phone, user: resident.id, expect: 'phone_blocked_on_barrier' },
      { phone: other.phone, user: resident.id, expect: 'phone_of_other_account' },
      { phone: twice, user: resident.id, expect: 'twice' },
      { phone: twice, user: resident.id, expect: 'twice' },
    ];
    const answers = await whileTurnHeld(barrier.id, asked.length, () =>
      Promise.all(asked.map((entry) => adminAdd(owner, barrier.id, entry.user, entry.phone))),
    );

    answers.forEach((answer, index) => {
      const expected = asked[index]!.expect;
      if (expected === 201) expect(answer.statusCode, answer.body).toBe(201);
      else if (expected === 400) expect(answer.json()).toMatchObject({ user: [expect.any(String)] });
      else if (expected !== 'twice') expect(answer.json().code, answer.body).toBe(expected);
    });
    const twiceAnswers = answers.filter((_, index) => asked[index]!.expect === 'twice');
    expect(twiceAnswers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(twiceAnswers.find((answer) => answer.statusCode === 409)?.json().code).toBe('phone_duplicate');

    // Nine phones: distinct slots, the smallest free ones (the owner's and two residents' primaries hold 1–3).
    const added = answers.filter((answer) => answer.statusCode === 201).map((answer) => answer.json());
    expect(added).toHaveLength(9);
    expect(added.every((phone) => phone.status === 'pending' && phone.barrier === barrier.id)).toBe(true);
    const rows = await t.deps.db
      .select({ id: phones.id, slot: phones.slot, phone: phones.phone })
      .from(phones)
      .where(and(eq(phones.barrierId, barrier.id), eq(phones.isActive, true)));
    const addedRows = rows.filter((row) => added.some((phone) => phone.id === row.id));
    const slots = addedRows.map((row) => row.slot as number).sort((a, b) => a - b);
    const primaries = rows.length - addedRows.length;
    expect(slots).toEqual(Array.from({ length: 9 }, (_, index) => primaries + index + 1));
    // One transaction wrote them all: they were added together.
    expect(await writingTransactions(barrier.id)).toBe(1);

    // One history row and one device command per phone; the device will hold exactly the barrier's numbers.
    const history = await t.deps.db
      .select({ phoneId: actions.phoneId, author: actions.author })
      .from(actions)
      .where(and(eq(actions.barrierId, barrier.id), eq(actions.actionType, 'add_phone')));
    for (const phone of added)
      expect(history.filter((row) => row.phoneId === phone.id)).toEqual([
        { phoneId: phone.id, author: 'admin' },
      ]);
    const commands = await t.deps.db
      .select({ kind: deviceCommands.kind, phoneId: deviceCommands.phoneId, spentBy: deviceCommands.spentBy })
      .from(deviceCommands)
      .where(eq(deviceCommands.barrierId, barrier.id));
    for (const phone of added)
      expect(commands.filter((row) => row.phoneId === phone.id)).toEqual([
        { kind: 'add', phoneId: phone.id, spentBy: null },
      ]);
    const device = await projectedDevice(t, barrier.id);
    expect([...device.entries()].sort(([a], [b]) => a - b)).toEqual(
      rows.map((row) => [row.slot, row.phone]).sort(([a], [b]) => Number(a) - Number(b)),
    );
  });

  it('charges each resident’s own timed phones to him when residents add at the same time', async () => {
    const { barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 30 });
    const first = await createUserWithAccess(t, barrier);
    const second = await createUserWithAccess(t, barrier);
    const start = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const end = new Date(t.clock.now().getTime() + 7200_000).toISOString();
    const answers = await whileTurnHeld(barrier.id, 10, () =>
      Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          addPhone(t, index % 2 === 0 ? first : second, barrier.id, {
            type: 'temporary',
            start_time: start,
            end_time: end,
          }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(201));
    const rows = await t.deps.db
      .select({ userId: phones.userId, smsPaidBy: phones.smsPaidBy })
      .from(phones)
      .where(and(eq(phones.barrierId, barrier.id), eq(phones.type, 'temporary')));
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => row.smsPaidBy === row.userId)).toBe(true);
    expect(await writingTransactions(barrier.id)).toBe(1);
  });

  it('takes the adds one by one on a barrier with a weekly SMS limit: exactly the budget passes', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 30 });
    const resident = await createUserWithAccess(t, barrier);
    const used = (
      await t.deps.db
        .select({ id: deviceCommands.id })
        .from(deviceCommands)
        .where(eq(deviceCommands.barrierId, barrier.id))
    ).length;
    const limit = await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrier.id}/limits/`,
      token: owner.token,
      payload: { sms_weekly_limit: used + 3, sms_owner_reserve: 0, sms_resident_share: used + 3 },
    });
    expect(limit.statusCode, limit.body).toBe(200);
    const answers = await whileTurnHeld(barrier.id, 6, () =>
      Promise.all(Array.from({ length: 6 }, () => adminAdd(owner, barrier.id, resident.id, nextPhone()))),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.statusCode !== 201).map((answer) => answer.json().code)).toEqual(
      Array(3).fill('sms_weekly_limit'),
    );
  });
});
