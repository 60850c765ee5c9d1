// "Test connection" in the environment dialog: whether one runs, its result or why it could not
// run, and, for a kind that reports them (SSH), the stages it passes live and then as they ended.
import { useState } from 'react';
import type { CommandInput, SshConnectView, TestConnectionResult } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { formatMs } from '../ui/format';
import { testConnection } from './environment-actions';

const STAGE_TEXT: Record<TestConnectionResult['stage'], string> = {
  dns: 'name resolution',
  refused: 'connecting (refused)',
  certificate: 'server certificate check',
  auth: 'authentication',
  handshake: 'protocol handshake',
  version: 'server version check',
  timeout: 'timed out',
  spawn: 'starting the command',
  ok: 'all stages passed',
};

/** The line under the form that says how a test ended. */
export function testResultText(result: TestConnectionResult): string {
  if (result.ok) return `Connection works (${formatMs(result.rttMs)}).`;
  if (result.ssh?.failure) return 'The test failed; the stages above say where.';
  return `Failed at ${STAGE_TEXT[result.stage]}: ${result.message}`;
}

export interface ConnectionTest {
  testing: boolean;
  result: TestConnectionResult | null;
  /** Why the test could not run at all. */
  error: string | null;
  /** The stages of a live test, while it runs and after. */
  stages: SshConnectView | null;
  /** Runs a test (with live stages if asked); null if it could not run. */
  run: (
    input: Omit<CommandInput<'environments.test'>, 'testId'>,
    live: boolean,
  ) => Promise<TestConnectionResult | null>;
  /** Forgets the last result (the fields it tested changed into something untestable). */
  clear: () => void;
}

export function useConnectionTest(): ConnectionTest {
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestConnectionResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stages, setStages] = useState<SshConnectView | null>(null);

  const run: ConnectionTest['run'] = async (input, live) => {
    setTesting(true);
    setResult(null);
    setError(null);
    setStages(null);
    try {
      const ended = await testConnection(
        live ? { ...input, testId: crypto.randomUUID() } : input,
        live ? setStages : undefined,
      );
      setResult(ended);
      if (ended.ssh) setStages(ended.ssh);
      return ended;
    } catch (e) {
      setError(`Could not run the test: ${errorMessage(e)}`);
      return null;
    } finally {
      setTesting(false);
    }
  };

  const clear = () => {
    setResult(null);
    setError(null);
  };

  return { testing, result, error, stages, run, clear };
}
