/**
 * The embedded database can be held by one process only. A lock file with the holder's PID guards DATA_DIR;
 * a lock left by a dead process is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'propusk.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const descriptor = openSync(file, 'wx');
      writeSync(descriptor, String(process.pid));
      closeSync(descriptor);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `Встроенная база данных в ${dataDir} занята другим процессом (PID ${holder}). ` +
            'Сначала остановите его или используйте PostgreSQL (DATABASE_URL), чтобы работать несколькими процессами.',
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Не удалось занять ${dataDir}.`);
}
