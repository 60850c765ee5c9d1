import { useState } from 'react';
import { errorMessage } from '../../shared/error-message';

/**
 * The submit of a small dialog: `busy` while its action runs, the action's failure as `error`,
 * and `onDone` (closing it) after success.
 */
export function useSubmit(onDone: () => void): {
  busy: boolean;
  error: string | null;
  run: (action: () => Promise<unknown>) => Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(action: () => Promise<unknown>): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await action();
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }
  return { busy, error, run };
}
