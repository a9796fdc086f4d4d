/**
 * Retention (issue 28 part 6; docs/decisions/0022), with a fixed clock: history, device conversation, openings
 * and logs older than RETENTION_DAYS go, a deleted account's name and numbers are anonymised 30 days after the
 * deletion, the counts are in one info line and in the metrics — and the barriers' whitelists survive a run in
 * which everything is old: a live phone, its device slot and its open device command.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  actions,
  deviceCommands,
  deviceMessages,
  deviceSlots,
  gateOpenings,
  phones,
  users,
  verifications,
} from '../src/db/schema.ts';
import { createLogger } from '../src/lib/logger.ts';
import { runRetention } from '../src/modules/privacy/retention.ts';
import { verifiedToken } from './auth-helpers.ts';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  type TestBarrier,
} from './domain-factories.ts';
import { nextPhone, type TestUser } from './factories.ts';
import { captureLog } from './log-capture.ts';
import { useTestApp } from './test-app.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('retention', () => {
  const log = captureLog();
  let barrier: TestBarrier;
  let resident: TestUser;
  let livePhoneId: number;
  const liveNumber = nextPhone();
  let leaver: TestUser;
  let recentLeaver: TestUser;
  const leaverGuest = nextPhone();

  async function deleteAccount(user: TestUser) {
    const token = await verifiedToken(t, user.phone, 'delete_account', user.token);
    const response = await t.request({
      method: 'DELETE',
      url: '/api/users/me/',
      token: user.token,
      payload: { verification_token: token },
    });
    expect(response.statusCode, response.body).toBe(204);
  }

  const t = useTestApp({ logger: createLogger('info', log.destination) });
  beforeAll(async () => {
    ({ barrier } = await createOwnerWithBarrier(t));
    resident = await createUserWithAccess(t, barrier, 'Жилец Давний');
    const added = await addPhone(t, resident, barrier.id, { phone: liveNumber, name: 'Жена' });
    expect(added.statusCode, added.body).toBe(201);
    livePhoneId = added.json().id;
    leaver = await createUserWithAccess(t, barrier, 'Ушедший Жилец');
    expect((await addPhone(t, leaver, barrier.id, { phone: leaverGuest, name: 'Тёща' })).statusCode).toBe(
      201,
    );
    recentLeaver = await createUserWithAccess(t, barrier, 'Недавно Ушедший');

    // The device holds the live phone (a confirmed slot) and a command for it is still open.
    const [live] = await t.deps.db.select().from(phones).where(eq(phones.id, livePhoneId));
    expect(live?.slot).not.toBeNull();
    await t.deps.db
      .insert(deviceSlots)
      .values({ barrierId: barrier.id, slot: live!.slot!, number: liveNumber, confirmedAt: t.clock.now() });
    const open = await t.deps.db
      .select({ id: deviceCommands.id })
      .from(deviceCommands)
      .where(eq(deviceCommands.phoneId, livePhoneId));
    expect(open.length).toBeGreaterThan(0);

    // Both leave now; the run is 31 days after the first deletion and 2 days after the second.
    await deleteAccount(leaver);
    await deleteAccount(recentLeaver);
    t.clock.advance(31 * DAY);
    await t.deps.db
      .update(users)
      .set({ deletedAt: new Date(t.clock.now().getTime() - 2 * DAY) })
      .where(eq(users.id, recentLeaver.id));

    // Everything so far becomes two years old, the live phone, its slot and its command included.
    const old = new Date(t.clock.now().getTime() - 730 * DAY).toISOString();
    await t.deps.db.execute(sql`update actions set created_at = ${old}::timestamptz`);
    await t.deps.db.execute(sql`update phones set created_at = ${old}::timestamptz`);
    await t.deps.db.execute(sql`update device_commands set created_at = ${old}::timestamptz`);
    await t.deps.db.execute(sql`update device_slots set confirmed_at = ${old}::timestamptz`);
    await t.deps.db.execute(sql`update verifications set created_at = ${old}::timestamptz`);
    const recent = new Date(t.clock.now().getTime() - 10 * DAY);
    await t.deps.db.insert(deviceMessages).values([
      {
        barrierId: barrier.id,
        direction: 'out',
        text: `****#${liveNumber}#`,
        outcome: 'sent',
        createdAt: new Date(old),
      },
      { barrierId: barrier.id, direction: 'in', text: 'OK', outcome: 'confirmed', createdAt: recent },
    ]);
    await t.deps.db.insert(gateOpenings).values([
      {
        barrierId: barrier.id,
        userId: resident.id,
        via: 'app',
        requestedAt: new Date(old),
        status: 'confirmed',
      },
      { barrierId: barrier.id, userId: resident.id, via: 'app', requestedAt: recent, status: 'confirmed' },
    ]);
    await t.deps.db.insert(actions).values({
      barrierId: barrier.id,
      phoneId: livePhoneId,
      phoneOwnerId: resident.id,
      actionType: 'update_phone',
      author: 'user',
      newValue: { phone: liveNumber, name: 'Жена' },
      createdAt: recent,
    });
  });

  it('removes what is past RETENTION_DAYS, anonymises accounts deleted 30+ days ago, keeps the whitelist', async () => {
    const openBefore = await t.deps.db
      .select({ id: deviceCommands.id, status: deviceCommands.status })
      .from(deviceCommands)
      .where(sql`${deviceCommands.status} in ('queued', 'sent')`);
    expect(openBefore.length).toBeGreaterThan(0);
    const actionsBefore = (await t.deps.db.select({ id: actions.id }).from(actions)).length;
    log.clear();

    const result = await runRetention(t.deps);

    // History: only the recent action is left.
    const left = await t.deps.db.select().from(actions);
    expect(left).toHaveLength(1);
    expect(left[0]?.newValue).toEqual({ phone: liveNumber, name: 'Жена' });
    expect(result.actions).toBe(actionsBefore - 1);
    // Device conversation and openings: only the recent ones.
    expect((await t.deps.db.select().from(deviceMessages)).map((row) => row.text)).toEqual(['OK']);
    expect(await t.deps.db.select().from(gateOpenings)).toHaveLength(1);
    expect(result).toMatchObject({ deviceMessages: 1, gateOpenings: 1 });
    expect(await t.deps.db.select().from(verifications)).toHaveLength(0);
    expect(result.verifications).toBeGreaterThan(0);

    // The whitelist: the live phone, its slot and its open command are all still there.
    const [live] = await t.deps.db.select().from(phones).where(eq(phones.id, livePhoneId));
    expect(live).toMatchObject({ phone: liveNumber, name: 'Жена', isActive: true });
    const slots = await t.deps.db.select().from(deviceSlots).where(eq(deviceSlots.barrierId, barrier.id));
    expect(slots.map((slot) => slot.number)).toContain(liveNumber);
    const openAfter = await t.deps.db
      .select({ id: deviceCommands.id, status: deviceCommands.status })
      .from(deviceCommands)
      .where(sql`${deviceCommands.status} in ('queued', 'sent')`);
    expect(openAfter).toEqual(openBefore);
    // The resident himself is untouched.
    const [kept] = await t.deps.db.select().from(users).where(eq(users.id, resident.id));
    expect(kept).toMatchObject({ phone: resident.phone, fullName: 'Жилец Давний' });

    // The account deleted 31 days ago: no name, no number, on the account and on his removed phones.
    expect(result.deletedAccounts).toBe(1);
    const [gone] = await t.deps.db.select().from(users).where(eq(users.id, leaver.id));
    expect(gone).toMatchObject({ phone: '', fullName: null });
    const hisPhones = await t.deps.db.select().from(phones).where(eq(phones.userId, leaver.id));
    expect(hisPhones.length).toBeGreaterThan(0);
    for (const row of hisPhones) expect(row).toMatchObject({ phone: '', name: '', isActive: false });
    const database = JSON.stringify(await t.deps.db.select().from(phones));
    expect(database).not.toContain(leaver.phone);
    expect(database).not.toContain(leaverGuest);
    // The account deleted 2 days ago keeps its data for now.
    const [recentlyGone] = await t.deps.db.select().from(users).where(eq(users.id, recentLeaver.id));
    expect(recentlyGone).toMatchObject({ phone: recentLeaver.phone, fullName: 'Недавно Ушедший' });

    // One info line with the counts; the same counts in the metrics.
    const logged = log.entries.filter((line) => String(line.msg).startsWith('retention'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 30, ...result, retentionDays: 365 });
    const metrics = await t.deps.metrics.registry.getSingleMetricAsString('propusk_retention_rows_total');
    expect(metrics).toContain(`propusk_retention_rows_total{kind="actions"} ${result.actions}`);
    expect(metrics).toContain('propusk_retention_rows_total{kind="deletedAccounts"} 1');

    // A second run finds nothing more.
    const again = await runRetention(t.deps);
    expect(Object.values(again).every((count) => count === 0)).toBe(true);
  });
});
