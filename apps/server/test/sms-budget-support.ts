/**
 * The weekly SMS limit's parts as the tests set and read them over HTTP (issue 29 item 3, issue 40 item 3;
 * docs/decisions/0023): one home for what sms-shares, resident-pays and no-free-oracles each wrote.
 */
import { expect } from 'vitest';
import { countCommandsThisWeek } from '../src/engine/budget/index.ts';
import type { TestUser } from './factories.ts';
import type { TestApp } from './test-app.ts';

/** The `sms_budget` of a limits card, as the administrator's and the resident's screens read it. */
export interface SmsBudget {
  share: number;
  share_left: number;
  reserve_left: number;
  residents_left: number;
  limit?: number;
  reserve?: number;
}

/**
 * Sets the barrier's weekly SMS limit, its owner's reserve and a resident's share, the first two `above` what
 * this week already sent (the setup's commands are the reserve's). Answers what was sent before and the reply.
 */
export async function setShares(
  t: TestApp,
  owner: TestUser,
  barrierId: number,
  above: { limit: number; reserve: number; share: number },
) {
  const before = await countCommandsThisWeek(t.deps.db, barrierId, t.clock.now());
  const set = await t.request({
    method: 'PATCH',
    url: `/api/admin/barriers/${barrierId}/limits/`,
    token: owner.token,
    payload: {
      sms_weekly_limit: before + above.limit,
      sms_owner_reserve: before + above.reserve,
      sms_resident_share: above.share,
    },
  });
  expect(set.statusCode, set.body).toBe(200);
  return { before, set };
}

/** The limits card of a barrier: the administrator's (`admin`) or the resident's (`user`). */
export async function smsBudget(
  t: TestApp,
  who: TestUser,
  barrierId: number,
  side: 'user' | 'admin',
): Promise<SmsBudget> {
  const response = await t.request({
    method: 'GET',
    url: `/api${side === 'admin' ? '/admin' : ''}/barriers/${barrierId}/limits/`,
    token: who.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().sms_budget as SmsBudget;
}
