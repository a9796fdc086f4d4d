import { useState } from 'react';

/**
 * One form submission at a time: `isBusy` while the action runs, then the error line it ends with. The action
 * resolves to a string to show, or to anything else when it has moved on (navigated, went to the next step).
 */
export function useSubmission(initialError: string | null = null) {
  const [error, setError] = useState<string | null>(initialError);
  const [isBusy, setIsBusy] = useState(false);

  async function run(action: () => Promise<unknown>): Promise<void> {
    setIsBusy(true);
    setError(null);
    try {
      const failure = await action();
      if (typeof failure === 'string') setError(failure);
    } finally {
      setIsBusy(false);
    }
  }

  return { error, setError, isBusy, run };
}
