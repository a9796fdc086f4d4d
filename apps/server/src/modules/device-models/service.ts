/**
 * Models an administrator defines (issue 42 item 4, docs/decisions/0039): list, create, change, delete,
 * export and import as the profile file version 2, and whether a barrier on one is verified on its unit.
 * A definition is checked twice over before it is stored: its shape and parameters
 * (`@propusk/contracts/device-model-definition`), then what its forms render to (`definitionSmsProblems`: one
 * SMS each). Each change rebuilds the engine's sheets of defined models (`refreshDefinedModels`).
 */
import {
  DEFINED_MODEL_FILE_MODEL,
  DEFINED_MODEL_FILE_VERSION,
  DEFINED_MODEL_LIMITS,
  type DeviceModelView,
  type ModelDefinition,
  readDefinedModelFile,
  readModelDefinition,
} from '@propusk/contracts/device-model-definition';
import { DEVICE_PROFILE_FORMAT } from '@propusk/contracts/device-profile-file';
import { definitionSmsProblems, installDefinedModels } from '@propusk/devices/defined-model';
import { definedModelId, definedModelKey, isDeviceModel } from '@propusk/devices/models';
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import * as repository from './repository.ts';

export type DefinitionCheck = { ok: true; definition: ModelDefinition } | { ok: false; problems: string[] };

/** A definition object: its shape and parameters, then each command within one SMS. */
export function checkDefinition(raw: unknown): DefinitionCheck {
  const shape = readModelDefinition(raw);
  if (!shape.ok) return shape;
  const sms = definitionSmsProblems(shape.definition);
  return sms.length > 0 ? { ok: false, problems: sms } : shape;
}

/** A defined model's file text (the profile file, version 2). */
export function checkDefinitionFile(text: string): DefinitionCheck {
  const file = readDefinedModelFile(text);
  if (!file.ok) return file;
  return checkDefinition(file.file.definition);
}

/** Rebuilds this process's sheets of defined models from the database (at start, after a change, on a timer). */
export async function refreshDefinedModels(db: Executor): Promise<void> {
  const rows = await repository.listAllModels(db);
  const models: { id: number; definition: ModelDefinition }[] = [];
  for (const row of rows) {
    const checked = readModelDefinition(row.definition);
    if (checked.ok) models.push({ id: row.id, definition: checked.definition });
  }
  installDefinedModels(models);
}

function view(row: repository.DeviceModelRow, barriers: number): DeviceModelView {
  return {
    id: row.id,
    model: definedModelKey(row.id),
    name: row.name,
    definition: row.definition as ModelDefinition,
    barriers,
    updated_at: row.updatedAt.toISOString(),
  };
}

const invalid = (problems: string[]) => badRequest('device_model_invalid', undefined, { problems });

function definitionOf(body: { definition: unknown } | { file: string }): ModelDefinition {
  const checked = 'file' in body ? checkDefinitionFile(body.file) : checkDefinition(body.definition);
  if (!checked.ok) throw invalid(checked.problems);
  return checked.definition;
}

async function saving<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'device_models_owner_name_unique'))
      throw conflict('device_model_name_taken');
    throw error;
  }
}

type Deps = Pick<Dependencies, 'db' | 'clock'>;

export async function listDeviceModels(
  deps: Deps,
  admin: AuthenticatedUser,
): Promise<{ models: DeviceModelView[] }> {
  const rows = await repository.listOwnModels(deps.db, admin.id);
  const used = await repository.barriersUsing(
    deps.db,
    rows.map((row) => row.id),
  );
  return { models: rows.map((row) => view(row, used.get(row.id) ?? 0)) };
}

/** Defines a model for `ownerId` (the administrator, or the one the command line names). */
export async function defineModel(
  deps: Deps,
  ownerId: number,
  body: { definition: unknown } | { file: string },
): Promise<DeviceModelView> {
  const definition = definitionOf(body);
  const row = await saving(() =>
    deps.db.transaction(async (tx) => {
      if ((await repository.countOwnModels(tx, ownerId)) >= DEFINED_MODEL_LIMITS.perOwner) {
        throw conflict('device_models_limit');
      }
      return repository.insertModel(tx, {
        ownerId,
        name: definition.name.trim(),
        definition,
        now: deps.clock.now(),
      });
    }),
  );
  await refreshDefinedModels(deps.db);
  return view(row, 0);
}

