/**
 * A barrier's device profile as a file (issue 42 item 5, docs/devices/PROFILE-FORMAT.md): the export writes the
 * model's forms as the unit answers them (the learnt profile applied) and the conformance runs that verified
 * them; the import reads a file, checks it against the barrier's model and replaces the profile in one
 * transaction with a history row. The administrator's routes check the barrier role; the command line (the
 * operator, who holds the server) calls the `…Of`/`…Onto` forms directly.
 */
import { readProfileFileShape } from '@propusk/contracts/device-profile-file';
import { getSheet, isDeviceModel } from '@propusk/devices/models';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import {
  type FileRun,
  overrideFromFile,
  type ProfileFileData,
  profileFile,
} from '@propusk/devices/profile-file';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, deviceConformanceRuns } from '../../db/schema.ts';
import { lockBarrier } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import { insertAction } from './repository.ts';

/** A barrier row as the policy checks give it (no search vector). */
type BarrierRow = Omit<typeof barriers.$inferSelect, 'searchVector'>;
/** What the file reads of a run's step as `device_conformance_runs.steps` keeps it (conformance's StepRecord). */
type StoredStep = { step: { key: string }; state: string; verdict: string | null };

/** The barrier's finished conformance runs, oldest first: each step's key and verdict (never a reply text). */
async function verifiedRuns(executor: Executor, barrier: BarrierRow): Promise<FileRun[]> {
  const runs = await executor
    .select()
    .from(deviceConformanceRuns)
    .where(and(eq(deviceConformanceRuns.barrierId, barrier.id), eq(deviceConformanceRuns.status, 'finished')))
    .orderBy(asc(deviceConformanceRuns.id))
    .limit(50);
  return runs.map((run) => {
    const steps = run.steps as StoredStep[];
    return {
      run: run.id,
      date: (run.finishedAt ?? run.createdAt).toISOString(),
      model: barrier.deviceModel,
      all_confirmed: steps.every((step) => step.state === 'skipped' || step.verdict === 'as_sheet'),
      steps: steps.map((step) => ({ key: step.step.key, verdict: step.verdict ?? 'skipped' })),
    };
  });
}

async function fileOf(executor: Executor, barrier: BarrierRow, now: Date): Promise<ProfileFileData> {
  if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_model_unknown');
  return profileFile({
    model: barrier.deviceModel,
    override: (barrier.deviceProfile as DeviceProfileOverride | null) ?? null,
    // The barrier's name stays on this server: the file names the model and the barrier's number only.
    source: {
      kind: 'barrier',
      note: `Профиль устройства шлагбаума № ${barrier.id} (${getSheet(barrier.deviceModel).label})`,
    },
    exportedAt: now,
    verified: await verifiedRuns(executor, barrier),
  });
}

async function liveBarrier(executor: Executor, barrierId: number): Promise<BarrierRow> {
  const [barrier] = await executor
    .select()
    .from(barriers)
    .where(and(eq(barriers.id, barrierId), isNull(barriers.deletedAt)));
  if (!barrier) throw notFound('barrier_not_found');
  return barrier;
}

export async function exportDeviceProfile(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<ProfileFileData> {
  const barrier = await requireBarrierPermission(deps.db, user.id, barrierId, 'settings.manage');
  return fileOf(deps.db, barrier, deps.clock.now());
}

/** The command line's export: any live barrier (the operator holds the server). */
export async function exportDeviceProfileOf(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  barrierId: number,
): Promise<ProfileFileData> {
  return fileOf(deps.db, await liveBarrier(deps.db, barrierId), deps.clock.now());
}

export interface ImportResult {
  model: string;
  profile: DeviceProfileOverride | null;
  verified: number;
}

async function importOnto(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  barrierId: number,
  text: string,
  actor: { userId: number | null; find: (tx: Executor) => Promise<BarrierRow> },
): Promise<ImportResult> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    // The barrier first (one he holds nothing on is 404 whatever the file), then the file: a bad one
    // throws before anything is written.
    const barrier = await actor.find(tx);
    const shape = readProfileFileShape(text);
    if (!shape.ok) throw badRequest('device_profile_file_invalid', undefined, { problems: shape.problems });
    await lockBarrier(tx, barrierId);
    if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_model_unknown');
    const read = overrideFromFile(shape.file, barrier.deviceModel);
    if (!read.ok) throw badRequest('device_profile_file_invalid', undefined, { problems: read.problems });
    await tx
      .update(barriers)
      .set({ deviceProfile: read.override, updatedAt: now })
      .where(eq(barriers.id, barrierId));
    await insertAction(
      tx,
      barrierId,
      actor.userId,
      {
        setting: 'device_profile',
        old: barrier.deviceProfile ?? null,
        profile: read.override,
        imported: {
          source: shape.file.source.note.slice(0, 200),
          exported_at: shape.file.exported_at,
          verified_runs: shape.file.verified.length,
        },
      },
      now,
    );
    return { model: read.model, profile: read.override, verified: shape.file.verified.length };
  });
}

/** Replaces the barrier's profile with a file's (owner or manager); 400 `device_profile_file_invalid`. */
export function importDeviceProfile(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  user: AuthenticatedUser,
  barrierId: number,
  text: string,
): Promise<ImportResult> {
  return importOnto(deps, barrierId, text, {
    userId: user.id,
    find: (tx) => requireBarrierPermission(tx, user.id, barrierId, 'settings.manage'),
  });
}

/** The command line's import (history author: the system). */
export function importDeviceProfileOnto(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  barrierId: number,
  text: string,
): Promise<ImportResult> {
  return importOnto(deps, barrierId, text, { userId: null, find: (tx) => liveBarrier(tx, barrierId) });
}
