/**
 * Writes docs/devices/MODELS.md from the command sheets (`npm run devices:evidence`). Commit the result:
 * packages/devices/src/model-evidence.test.ts fails when the committed file differs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODELS_DOC_PATH, renderModelsDoc } from '../src/model-evidence-doc.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const target = resolve(root, MODELS_DOC_PATH);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderModelsDoc());
console.log(`Wrote ${MODELS_DOC_PATH}`);
