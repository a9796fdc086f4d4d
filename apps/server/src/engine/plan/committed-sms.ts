/**
 * What a barrier's timed phones commit its device to over the coming week, read from the device's state for a
 * caller that has not read it: the budget computes it (budget/ `committedSms`) and checks a change against it
 * (`assertWeeklySmsBudget`, given this as the way to read it).
 */
import { isDeviceModel } from '@propusk/devices/models';
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { committedSms } from '../budget/index.ts';
import { loadDeviceState } from './device-state.ts';

export async function loadCommittedSms(
  executor: Executor,
  deps: Pick<Dependencies, 'config'>,
  barrierId: number,
  now: Date,
): Promise<number> {
  const state = await loadDeviceState(executor, barrierId);
  if (!state || !isDeviceModel(state.model)) return 0;
  return committedSms(deps, now, { model: state.model, specs: state.specs, clockSetAt: state.clockSetAt });
}