export async function changeDeviceModel(
  deps: Deps,
  admin: AuthenticatedUser,
  id: number,
  body: { definition: unknown } | { file: string },
): Promise<DeviceModelView> {
  const definition = definitionOf(body);
  const row = await saving(() =>
    deps.db.transaction(async (tx) => {
      const found = await repository.findOwnModel(tx, admin.id, id, 'update');
      if (!found) throw notFound('device_model_not_found');
      // `updated_at` moves: a run before this change no longer verifies a barrier on the model.
      return repository.updateModel(tx, id, {
        name: definition.name.trim(),
        definition,
        now: deps.clock.now(),
      });
    }),
  );
  await refreshDefinedModels(deps.db);
  const used = await repository.barriersUsing(deps.db, [id]);
  return view(row, used.get(id) ?? 0);
}

export async function deleteDeviceModel(deps: Deps, admin: AuthenticatedUser, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // Locked: a barrier created on it meanwhile (which takes the row for share) waits, then finds it gone.
    const found = await repository.findOwnModel(tx, admin.id, id, 'update');
    if (!found) throw notFound('device_model_not_found');
    if (await repository.anyBarrierUsing(tx, id)) throw conflict('device_model_in_use');
    await repository.deleteModel(tx, id);
  });
  await refreshDefinedModels(deps.db);
}

/** The file of a defined model (the profile file, version 2); the password's factory value is the unit's, not a secret. */
export function definedModelFile(row: { name: string; definition: unknown }, now: Date) {
  return {
    format: DEVICE_PROFILE_FORMAT,
    version: DEFINED_MODEL_FILE_VERSION,
    model: DEFINED_MODEL_FILE_MODEL,
    exported_at: now.toISOString(),
    source: { kind: 'defined' as const, note: `Своя модель оператора «${row.name}»` },
    definition: row.definition as ModelDefinition,
    verified: [],
  };
}

/** His model's file; `ownerId` null: any model (the operator's command line, who holds the server). */
export async function exportDeviceModel(deps: Deps, ownerId: number | null, id: number) {
  const row =
    ownerId === null
      ? await repository.findModel(deps.db, id)
      : await repository.findOwnModel(deps.db, ownerId, id);
  if (!row) throw notFound('device_model_not_found');
  return { file: definedModelFile(row, deps.clock.now()), name: row.name };
}

/** The command line's `define-model`: the file's model for the administrator with this phone. */
export async function defineModelForAdminPhone(
  deps: Deps,
  phone: string,
  text: string,
): Promise<DeviceModelView> {
  const admin = await repository.findAdminByPhone(deps.db, phone);
  if (!admin) throw notFound('user_not_found');
  return defineModel(deps, admin.id, { file: text });
}

/**
 * A barrier's model as a defined one: for a barrier on a built-in model `defined: false`; else its name and
 * whether a conformance run on the barrier confirmed every form since the model last changed.
 */
export async function definedModelStatus(
  executor: Executor,
  barrier: { id: number; deviceModel: string },
): Promise<{ defined: boolean; name: string | null; verified: boolean }> {
  const id = definedModelId(barrier.deviceModel);
  if (id === null) return { defined: false, name: null, verified: true };
  const model = await repository.findModel(executor, id);
  if (!model) return { defined: true, name: null, verified: false };
  const run = await repository.latestFinishedRunSince(executor, barrier.id, model.updatedAt);
  const steps = (run?.steps ?? []) as { state: string; verdict: string | null }[];
  const verified =
    steps.length > 0 && steps.every((step) => step.state === 'skipped' || step.verdict === 'as_sheet');
  return { defined: true, name: model.name, verified };
}

export async function barrierDefinedModelStatus(deps: Deps, admin: AuthenticatedUser, barrierId: number) {
  const barrier = await requireBarrierPermission(deps.db, admin.id, barrierId, 'barrier.view');
  return definedModelStatus(deps.db, barrier);
}

/**
 * Whether a barrier of `ownerId` may be put on this model: null for a built-in one; for a defined one, true
 * when it is his (another's is refused as an unknown model is). Outside a transaction it also makes sure
 * this process knows its sheet (made by the command line a moment ago); inside one (`lock`) it takes the row
 * for share until the barrier is written, so a delete of the model waits, then finds the barrier.
 */
export async function ownDefinedModelForBarrier(
  executor: Executor,
  ownerId: number,
  model: string,
  lock: boolean,
): Promise<boolean | null> {
  const id = definedModelId(model);
  if (id === null) return null;
  const row = await repository.findOwnModel(executor, ownerId, id, lock ? 'share' : null);
  if (!row) return false;
  if (!lock && !isDeviceModel(model)) await refreshDefinedModels(executor);
  return true;
}
