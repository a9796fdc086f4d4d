/**
 * `docs/devices/MODELS.md`, written from `model-evidence.ts` (`npm run devices:evidence`). Pure: the script
 * writes the text, and a test compares it with the committed file.
 */
import type { FormEvidence, ModelEvidence } from './model-evidence.ts';
import { allModelEvidence } from './model-evidence.ts';
import {
  formRunNote,
  NOT_RUN_ON_UNIT,
  runLabel,
  runsOfModel,
  type UnitRun,
  VERIFIED_PROFILES_DIR,
  type VerifiedProfile,
} from './model-runs.ts';
import { onlyUnitCanTell, runWouldVerify } from './model-unit-notes.ts';

/** Where the document lives, from the repository root. */
export const MODELS_DOC_PATH = 'docs/devices/MODELS.md';

/** The words the document uses for a form the sheet marks unverified (the screens' Russian label quoted). */
export const UNVERIFIED_STATUS = '**unverified** («не проверено на устройстве»)';
export const VERIFIED_STATUS = 'shown by the source';

const CONFIRMATION: Record<ModelEvidence['confirmation'], string> = {
  reply: 'reply',
  read_back: 'read-back',
  none: 'none',
};

const CONFIRMATION_LONG: Record<ModelEvidence['confirmation'], string> = {
  reply: 'a documented reply to the command',
  read_back: 'no reply is documented: the engine reads the changed slot back and compares',
  none: 'neither a reply nor a read-back is documented: a change cannot be confirmed',
};

const DELETES_BY_READ =
  '; a delete is confirmed by the list read sent after it, because its answer names nothing and could be a late answer to another command';

const confirmationCell = (model: ModelEvidence) =>
  `${CONFIRMATION[model.confirmation]}${model.deletesByRead ? ', deletes read back' : ''}`;

/** A table cell: no line breaks, and `|` escaped (also inside code spans, as GitHub tables require). */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** A code span that survives backticks in the text. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text.startsWith('`') ? ' ' : ''}${text}${text.endsWith('`') ? ' ' : ''}${fence}`;
}

function anchor(model: ModelEvidence): string {
  return `${model.label} ${model.model}`
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

function formRow(form: FormEvidence, runs: readonly UnitRun[]): string {
  const status = form.verified ? VERIFIED_STATUS : UNVERIFIED_STATUS;
  const side = form.side === 'sms' ? 'sent' : 'received';
  const onUnit = formRunNote(form, runs) ?? '—';
  return `| ${cell(form.what)} | ${side} | ${cell(code(form.form))} | ${cell(form.source)} | ${status} | ${cell(onUnit)} |`;
}

/** The model's runs on a unit, or «не проверено на устройстве». */
function runLines(runs: readonly UnitRun[]): string[] {
  if (runs.length === 0)
    return [
      `- On a unit: ${NOT_RUN_ON_UNIT} (no verified profile of this model under \`${VERIFIED_PROFILES_DIR}/\`).`,
    ];
  return runs.map(
    (run) =>
      `- On a unit: ${runLabel(run)}, ${run.allConfirmed ? 'every form as the sheet says' : 'not every form as the sheet says'}; file \`${run.file}\`.`,
  );
}

