/** An administrator's "try again" for a phone whose device command failed after every retry. */
import type { PhoneStatus } from '@propusk/contracts/devices';
import { and, eq, isNull } from 'drizzle-orm';
import { barriers, phones } from '../../db/schema.ts';
import { lockBarrier, syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, HttpError, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';

export async function retryPhone(
  deps: Dependencies,
  user: AuthenticatedUser,
  phoneId: number,
): Promise<{ id: number; status: PhoneStatus }> {
  const result = await deps.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ barrierId: phones.barrierId })
      .from(phones)
      .innerJoin(barriers, eq(barriers.id, phones.barrierId))
      .where(and(eq(phones.id, phoneId), isNull(barriers.deletedAt)));
    if (!found) throw notFound('phone_not_found');
    // A barrier he holds nothing on hides its phones (404); a role without phones is 403.
    await requireBarrierPermission(tx, user.id, found.barrierId, 'phones.manage').catch((error: unknown) => {
      throw error instanceof HttpError && error.statusCode === 404 ? notFound('phone_not_found') : error;
    });
    await lockBarrier(tx, found.barrierId);
    const [phone] = await tx
      .select({ status: phones.status, slot: phones.slot, isActive: phones.isActive })
      .from(phones)
      .where(eq(phones.id, phoneId));
    if (!phone?.isActive || phone.slot === null || phone.status !== 'error') {
      throw conflict('phone_not_in_error');
    }
    await tx
      .update(phones)
      .set({ status: 'pending', updatedAt: deps.clock.now() })
      .where(eq(phones.id, phoneId));
    await syncBarrierDevice(tx, deps, found.barrierId, { retrySlots: [phone.slot] });
    const [after] = await tx.select({ status: phones.status }).from(phones).where(eq(phones.id, phoneId));
    return { barrierId: found.barrierId, status: after?.status ?? 'pending' };
  });
  deps.notifyDeviceCommands([result.barrierId]);
  return { id: phoneId, status: result.status };
}
