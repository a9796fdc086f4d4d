/**
 * The password rule (issue 29 part 9, ASVS 2.1): at least PASSWORD_MIN_LENGTH (12) characters, and not
 * guessable: zxcvbn's estimate with its common dictionaries (common passwords from breach lists, names,
 * English words and keyboard patterns) must reach score 3 (about 10^8 guesses), with the account's own phone
 * number and name as extra words. The dictionaries load once, on the first check (~150 ms), not at start-up.
 */
import { PASSWORD_MIN_LENGTH } from '@propusk/contracts/auth';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_SCORE = 3;
/** zxcvbn's matching grows with length; anything past this is judged by its first part (long is strong). */
const CHECKED_LENGTH = 64;

let factory: ZxcvbnFactory | undefined;

function estimator(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs });
  return factory;
}

export type PasswordVerdict = 'ok' | 'too_short' | 'too_weak';

/** Whether a password may be set (or kept) for an account with these phone and name. */
export function judgePassword(
  password: string,
  userInputs: readonly (string | null | undefined)[] = [],
): PasswordVerdict {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'too_short';
  const inputs = userInputs
    .filter((value): value is string => Boolean(value))
    .flatMap((value) => [value, value.replace(/^\+/, ''), value.replace(/^\+7/, ''), ...value.split(/\s+/)]);
  const result = estimator().check(password.slice(0, CHECKED_LENGTH), inputs);
  return result.score >= MIN_PASSWORD_SCORE ? 'ok' : 'too_weak';
}