function modelSection(model: ModelEvidence, runs: readonly UnitRun[]): string[] {
  const lines = [
    `## ${model.label} (\`${model.model}\`)`,
    '',
    `- Capacity: ${model.capacity} numbers. Source: ${model.capacitySource}.`,
    `- Confirmation of a change: **${confirmationCell(model)}** (${CONFIRMATION_LONG[model.confirmation]}${model.deletesByRead ? DELETES_BY_READ : ''}).`,
    model.offered
      ? '- Offered to a new barrier: yes.'
      : `- Offered to a new barrier: **no**; the form says «${model.unavailableReason}»`,
    `- Numbers written as \`${model.numberFormat}…\`. Source: ${model.numberFormatSource}.`,
  ];
  if (model.factoryPassword)
    lines.push(
      `- Factory password \`${model.factoryPassword.value}\`. Source: ${model.factoryPassword.source}.`,
    );
  if (model.alarmRecipients)
    lines.push(
      `- Unasked SMS go to slots 1–${model.alarmRecipients.alarmSlots}, the power-failure SMS to slot ${model.alarmRecipients.powerSlot}. Source: ${model.alarmRecipients.source}.`,
    );
  lines.push(
    `- Forms: ${model.verifiedCount} shown by their source, ${model.unverifiedCount} unverified.`,
    ...runLines(runs),
    ...(model.operatorNotes.length > 0
      ? ['- Before Propusk drives such a unit:', ...model.operatorNotes.map((note) => `  - ${note};`)]
      : []),
    `- A conformance run would send: ${runWouldVerify(model.model)}`,
    '- Only a real unit can tell:',
    ...onlyUnitCanTell(model.model).map((note) => `  - ${note};`),
    '',
    '| what | direction | form | source | status | on a unit |',
    '|---|---|---|---|---|---|',
    ...model.forms.map((form) => formRow(form, runs)),
    '',
  );
  return lines;
}

/**
 * The whole document for the given models (all of them by default), with the runs of the committed profile
 * files (`docs/devices/verified/*.json`, read and checked by packages/devices/scripts/verified-profiles.ts).
 */
export function renderModelsDoc(
  models: readonly ModelEvidence[] = allModelEvidence(),
  verified: readonly VerifiedProfile[] = [],
): string {
  const runs = new Map(models.map((model) => [model.model, runsOfModel(verified, model.model)]));
  const summary = models.map(
    (model) =>
      `| [${model.label}](#${anchor(model)}) (\`${model.model}\`) | ${model.capacity} | ${confirmationCell(model)} | ${model.offered ? 'yes' : '**no**'} | ${model.verifiedCount} | ${model.unverifiedCount} | ${runs.get(model.model)?.length || NOT_RUN_ON_UNIT} |`,
  );
  return [
    '# Device models: what is verified, from which source',
    '',
    '<!-- Generated by `npm run devices:evidence` from packages/devices/src/sheets (model-evidence.ts). Do not edit',
    '     by hand: packages/devices/src/model-evidence.test.ts fails when this file differs from the sheets. -->',
    '',
    'Every form the server sends to a unit or reads from it, per model, with the citation its command sheet',
    'gives (`packages/devices/src/sheets/*.ts`, documents in `sheets/sources.ts`). "Shown by the source" means',
    'the cited document prints the form for that model (or, for "production", the first deployment used it on',
    'real RTU5025 units); **unverified** means the sheet marks it so — inferred, taken from a sibling product or',
    'from a reading the project could not repeat — and the settings and device screens label it',
    '«не проверено на устройстве». No form was checked on hardware by this project. Why sources were chosen',
    'where they disagree: docs/decisions/0006-device-sheets.md and docs/decisions/0026-sheets-clock-new-models.md.',
    '',
    "A conformance run («Проверка устройства по модели») verifies forms on one unit: its date, model, the unit's",
    "firmware text where it reports one and the verdict per step travel in that barrier's profile file (`verified`,",
    "docs/devices/PROFILE-FORMAT.md). Runs live in a deployment's database; to show one here the operator exports",
    'the profile (`npm run cli -- export-profile --barrier N --out docs/devices/verified/<model>-<place>.json`, or',
    `«Скачать профиль» on the barrier's device screen), commits the file under \`${VERIFIED_PROFILES_DIR}/\` and runs`,
    "`npm run devices:evidence`: each form then names the run whose step sent it and that step's verdict. A model",
    `with no such file says ${NOT_RUN_ON_UNIT}.`,
    '',
    '| model | capacity | confirmation | offered to new barriers | forms shown by source | forms unverified | runs on a unit |',
    '|---|---|---|---|---|---|---|',
    ...summary,
    '',
    ...models.flatMap((model) => modelSection(model, runs.get(model.model) ?? [])),
  ].join('\n');
}
