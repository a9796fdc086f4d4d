/**
 * The server's and the CLI's entry points as the tests' child processes run them: the bundle that
 * global-setup.ts builds from these sources at the start of the run (`npm run build`'s esbuild step, into a
 * folder of its own under apps/server/dist), run by plain `node` as `npm run start:prod` and `cli:prod` run
 * theirs. Not through tsx: its loader took half of each child's CPU (a CLI run 2.8 CPU-s with tsx, 1.5 from the
 * bundle; about 45 children in each of CI's two server passes; docs/journal/2026-11-29-ci-cpu.md).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

export function bundledEntry(name: 'main' | 'cli'): string {
  const folder = process.env.PROPUSK_SERVER_BUNDLE;
  if (!folder)
    throw new Error(
      'PROPUSK_SERVER_BUNDLE is not set: run the server tests through vitest (global-setup.ts)',
    );
  return path.join(folder, `${name}.js`);
}

/**
 * A CLI run lives a second or two: V8's optimising compiler would rebuild the hot functions of the embedded
 * PostgreSQL's WebAssembly on background threads for a process about to exit. The tests' CLI runs use V8's
 * baseline compiler only (Liftoff): a run on a migrated DATA_DIR 4.0 → 2.1 CPU-s (decision 0043). The servers the
 * tests start keep V8's defaults until the flag is measured for them under CI's load (0043 says why it was taken
 * off them and what the cause turned out to be).
 */
const CLI_NODE_FLAGS = ['--liftoff-only'];

/** The arguments of `node` that run `name` with `args`, with the bundle's source maps (stack traces name src/). */
export function bundledArgs(name: 'main' | 'cli', ...args: string[]): string[] {
  return [...(name === 'cli' ? CLI_NODE_FLAGS : []), '--enable-source-maps', bundledEntry(name), ...args];
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The operator's CLI as he runs it: a child process from the repository's root with `env` over this process's
 * (logs silent; DATABASE_URL only when `env` names one), `input` written to its standard input (then closed),
 * stopped after `timeoutMs`.
 */
export function runBundledCli(
  options: { env: Record<string, string>; input?: string; timeoutMs: number },
  ...args: string[]
): Promise<CliResult> {
  const { env, input, timeoutMs } = options;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      bundledArgs('cli', ...args),
      { cwd: ROOT, env: childEnv, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}
