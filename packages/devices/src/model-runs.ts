/**
 * Which forms a conformance run on a real unit verified, for `docs/devices/MODELS.md` (issue 42 item 5). Runs
 * live in a deployment's database; they leave it in the barrier's exported profile file (its `verified` runs,
 * docs/devices/PROFILE-FORMAT.md). An operator commits that file under `docs/devices/verified/`, and the
 * generator (`npm run devices:evidence`) shows each run beside the forms its steps sent. Pure: the files are
 * read and their shape checked by the script (packages/devices/scripts/verified-profiles.ts).
 */
import type { FormEvidence } from './model-evidence.ts';
import type { ProfileFileData } from './profile-file.ts';

/** The folder of committed profile files, from the repository root. */
export const VERIFIED_PROFILES_DIR = 'docs/devices/verified';

/** The words the document uses for a model or form no run has verified (the screens' Russian label). */
export const NOT_RUN_ON_UNIT = '«не проверено на устройстве»';

/** A profile file as committed: its name in the folder and its checked data. */
export interface VerifiedProfile {
  file: string;
  data: ProfileFileData;
}

/** One finished run on a unit, as its profile file tells it. */
export interface UnitRun {
  /** The profile file it came from, from the repository root. */
  file: string;
  run: number;
  date: string;
  model: string;
  /** The unit's own firmware text, where it reported one. */
  firmware: string | null;
  allConfirmed: boolean;
  /** The clock order the unit was set in (its profile's), which a clock step verified. */
  clockOrder: string | null;
  verdicts: ReadonlyMap<string, string>;
}

/** Every run of the model in the files, oldest first. */
export function runsOfModel(profiles: readonly VerifiedProfile[], model: string): UnitRun[] {
  return profiles
    .filter((profile) => profile.data.model === model)
    .flatMap((profile) =>
      profile.data.verified.map((run) => ({
        file: `${VERIFIED_PROFILES_DIR}/${profile.file}`,
        run: run.run,
        date: run.date,
        model: run.model,
        firmware: run.firmware ?? null,
        allConfirmed: run.all_confirmed,
        clockOrder: profile.data.clock_order,
        verdicts: new Map(run.steps.map((step) => [step.key, step.verdict])),
      })),
    )
    .sort((a, b) => a.date.localeCompare(b.date) || a.run - b.run);
}

const VERDICT_WORDS: Record<string, string> = {
  as_sheet: 'as the sheet says',
  different: 'the unit answered in its own words (learnt into its profile)',
  no_answer: 'no answer',
  refused: 'refused (wrong password)',
  format_error: 'not understood',
};

/** `2026-11-28T11:40:00.000Z` → `2026-11-28` (a date the file wrote otherwise is shown as it is). */
const day = (date: string) => (/^\d{4}-\d{2}-\d{2}T/.test(date) ? date.slice(0, 10) : date);

/** «run 7 of 2026-11-28 (RTU5025, firmware "V1.7")»: which run, on which unit. */
export function runLabel(run: UnitRun): string {
  const firmware = run.firmware === null ? '' : `, firmware "${run.firmware}"`;
  return `run ${run.run} of ${day(run.date)} (${run.model}${firmware})`;
}

/**
 * What the runs say of one form: each run whose step sent it (or judged it, for a reply) and that step's
 * verdict; null when no run did. A clock form counts only for a run whose unit was set in its digit order.
 */
export function formRunNote(form: FormEvidence, runs: readonly UnitRun[]): string | null {
  const { step } = form;
  if (step === null) return null;
  const notes = runs.flatMap((run) => {
    const verdict = run.verdicts.get(step);
    if (verdict === undefined || verdict === 'skipped') return [];
    if (form.clockOrder && run.clockOrder !== form.clockOrder) return [];
    return [`${runLabel(run)}: ${VERDICT_WORDS[verdict] ?? verdict}`];
  });
  return notes.length > 0 ? notes.join('; ') : null;
}
