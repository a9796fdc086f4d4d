/**
 * One home for what a command costs (issue 44 part 1): every command the outbox plans stores the SMS an
 * attempt costs, decided by @propusk/devices/cost, and the SQL sums of the week's SMS read that column. For
 * every model and every kind its plans hold, the stored cost equals the package's; the week's count equals
 * the package's sum over the rows that count (every status but cancelled).
 */
import { commandSms, smsPerAttempt } from '@propusk/devices/cost';
import { DEVICE_MODELS, getSheet } from '@propusk/devices/models';
import { commandFromJson, type PlannedCommandJson } from '@propusk/devices/planner';
import { describe, expect, it } from 'vitest';
import { countCommandsThisWeek } from '../src/engine/budget/index.ts';
import { createDeviceHarness } from './device-harness.ts';
import { createAdmin } from './factories.ts';
import { useTestApp } from './test-app.ts';

const HOUR = 60 * 60 * 1000;

describe('the SMS a planned command costs', () => {
  const app = useTestApp();

  it.each(DEVICE_MODELS)('is stored as the package decides it on a %s barrier', async (model) => {
    const t = app();
    const h = createDeviceHarness(t);
    const admin = await createAdmin(t);
    const barrier = await h.createBarrier({ ownerId: admin.id, model, clockSetAt: t.clock.now() });
    const now = t.clock.now().getTime();
    const permanent = await h.addPhone(barrier.id, { userId: admin.id });
    await h.addPhone(barrier.id, {
      userId: admin.id,
      type: 'temporary',
      start: new Date(now + HOUR),
      end: new Date(now + 3 * HOUR),
    });
    // Sent and answered first, so that its removal is a delete on the unit, not a cancelled add.
    await h.run(barrier.id);
    await h.removePhone(barrier.id, permanent.id);

    const rows = await h.commands(barrier.id);
    expect(rows.some((row) => row.kind === 'delete')).toBe(true);
    for (const row of rows) {
      const command = commandFromJson(row.payload as PlannedCommandJson);
      expect({ kind: row.kind, cost: row.smsPerAttempt }).toEqual({
        kind: row.kind,
        cost: smsPerAttempt(model, command),
      });
    }
    const week = await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now());
    const counted = rows.filter((row) => row.status !== 'cancelled');
    expect(week).toBe(counted.reduce((sum, row) => sum + commandSms(row.smsPerAttempt, row.attempts), 0));
  });

  it('costs two SMS an attempt where the unit reads a change back, one elsewhere', async () => {
    const readBack = DEVICE_MODELS.filter((model) => getSheet(model).confirmation === 'read_back');
    expect(readBack.length).toBeGreaterThan(0);
    const t = app();
    const h = createDeviceHarness(t);
    const admin = await createAdmin(t);
    for (const model of [readBack[0]!, 'RTU5025']) {
      const barrier = await h.createBarrier({ ownerId: admin.id, model, clockSetAt: t.clock.now() });
      await h.addPhone(barrier.id, { userId: admin.id });
      const adds = (await h.commands(barrier.id)).filter((row) => row.kind === 'add');
      expect(adds.map((row) => row.smsPerAttempt)).toEqual([model === 'RTU5025' ? 1 : 2]);
    }
  });
});
