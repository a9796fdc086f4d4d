/**
 * Reads the committed profile files of units a conformance run verified (`docs/devices/verified/*.json`, the
 * format of docs/devices/PROFILE-FORMAT.md) for `npm run devices:evidence`. The shape is checked as the server
 * checks an imported file (`@propusk/contracts/device-profile-file`); a file that fails is reported with its
 * Russian problems, so a bad commit stops the generator instead of vanishing from MODELS.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readProfileFileShape } from '@propusk/contracts/device-profile-file';
import type { VerifiedProfile } from '../src/model-runs.ts';
import { isDeviceModel } from '../src/models.ts';
import type { ProfileFileData } from '../src/profile-file.ts';

export interface VerifiedProfilesReading {
  profiles: VerifiedProfile[];
  /** `file: problem`, one per problem (empty: every file is a profile of a known model). */
  problems: string[];
}

/** Every `*.json` of the folder, by name; a missing folder holds none. */
export function readVerifiedProfiles(dir: string): VerifiedProfilesReading {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return { profiles: [], problems: [] };
  }
  const profiles: VerifiedProfile[] = [];
  const problems: string[] = [];
  for (const file of names.sort()) {
    const shape = readProfileFileShape(readFileSync(join(dir, file), 'utf8'));
    if (!shape.ok) {
      problems.push(...shape.problems.map((problem) => `${file}: ${problem}`));
      continue;
    }
    const data = shape.file as ProfileFileData;
    if (!isDeviceModel(data.model)) {
      problems.push(`${file}: неизвестная модель устройства «${data.model}».`);
      continue;
    }
    profiles.push({ file, data });
  }
  return { profiles, problems };
}
