/**
 * Writes docs/devices/MODELS.md from the command sheets and the verified profile files committed under
 * docs/devices/verified/ (`npm run devices:evidence`). Commit the result:
 * packages/devices/src/model-evidence.test.ts fails when the committed file differs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allModelEvidence } from '../src/model-evidence.ts';
import { MODELS_DOC_PATH, renderModelsDoc } from '../src/model-evidence-doc.ts';
import { VERIFIED_PROFILES_DIR } from '../src/model-runs.ts';
import { readVerifiedProfiles } from './verified-profiles.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const { profiles, problems } = readVerifiedProfiles(resolve(root, VERIFIED_PROFILES_DIR));
if (problems.length > 0) {
  console.error(`Файлы профилей в ${VERIFIED_PROFILES_DIR}/ не прочитаны:\n${problems.join('\n')}`);
  process.exit(1);
}
const target = resolve(root, MODELS_DOC_PATH);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderModelsDoc(allModelEvidence(), profiles));
console.log(`Wrote ${MODELS_DOC_PATH} (${profiles.length} verified profile files)`);
